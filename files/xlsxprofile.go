package files

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/xuri/excelize/v2"
)

// xlsxSampleRows is smaller than sampleRows: formatting cells is slow, and a
// thousand rows settle a column's type as well.
const xlsxSampleRows = 1_000

// xlsxOptions keep a workbook out of memory: worksheets and shared strings
// over 8 MB are unzipped to temporary files and streamed, and the total is
// capped like any archive's (checkWorkbook has refused larger ones before
// excelize sees them). Short dates are formatted as ISO dates so that their
// type is recognised.
var xlsxOptions = excelize.Options{
	UnzipSizeLimit:    maxArchiveSize,
	UnzipXMLSizeLimit: 8 << 20,
	ShortDatePattern:  "yyyy-mm-dd",
}

func profileXLSX(b budget, path string) (*FileProfile, error) {
	if _, err := checkWorkbook(path); err != nil {
		return nil, err
	}
	wb, err := excelize.OpenFile(path, xlsxOptions)
	if err != nil {
		// The library's words stay in Err, for the log, out of the message.
		return nil, &UserError{
			Msg: "This workbook could not be opened: it may be damaged, or be another kind of file named .xlsx. " +
				"Open it in Excel, save it again as .xlsx and upload it again.",
			Err: fmt.Errorf("%w: %w", ErrUnreadable, err),
		}
	}
	defer wb.Close()
	p := &FileProfile{Format: "xlsx", Sheets: wb.GetSheetList(), RowsExact: true}
	for _, sheet := range p.Sheets {
		rows, err := wb.Rows(sheet)
		if err != nil {
			continue // a chart sheet has no rows
		}
		p.Sheet = sheet
		err = scanSheet(b, rows, p)
		rows.Close()
		if err != nil {
			return nil, err
		}
		return p, nil
	}
	p.Problems = append(p.Problems, "The workbook has no worksheet with data. Check that you uploaded the right workbook.")
	return p, nil
}

// checkWorkbook refuses a file that excelize must not open, and returns
// the memory a profile of it is estimated to need. excelize reads a file
// that is not a ZIP archive whole, to try it as an encrypted workbook, and
// the parts of an archive whole but for large sheets: so the file must be a
// ZIP archive within the bounds of checkArchive, and what excelize would
// hold in memory must fit maxProfileMemory.
func checkWorkbook(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("files: profile xlsx: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, fmt.Errorf("files: profile xlsx: %w", err)
	}
	head, err := readHead(f, 8<<10)
	if err != nil {
		return 0, err
	}
	if isEncryptedOffice(head) {
		return 0, errEncrypted("This workbook")
	}
	if !bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return 0, userErr(ErrUnreadable, "This file is not an Excel workbook (.xlsx) inside. "+
			"Open it in Excel, save it again as .xlsx and upload it again.")
	}
	entries, err := checkArchive(f, info.Size(), "This workbook")
	if err != nil {
		return 0, err
	}
	cost, held := xlsxCost(entries)
	if cost > maxProfileMemory {
		return 0, errWorkbookTooHeavy(held)
	}
	return cost, nil
}

// sheetScan is the pass over the rows of one worksheet.
type sheetScan struct {
	rows    *excelize.Rows
	t       *table
	blank   int64 // blank rows not yet counted: pandas drops trailing ones
	stopped bool
}

func scanSheet(b budget, rows *excelize.Rows, p *FileProfile) error {
	s := &sheetScan{rows: rows}
	for s.t == nil && rows.Next() {
		header, err := rows.Columns()
		if err != nil {
			return sheetErr(err)
		}
		if !blankRow(header) {
			s.t = newTable(header)
		}
	}
	if s.t == nil {
		p.Problems = append(p.Problems, fmt.Sprintf("The first sheet, “%s”, is empty. "+
			"Move the data to the first sheet, or tell the assistant which sheet to read.", p.Sheet))
		return nil
	}
	if err := s.scan(b); err != nil {
		return err
	}
	p.RowsExact = !s.stopped
	p.Rows = s.t.rows
	s.t.fill(p)
	// Cells hold numbers, not text: separators are display formatting only.
	p.Thousands, p.Decimal = "", ""
	return nil
}

func (s *sheetScan) scan(b budget) error {
	for s.rows.Next() {
		opts := excelize.Options{RawCellValue: s.t.rows >= xlsxSampleRows}
		vals, err := s.rows.Columns(opts)
		if err != nil {
			return sheetErr(err)
		}
		if blankRow(vals) {
			s.blank++
			continue
		}
		for ; s.blank > 0; s.blank-- {
			s.t.count(0, nil)
		}
		if opts.RawCellValue {
			s.t.count(len(vals), func(i int) []byte { return []byte(vals[i]) })
		} else {
			s.t.add(vals)
		}
		if s.t.rows%256 == 0 && b.over() {
			s.stopped = true
			return nil
		}
	}
	if err := s.rows.Error(); err != nil {
		return sheetErr(err)
	}
	return nil
}

func blankRow(vals []string) bool {
	for _, v := range vals {
		if v != "" {
			return false
		}
	}
	return true
}

func sheetErr(err error) error {
	if errors.Is(err, excelize.ErrMaxRows) {
		return userErr(ErrUnreadable, "This workbook has more rows than Excel allows, so it is damaged. "+
			"Open it in Excel, save it again and upload it again.")
	}
	return fmt.Errorf("files: profile xlsx: %w", err)
}
