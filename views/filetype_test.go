package views

import "testing"

func TestHumanType(t *testing.T) {
	for _, c := range []struct{ ct, name, want string }{
		{"text/csv; charset=utf-8", "a.csv", "CSV table"},
		{"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "a.xlsx", "Excel workbook"},
		{"image/png", "a.png", "PNG image"},
		{"image/svg+xml", "a.svg", "SVG image"},
		{"application/octet-stream", "a.dat", "DAT file"},
		{"", "noext", "File"},
	} {
		if got := HumanType(c.ct, c.name); got != c.want {
			t.Errorf("HumanType(%q, %q) = %q, want %q", c.ct, c.name, got, c.want)
		}
	}
}
