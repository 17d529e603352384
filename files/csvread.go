package files

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// Bounds on one CSV record: past them the record's remaining bytes are read
// but not kept, so a quote that is never closed cannot pull the rest of a
// large file into memory.
const (
	maxRecordBytes  = 1 << 20
	maxRecordFields = 1 << 16
)

// csvReader splits RFC 4180 records from a UTF-8 stream. It exists instead of
// encoding/csv because it must never fail and never grow without bound: it
// reads ragged rows, stray quotes and unclosed quotes as best it can, and
// notes where they are for the profile's problems.
type csvReader struct {
	br    *bufio.Reader
	delim byte
	// escape reads a backslash inside a quoted field as making the next
	// byte literal (\" is a quote), as the file's head says (backslashEscapes).
	escape bool
	buf    []byte // the current record's field bytes
	ends   []int  // where each field ends in buf
	state  int
	over   bool // the current record passed a bound

	line       int64 // newlines consumed so far
	recordLine int64 // line the current record starts on (1-based)
	quoteLine  int64 // line where the open quoted field started

	unclosedQuote int64 // line of a quote still open at the end of the file
	strayQuotes   int64 // quotes inside unquoted fields, or text after a closing quote
	strayLine     int64
	longRecords   int64
	longLine      int64

	// records counts the records returned; comments the comment lines
	// skipped.
	records, comments int64
}

const (
	stStart  = iota // at the start of a field
	stPlain         // in an unquoted field
	stQuoted        // inside a quoted field
	stQuote         // just read a quote inside a quoted field: closing or doubled
	stEscape        // just read a backslash inside a quoted field that escapes
)

func newCSVReader(r io.Reader, delim byte) *csvReader {
	return &csvReader{br: bufio.NewReaderSize(r, 256<<10), delim: delim}
}

// next reads the next record that is neither blank nor a comment line and
// returns its number of fields, or io.EOF after the last one. Field i is
// then field(i), valid until next.
func (r *csvReader) next() (int, error) {
	for {
		n, err := r.record()
		if err != nil {
			return n, err
		}
		if n <= 1 && len(r.buf) == 0 {
			continue // a blank line: pandas skips it too
		}
		if isComment(r.field(0), r.records == 0) {
			r.comments++
			continue
		}
		r.records++
		return n, nil
	}
}

// isComment reports a comment line, by the rules of the built-in analyst's
// loader (emulator/analyst/loader.py), so that the file card and the
// analyst agree on a file's shape: a line starting with "#", or, before
// the header, with "//" (leading spaces ignored).
func isComment(line []byte, beforeHeader bool) bool {
	line = bytes.TrimLeft(line, " \t")
	return bytes.HasPrefix(line, []byte("#")) || beforeHeader && bytes.HasPrefix(line, []byte("//"))
}

func (r *csvReader) record() (int, error) {
	r.buf, r.ends, r.state, r.over = r.buf[:0], r.ends[:0], stStart, false
	r.recordLine = r.line + 1
	started := false
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(chunk) > 0 {
			started = true
			if r.scan(chunk) {
				return r.finish(), nil
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && !started:
			return 0, io.EOF
		case errors.Is(err, io.EOF):
			if r.state == stQuoted {
				r.unclosedQuote = r.quoteLine
			}
			r.trimCR()
			r.endField() // the last line had no newline
			return r.finish(), nil
		case err != nil:
			return 0, err
		}
	}
}

// scan consumes one chunk, which ends with the only newline in it if any,
// and reports whether the record ended.
func (r *csvReader) scan(chunk []byte) bool {
	for i := 0; i < len(chunk); {
		switch r.state {
		case stStart, stPlain:
			used, done := r.scanPlain(chunk[i:])
			if done {
				return true
			}
			i += used
		case stQuoted:
			rest := chunk[i:]
			j := r.quotedEnd(rest)
			switch {
			case j < 0:
				j = len(rest)
			case rest[j] == '"':
				r.state = stQuote
			default:
				r.state = stEscape
			}
			r.add(rest[:j])
			r.line += int64(bytes.Count(rest[:j], []byte{'\n'}))
			i += min(j+1, len(rest))
		case stEscape:
			r.add(chunk[i : i+1])
			if chunk[i] == '\n' {
				r.line++
			}
			r.state = stQuoted
			i++
		case stQuote:
			if r.afterQuote(chunk[i]) {
				return true
			}
			i++
		}
	}
	return false
}

