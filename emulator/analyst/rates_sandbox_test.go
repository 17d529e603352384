package analyst

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// voyageCSV holds survival as the text True and False, as DataBench's Titanic table does:
// class 1 saved 2 of 2, class 2 1 of 2, class 3 1 of 4; women 3 of 4.
const voyageCSV = `Survived,Pclass,Sex
True,1,female
True,1,male
True,2,female
False,2,male
True,3,female
False,3,female
False,3,male
False,3,male
`

// TestRatesOfYesNoColumns holds "survival rate" as the share of rows where Survived is true
// (DataBench 002/13), never the survivors alone.
func TestRatesOfYesNoColumns(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "voyage.csv"), []byte(voyageCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"voyage.csv"}
	k := newKernelFrom(t, dir, files)
	k.exec(profileCode(files, ""))
	cases := []struct{ q, want string }{
		{"Name the top 3 passenger classes by survival rate.", "**1** (1), **2** (0.5), **3** (0.25)"},
		{"What is the survival rate of female passengers?", "is **0.75**"},
		{"Which passenger class has the highest survival rate?", "is **1** (1)"},
	}
	for _, c := range cases {
		reply, _, failed := k.ask(c.q, nil, files)
		if failed != "" || !strings.Contains(reply, c.want) {
			t.Errorf("%q:\n got %s %s\nwant %s", c.q, reply, failed, c.want)
		}
	}
}
