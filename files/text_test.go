package files

import (
	"encoding/binary"
	"testing"
	"unicode/utf16"
)

func utf16LE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, u)
	}
	return b
}

func utf16BE(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.BigEndian.AppendUint16(b, u)
	}
	return b
}

func TestSniffText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		head     []byte
		wantEnc  string
		wantText bool
	}{
		{"ascii", []byte("a,b\n1,2\n"), "utf-8", true},
		{"utf-8", []byte("city\nZürich\n"), "utf-8", true},
		{"utf-8 cut mid-rune", []byte("city\nZ\xc3"), "utf-8", true},
		{"utf-8 bom", []byte("\xef\xbb\xbfa,b\n"), "utf-8-sig", true},
		{"utf-16 le bom", utf16LE("\ufeffa,b\r\nZürich,2\r\n"), "utf-16", true},
		{"utf-16 be bom", utf16BE("\ufeffa,b\r\n1,2\r\n"), "utf-16", true},
		{"utf-16 le no bom", utf16LE("name,amount\r\nx,1\r\n"), "utf-16-le", true},
		{"utf-16 be no bom", utf16BE("name,amount\r\nx,1\r\n"), "utf-16-be", true},
		{"latin-1 umlaut", []byte("city\nZ\xfcrich\n"), "cp1252", true},
		{"windows-1252 euro and quotes", []byte("\x93price\x94\n\x80 5\n"), "cp1252", true},
		{"latin-1 with c1 control", []byte("a\n\x81b\n"), "latin-1", true},
		{"binary junk", junk(2048), "", false},
		{"nul in text", []byte("a,b\n1,\x002\n"), "", false},
		{"many controls", []byte("a\x01b\x02c\x03d\x04e\x05"), "utf-8", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc, ok := sniffText(tt.head)
			if ok != tt.wantText || (ok && enc.name != tt.wantEnc) {
				t.Errorf("sniffText = %q, %v; want %q, %v", enc.name, ok, tt.wantEnc, tt.wantText)
			}
		})
	}
}
