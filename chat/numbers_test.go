package chat

import "testing"

// TestColumnFormats is issue 40 item 2: a table's numbers read as the numbers they are — full
// precision to the column's own decimals, thousands grouped, no scientific notation below
// 1e15 — while years and identifiers stay as written.
func TestColumnFormats(t *testing.T) {
	rows := [][]any{
		{11431126.5, 2013.0, 50000.0, 0.1 + 0.2, 1.2e-8, -1234.5, 1e16, "Oslo", true},
		{123266.41, 2014.0, 50001.0, 2.0, 0.5, 7.0, 3.0, "Bergen", nil},
	}
	names := []string{"revenue", "Year", "order_id", "share", "p", "amount paid", "big", "city", "ok"}
	formats := ColumnFormats(names, rows, len(names))
	want := [][]string{
		{"11,431,126.50", "2013", "50000", "0.3", "1.2e-08", "-1,234.5", "1e+16", "Oslo", "True"},
		{"123,266.41", "2014", "50001", "2.0", "0.5", "7.0", "3", "Bergen", ""},
	}
	for r, row := range rows {
		for c, x := range row {
			if got, _ := formats[c].Format(x); got != want[r][c] {
				t.Errorf("row %d %s: %v shows as %q, want %q", r, names[c], x, got, want[r][c])
			}
		}
	}
	if _, full := formats[0].Format(11431126.5); full != "1.14311265e+07" {
		t.Errorf("the full value kept for sorting and copying is %q", full)
	}
}

// TestColumnFormats_YearsWithoutAName: whole numbers between 1800 and 2100 in a column of any
// name are years, and are not grouped; one value outside makes them quantities.
func TestColumnFormats_YearsWithoutAName(t *testing.T) {
	years := ColumnFormats([]string{"when"}, [][]any{{1999.0}, {2024.0}}, 1)[0]
	if got, _ := years.Format(1999.0); got != "1999" {
		t.Errorf("a year shows as %q", got)
	}
	counts := ColumnFormats([]string{"visitors"}, [][]any{{1999.0}, {12000.0}}, 1)[0]
	if got, _ := counts.Format(1999.0); got != "1,999" {
		t.Errorf("a count shows as %q", got)
	}
}
