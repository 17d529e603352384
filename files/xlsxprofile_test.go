package files

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// writeWorkbook saves a workbook with a "Sales" sheet of rows and a second
// sheet "Notes", and returns its path.
func writeWorkbook(t testing.TB, rows [][]any) string {
	t.Helper()
	wb := excelize.NewFile()
	defer wb.Close()
	if err := wb.SetSheetName("Sheet1", "Sales"); err != nil {
		t.Fatal(err)
	}
	if _, err := wb.NewSheet("Notes"); err != nil {
		t.Fatal(err)
	}
	wb.SetCellValue("Notes", "A1", "written by the test")
	for i, row := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := wb.SetSheetRow("Sales", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "book.xlsx")
	if err := wb.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestProfileXLSX(t *testing.T) {
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	rows := [][]any{
		{"Region", "Units", "Price", "Sold on", "Active", "Comment"},
		{"North", 10, 2.5, day, true, "first"},
		{"South", 20, 3.25, day.AddDate(0, 0, 1), false, nil},
		{nil, 30, 4.0, day.AddDate(0, 0, 2), true, nil},
		{},
		{"West", 1234567, 5.5, day.AddDate(0, 1, 0), false, "after a blank row"},
		{}, {}, // trailing blank rows, which pandas drops
	}
	p, err := Profile(context.Background(), writeWorkbook(t, rows), mustKind(t, ".xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Sheets, []string{"Sales", "Notes"}) || p.Sheet != "Sales" || p.Format != "xlsx" {
		t.Errorf("sheets %q, profiled %q, format %q; want [Sales Notes], Sales, xlsx", p.Sheets, p.Sheet, p.Format)
	}
	if p.Rows != 5 || !p.RowsExact {
		t.Errorf("rows = %d exact %v, want 5 exact (a blank row in the middle counts)", p.Rows, p.RowsExact)
	}
	tests := []struct {
		col     string
		typ     string
		missing int64
	}{
		{"Region", TypeText, 2}, {"Units", TypeInteger, 1}, {"Price", TypeNumber, 1},
		{"Sold on", TypeDate, 1}, {"Active", TypeBoolean, 1}, {"Comment", TypeText, 3},
	}
	for _, tt := range tests {
		c := column(t, p, tt.col)
		if c.Type != tt.typ || c.Missing != tt.missing {
			t.Errorf("column %s: %s, %d missing (example %q); want %s, %d", tt.col, c.Type, c.Missing, c.Example, tt.typ, tt.missing)
		}
	}
	if len(p.Sample) != 4 || p.Sample[0][0] != "North" {
		t.Errorf("sample = %q, want the 4 non-blank rows", p.Sample)
	}
	if p.Thousands != "" || p.Decimal != "" || p.Encoding != "" {
		t.Errorf("text-only fields set for a workbook: %+v", p)
	}
}

func TestProfileXLSXEmptyFirstSheet(t *testing.T) {
	p, err := Profile(context.Background(), writeWorkbook(t, nil), mustKind(t, ".xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Rows != 0 || len(p.Columns) != 0 || !hasProblem(p, "The first sheet, “Sales”, is empty.") {
		t.Errorf("profile %+v, want no rows and a problem", p)
	}
}

func TestProfileXLSXRefused(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"zip that is no workbook", zipBytes(t), ErrUnreadable},
		{"text", []byte("a,b\n1,2\n"), ErrUnreadable},
		{"encrypted", append(append([]byte{}, oleHead...), encryptedPackage...), ErrUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Profile(context.Background(), writeTemp(t, "b.xlsx", tt.data), mustKind(t, ".xlsx"))
			var ue *UserError
			if !errors.Is(err, tt.want) || !errors.As(err, &ue) {
				t.Fatalf("Profile error = %v, want a user error", err)
			}
			checkSentences(t, ue.Msg)
		})
	}
}

func mustKind(t testing.TB, ext string) Kind {
	t.Helper()
	k, ok := KindOf("x" + ext)
	if !ok {
		t.Fatalf("no kind for %s", ext)
	}
	return k
}
