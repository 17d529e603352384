package files

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The shape decisions below are the built-in analyst's loader's too
// (emulator/analyst/loader.py), so that a file's card and the analyst's
// answers agree on its rows and columns; a shared set of files holds both
// to it (testdata/shapes, TestShapes here and in emulator/analyst).

// crOnly reports text whose lines end in a lone carriage return (classic
// Mac OS exports): no line feed anywhere in its head, a carriage return in it.
func crOnly(text []byte) bool {
	return bytes.IndexByte(text, '\n') < 0 && bytes.IndexByte(text, '\r') >= 0
}

// crLines reads r with every carriage return as a line feed.
type crLines struct{ r io.Reader }

func (c crLines) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i, b := range p[:n] {
		if b == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// maxTitleLines bounds the lines above a header taken for titles, and
// titleShare is how many of the rows below must agree on their width for a
// narrower line above them to be a title rather than a ragged row.
const (
	maxTitleLines = 20
	titleShare    = 0.8
)

// titleLines counts the lines above the header that are titles: lines with
// fewer fields than the rows below them nearly all have (a European export's
// "Umsatzbericht 2024" above "Datum;Region;Umsatz"), blank lines and
// comments aside.
func titleLines(text []byte, d byte) int {
	var lines [][]byte
	for _, l := range bytes.Split(text, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) > 0 && !isComment(l, true) {
			lines = append(lines, l)
		}
	}
	n := 0
	for n < len(lines)-1 && n < maxTitleLines {
		if bytes.Count(lines[n], []byte{'"'})%2 == 1 {
			break // a quoted name goes on over the next lines: this is the header
		}
		usual, share := consistency(lines[n+1:min(len(lines), n+51)], d)
		if usual <= 1 || share < titleShare || fieldsOutsideQuotes(lines[n], d) >= usual {
			break
		}
		n++
	}
	return n
}

// isDataRow reports whether a first row is data rather than names: every
// field a number, and not all of them whole years (1800 to 2100), which
// wide tables use as column names.
func isDataRow(fields []string) bool {
	years := 0
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if !parseNumber(f).ok {
			return false
		}
		if y, err := strconv.Atoi(f); err == nil && y >= 1800 && y <= 2100 {
			years++
		}
	}
	return len(fields) > 0 && years < len(fields)
}

// generatedNames names the n columns of a file without a header row.
func generatedNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("column_%d", i+1)
	}
	return names
}
