package files

import (
	"bytes"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// textEncoding is a detected character encoding. Its name is the Python codec
// name, so that the agent can pass it to pandas.read_csv(encoding=...) as is.
type textEncoding struct {
	name string
	dec  encoding.Encoding // nil for UTF-8, read as is
	bom  int               // bytes of UTF-8 byte-order mark to skip
}

var (
	encUTF8    = textEncoding{name: "utf-8"}
	encUTF8BOM = textEncoding{name: "utf-8-sig", bom: 3}
	encUTF16   = textEncoding{name: "utf-16", dec: unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)}
	encUTF16LE = textEncoding{name: "utf-16-le", dec: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)}
	encUTF16BE = textEncoding{name: "utf-16-be", dec: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)}
	encCP1252  = textEncoding{name: "cp1252", dec: charmap.Windows1252}
	encLatin1  = textEncoding{name: "latin-1", dec: charmap.ISO8859_1}
)

// reader returns r decoded to UTF-8, without any byte-order mark.
func (e textEncoding) reader(r io.Reader) io.Reader {
	if e.bom > 0 {
		if _, err := io.CopyN(io.Discard, r, int64(e.bom)); err != nil {
			return bytes.NewReader(nil)
		}
	}
	if e.dec == nil {
		return r
	}
	return transform.NewReader(r, e.dec.NewDecoder())
}

// sniffText detects the encoding of head, the first bytes of a file, and
// reports whether head reads as text in it. Binary data fails either because
// it has NUL bytes outside a UTF-16 pattern or because too many of its
// characters are control characters.
func sniffText(head []byte) (textEncoding, bool) {
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		body := head[3:]
		return encUTF8BOM, validUTF8Prefix(body) && fewControls(body)
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}), bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return encUTF16, decodesAsText(encUTF16, head)
	case bytes.IndexByte(head, 0) >= 0:
		e, ok := utf16WithoutBOM(head)
		return e, ok && decodesAsText(e, head)
	case validUTF8Prefix(head):
		return encUTF8, fewControls(head)
	}
	return singleByte(head), fewControls(head)
}

// validUTF8Prefix is utf8.Valid, except that a rune cut off at the end of b
// (head is usually a prefix of the file) is allowed.
func validUTF8Prefix(b []byte) bool {
	if utf8.Valid(b) {
		return true
	}
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return !utf8.FullRune(b[i:]) && utf8.Valid(b[:i])
		}
	}
	return false
}

// utf16WithoutBOM recognises UTF-16 text that lacks a byte-order mark by its
// zero high bytes: mostly-ASCII text has a NUL in every other byte.
func utf16WithoutBOM(head []byte) (textEncoding, bool) {
	pairs := len(head) / 2
	if pairs < 2 {
		return textEncoding{}, false
	}
	var even, odd int
	for i := 0; i+1 < len(head); i += 2 {
		if head[i] == 0 {
			even++
		}
		if head[i+1] == 0 {
			odd++
		}
	}
	switch {
	case odd*10 >= pairs*3 && even*20 < pairs:
		return encUTF16LE, true
	case even*10 >= pairs*3 && odd*20 < pairs:
		return encUTF16BE, true
	}
	return textEncoding{}, false
}

func decodesAsText(e textEncoding, head []byte) bool {
	head = head[:len(head)&^1]
	out, _, err := transform.Bytes(e.dec.NewDecoder(), head)
	return err == nil && fewControls(out)
}

// singleByte picks between Windows-1252 and Latin-1 for text that is not
// UTF-8. Windows-1252 is what Excel and Windows tools write; the five bytes it
// leaves undefined betray Latin-1 with C1 controls, which Python's cp1252
// codec would refuse.
func singleByte(head []byte) textEncoding {
	for _, c := range head {
		switch c {
		case 0x81, 0x8D, 0x8F, 0x90, 0x9D:
			return encLatin1
		}
	}
	return encCP1252
}

// fewControls reports whether b, read as UTF-8 or single bytes, has no NUL
// and at most 1% control characters other than the usual whitespace.
func fewControls(b []byte) bool {
	var ctl int
	for _, c := range b {
		switch {
		case c == 0:
			return false
		case c == '\t', c == '\n', c == '\r', c == '\f', c == '\v':
		case c < 0x20, c == 0x7F:
			ctl++
		}
	}
	return ctl*100 <= len(b)
}
