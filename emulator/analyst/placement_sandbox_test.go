package analyst

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// buildingsCSV is a small table in the file's own order: rows placed by their neighbours, a
// measure some rows lack, and heights two ranges hold equally many of.
const buildingsCSV = `Name,Height,Floors,City,Built
State Tower Building,96,23,Syracuse,1928-03-03
Granger Block,40,5,Syracuse,1869-02-09
Hotel Syracuse,78,19,Syracuse,1924-02-11
Monroe Tower,60,0,Rochester,1931-04-02
Bell Hall,30,4,Rochester,1931-02-02
`

// TestPlacedRowsAndTies asks what analysts ask of such a table (WTQ's "listed after", DataBench's
// ranges and absent measures) and holds the replies: the row next in the file, never the named
// one; a tie at the top named as a tie; "zero floors" as the rows at 0, said in plain words.
func TestPlacedRowsAndTies(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "buildings.csv"), []byte(buildingsCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"buildings.csv"}
	k := newKernelFrom(t, dir, files)
	k.exec(profileCode(files, ""))
	cases := []struct{ q, want string }{
		// the row after Granger Block is the third line of the file
		{"which building is listed after the granger block?", "The `Name` listed after Granger Block in the file's order is **Hotel Syracuse**."},
		{"which building comes before bell hall?", "is **Monroe Tower**"},
		{"what is the height of the building right after hotel syracuse?", "is **60**"},
		// heights 30 and 40 are in 0-50, 60 and 78 in 50-80, 96 above: two ranges of two
		{"What's the most common height range among buildings: (0-50, 50-80, 80+)?", "is a tie: **0-50** (2 rows) and **50-80** (2 rows)"},
		// Monroe Tower has no floors recorded as 0
		{"are there any buildings with zero floors?", "**Yes.** 1 row matches: `Floors` is 0."},
		{"are there any buildings with zero height?", "**No.** No row matches: `Height` is 0."},
	}
	for _, c := range cases {
		reply, _, failed := k.ask(c.q, nil, files)
		if failed != "" || !strings.Contains(reply, c.want) {
			t.Errorf("%q:\n got %s %s\nwant %s", c.q, reply, failed, c.want)
		}
	}
}
