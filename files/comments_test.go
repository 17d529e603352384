package files

import (
	"slices"
	"testing"
)

// Comment lines are read as the built-in analyst's loader reads them
// (emulator/analyst/loader.py): "#" or, before the header, "//" lines are
// skipped, so the file card and the analyst agree on the shape.
func TestProfileCSVCommentLines(t *testing.T) {
	tests := []struct {
		name, text string
		rows       int64
		columns    []string
	}{
		{"a source line, then the header", "# Data source: Yahoo Finance, daily\nDate,Open,Close\n2024-01-02,1.5,1.75\n2024-01-03,1.75,2\n",
			2, []string{"Date", "Open", "Close"}},
		{"slashes and blank lines before the header", "// exported by a tool\n// second comment\n\nwhen|city|count\n2021/03/04|Oslo|1 200\n2021/03/05|Bergen|900\n",
			2, []string{"when", "city", "count"}},
		{"a comment line among the rows", "a,b\n1,2\n# a note\n3,4\n", 2, []string{"a", "b"}},
		{"slashes after the header are data", "a,b\n//x,1\n3,4\n", 2, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileOf(t, "x.csv", []byte(tt.text))
			var names []string
			for _, c := range p.Columns {
				names = append(names, c.Name)
			}
			if p.Rows != tt.rows || !slices.Equal(names, tt.columns) || len(p.Problems) != 0 {
				t.Fatalf("%d rows, columns %q, problems %q; want %d rows, %q", p.Rows, names, p.Problems, tt.rows, tt.columns)
			}
		})
	}
}
