package files

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/transform"
)

// sniffBytes is how much of a text file decides its encoding and delimiter.
const sniffBytes = 64 << 10

func profileCSV(b budget, f *os.File, size int64, k Kind) (*FileProfile, error) {
	head, err := readHead(f, sniffBytes)
	if err != nil {
		return nil, err
	}
	enc, ok := sniffText(head)
	if !ok {
		return nil, userErr(ErrUnreadable, "This file is not readable as text, so it can't be profiled. "+
			"Export the data again as CSV and upload that.")
	}
	prefer := byte(',')
	if k.Ext == ".tsv" {
		prefer = '\t'
	}
	text := decodeHead(enc, head)
	cr := &countingReader{r: f}
	src := enc.reader(cr)
	if crOnly(text) {
		text, src = bytes.ReplaceAll(text, []byte{'\r'}, []byte{'\n'}), crLines{src}
	}
	delim := sniffDelimiter(text, prefer)
	p := &FileProfile{Format: strings.TrimPrefix(k.Ext, "."), Encoding: enc.name, Delimiter: string(delim), RowsExact: true}

	rd := newCSVReader(src, delim)
	rd.escape = backslashEscapes(text)
	n, err := rd.next()
	for titles := titleLines(text, delim); err == nil && titles > 0; titles-- {
		n, err = rd.next()
	}
	if errors.Is(err, io.EOF) {
		p.Problems = append(p.Problems, "The file has no rows: it holds only blank lines. Check that you exported the right data.")
		return p, nil
	}
	if err != nil {
		return nil, fmt.Errorf("files: profile csv: %w", err)
	}
	t := headerOrData(rd.strings(n))
	s := csvScan{rd: rd, t: t, enc: enc, p: p, asciiHead: isASCII(head)}
	if err := s.rows(b); err != nil {
		return nil, err
	}
	if !p.RowsExact {
		t.rows = estimate(t.rows, cr.n, size)
	}
	p.Rows = t.rows
	t.fill(p)
	s.report()
	return p, nil
}

// headerOrData starts the table of a file whose first row is first: its
// names, or, when it is data, the first row under generated names.
func headerOrData(first []string) *table {
	if !isDataRow(first) {
		return newTable(first)
	}
	t := newTable(generatedNames(len(first)))
	t.problemf("The file has no header row, so its columns are named column_1 to column_%d, "+
		"as the assistant calls them too.", len(first))
	t.add(first)
	return t
}

// csvScan is the pass over a CSV file's data rows.
type csvScan struct {
	rd       *csvReader
	t        *table
	enc      textEncoding
	p        *FileProfile
	ragged   int64
	raggedAt int64 // line of the first ragged row
	raggedN  int   // its number of fields
	badUTF8  int64 // line of the first invalid UTF-8, 0 if none
	// asciiHead is true when the sniffed head was plain ASCII, so that a
	// later invalid byte means the whole file is single-byte encoded.
	asciiHead bool
}

func (s *csvScan) rows(b budget) error {
	for {
		n, err := s.rd.next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("files: profile csv: %w", err)
		}
		s.check(n)
		if s.t.sampling() {
			s.t.add(s.rd.strings(n))
		} else {
			s.t.count(n, s.rd.field)
		}
		if s.t.rows%4096 == 0 && b.over() {
			s.p.RowsExact = false
			return nil
		}
	}
}

// check notes a row whose width differs from the header's, and the first
// bytes that are not UTF-8 in a file that began as UTF-8.
func (s *csvScan) check(n int) {
	if n != len(s.t.cols) && len(s.t.cols) < maxColumns {
		if s.ragged == 0 {
			s.raggedAt, s.raggedN = s.rd.recordLine, n
		}
		s.ragged++
	}
	if s.badUTF8 == 0 && s.enc.name == "utf-8" && !utf8.Valid(s.rd.buf) {
		s.badUTF8 = s.rd.recordLine
	}
}

// report adds the problems found while reading to the profile.
func (s *csvScan) report() {
	rd, p := s.rd, s.p
	if s.ragged > 0 {
		p.Problems = append(p.Problems, fmt.Sprintf("Some rows (%d) have a different number of fields from the header's %d; "+
			"the first is line %d, with %d. Missing fields are counted as empty and extra ones are ignored; "+
			"check the delimiter and the quoting of those rows.", s.ragged, len(s.t.cols), s.raggedAt, s.raggedN))
	}
	if rd.unclosedQuote > 0 {
		p.RowsExact = false
		p.Problems = append(p.Problems, fmt.Sprintf("A quote opened on line %d is never closed, so the rest of the file "+
			"was read as one field and the counts are too low. Close or remove that quote and upload the file again.", rd.unclosedQuote))
	}
	if rd.strayQuotes > 0 {
		p.Problems = append(p.Problems, fmt.Sprintf("Some fields (%d) have a quote in an unexpected place, the first on line %d. "+
			"They were read as written; check that the quoting is right.", rd.strayQuotes, rd.strayLine))
	}
	if rd.longRecords > 0 {
		p.Problems = append(p.Problems, fmt.Sprintf("Some rows (%d) are longer than 1 MB, the first starting on line %d. "+
			"Only their first megabyte was profiled; check the quoting of that line.", rd.longRecords, rd.longLine))
	}
	if s.badUTF8 > 0 {
		if s.asciiHead {
			p.Encoding = "cp1252"
		}
		p.Problems = append(p.Problems, fmt.Sprintf("Line %d is not valid UTF-8 although the lines before it are; "+
			"the file may mix encodings. It is most likely Windows-1252 (cp1252); "+
			"save it again as UTF-8 if characters look wrong.", s.badUTF8))
	}
}

// strings returns the current record's first n fields as strings.
func (r *csvReader) strings(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = string(r.field(i))
	}
	return out
}

// readHead reads up to n bytes from the start of f.
func readHead(f *os.File, n int) ([]byte, error) {
	buf := make([]byte, n)
	m, err := f.ReadAt(buf, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("files: read head: %w", err)
	}
	return buf[:m], nil
}

// decodeHead returns head as UTF-8 text for sniffing the delimiter.
func decodeHead(enc textEncoding, head []byte) []byte {
	head = head[enc.bom:]
	if enc.dec == nil {
		return head
	}
	out, _, _ := transform.Bytes(enc.dec.NewDecoder(), head[:len(head)&^1])
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
