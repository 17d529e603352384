package files

import (
	"archive/zip"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// writeBigWorkbook streams rows data rows into a workbook, whose sheet XML
// is then larger than the 16 MB excelize keeps in memory.
func writeBigWorkbook(t testing.TB, rows int) string {
	t.Helper()
	wb := excelize.NewFile()
	defer wb.Close()
	sw, err := wb.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	sw.SetRow("A1", []any{"id", "region", "amount", "note", "flag"})
	regions := []any{"north", "south", "east", "west", nil}
	for i := 1; i <= rows; i++ {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		row := []any{i, regions[i%5], float64(i) / 4, fmt.Sprintf("note number %d", i), i%2 == 0}
		if err := sw.SetRow(cell, row); err != nil {
			t.Fatal(err)
		}
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.xlsx")
	if err := wb.SaveAs(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBigWorkbook checks that a workbook whose sheet is larger than the
// in-memory threshold is profiled from a stream, in bounded memory.
func TestBigWorkbook(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a large workbook")
	}
	const rows = 150_000
	// The test is about memory, not speed: a busy machine may not read the
	// whole sheet within the product's time budget.
	defer func(old time.Duration) { timeBudget = old }(timeBudget)
	timeBudget = 10 * time.Minute
	path := writeBigWorkbook(t, rows)
	if n := sheetXMLSize(t, path); n <= uint64(xlsxOptions.UnzipXMLSizeLimit) {
		t.Fatalf("sheet XML is %d bytes, too small to leave memory", n)
	}
	var p *FileProfile
	start := time.Now()
	grew := peakHeap(func() {
		var err error
		if p, err = Profile(context.Background(), path, mustKind(t, ".xlsx")); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Profile: %v, heap grew by %.1f MiB at most", time.Since(start).Round(time.Millisecond), float64(grew)/(1<<20))
	if grew > 64<<20 {
		t.Errorf("Profile grew the heap by %d MiB, want at most 64", grew>>20)
	}
	if p.Rows != rows || !p.RowsExact {
		t.Errorf("rows = %d exact %v, want %d exact", p.Rows, p.RowsExact, rows)
	}
	if c := column(t, p, "region"); c.Missing != rows/5 || c.Type != TypeText {
		t.Errorf("region: %s with %d missing, want text with %d", c.Type, c.Missing, rows/5)
	}
	if c := column(t, p, "flag"); c.Type != TypeBoolean {
		t.Errorf("flag: %s, want boolean", c.Type)
	}
}

func sheetXMLSize(t *testing.T, path string) uint64 {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == "xl/worksheets/sheet1.xml" {
			return f.UncompressedSize64
		}
	}
	t.Fatal("no sheet1.xml")
	return 0
}
