package analyst

import (
	"strings"
	"testing"
)

// TestSavedRowsStartWithTheirColumns is issue 40's minor: the CSV of filtered rows starts with
// the file's columns, not an unnamed column of row numbers; a grouped result keeps its key.
func TestSavedRowsStartWithTheirColumns(t *testing.T) {
	k := newKernel(t, []string{"sales.csv"})
	files := []string{"sales.csv"}
	for q, header := range map[string]string{
		"save the rows where region is West as csv": "order_id,",
		"save total revenue by region as csv":       "region,",
	} {
		reply, cells := converse(t, k, files, q)
		var saved string
		for _, c := range cells {
			for _, f := range c.Files {
				if strings.HasSuffix(f, ".csv") && !strings.HasPrefix(f, ".") {
					saved = f
				}
			}
		}
		if saved == "" {
			t.Fatalf("%q: no CSV saved:\n%s", q, reply)
		}
		c := k.exec("print(open(" + pyStr(saved) + ").readline(), end='')")
		if !strings.HasPrefix(c.Stdout, header) {
			t.Errorf("%q: %s starts %q, want %q", q, saved, c.Stdout, header)
		}
	}
}