// quotedEnd is where the text of a quoted field stops in rest: at its next
// quote, or backslash when it escapes; -1 when it goes on past rest.
func (r *csvReader) quotedEnd(rest []byte) int {
	if r.escape {
		return bytes.IndexAny(rest, `"\`)
	}
	return bytes.IndexByte(rest, '"')
}

// backslashEscapes reports whether a file escapes quotes inside quoted
// fields with a backslash (\"), as its head shows: the analyst's loader
// (emulator/analyst/loader.py) decides on the same 64 KiB.
func backslashEscapes(head []byte) bool { return bytes.Contains(head, []byte(`\"`)) }

// scanPlain reads unquoted fields from rest up to the next quote or the end
// of the chunk, returning how many bytes it used and whether the record ended.
func (r *csvReader) scanPlain(rest []byte) (int, bool) {
	seg := rest
	q := bytes.IndexByte(rest, '"')
	if q >= 0 {
		seg = rest[:q]
	}
	used := 0
	for d := bytes.IndexByte(seg, r.delim); d >= 0; d = bytes.IndexByte(seg, r.delim) {
		r.add(seg[:d])
		r.endField()
		r.state = stStart
		seg, used = seg[d+1:], used+d+1
	}
	if q < 0 {
		if n := len(seg); n > 0 && seg[n-1] == '\n' {
			r.add(seg[:n-1])
			r.trimCR()
			r.endField()
			r.line++
			return len(rest), true
		}
		r.add(seg)
		if len(seg) > 0 {
			r.state = stPlain
		}
		return len(rest), false
	}
	if r.state == stStart && len(seg) == 0 {
		r.state, r.quoteLine = stQuoted, r.line+1
		return used + 1, false
	}
	r.stray()
	r.add(rest[used : q+1])
	r.state = stPlain
	return q + 1, false
}

// afterQuote handles the byte after a quote inside a quoted field and
// reports whether the record ended.
func (r *csvReader) afterQuote(c byte) bool {
	switch c {
	case '"':
		r.add([]byte{'"'})
		r.state = stQuoted
	case r.delim:
		r.endField()
		r.state = stStart
	case '\n':
		r.endField()
		r.line++
		return true
	case '\r':
	default:
		r.stray()
		r.add([]byte{c})
		r.state = stPlain
	}
	return false
}

func (r *csvReader) add(b []byte) {
	if r.over {
		return
	}
	if len(r.buf)+len(b) > maxRecordBytes {
		r.over = true
		return
	}
	r.buf = append(r.buf, b...)
}

func (r *csvReader) endField() {
	if len(r.ends) >= maxRecordFields {
		r.over = true
		return
	}
	r.ends = append(r.ends, len(r.buf))
}

// trimCR drops the carriage return of a CRLF line end from an unquoted field.
func (r *csvReader) trimCR() {
	start := 0
	if len(r.ends) > 0 {
		start = r.ends[len(r.ends)-1]
	}
	plain := r.state == stStart || r.state == stPlain
	if n := len(r.buf); plain && n > start && r.buf[n-1] == '\r' {
		r.buf = r.buf[:n-1]
	}
}

func (r *csvReader) stray() {
	if r.strayQuotes == 0 {
		r.strayLine = r.line + 1
	}
	r.strayQuotes++
}

func (r *csvReader) finish() int {
	if r.over {
		if r.longRecords == 0 {
			r.longLine = r.recordLine
		}
		r.longRecords++
	}
	return len(r.ends)
}

// field returns the bytes of field i of the current record.
func (r *csvReader) field(i int) []byte {
	start := 0
	if i > 0 {
		start = r.ends[i-1]
	}
	return r.buf[start:r.ends[i]]
}
