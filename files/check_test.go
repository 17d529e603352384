package files

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func zipBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("[Content_Types].xml")
	w.Write([]byte("<Types/>"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarBytes(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "a.csv", Mode: 0o600, Size: 4})
	tw.Write([]byte("a,b\n"))
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// junk is reproducible random bytes, the "binary junk" of a broken export.
func junk(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

var (
	pngHead  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01")
	jpegHead = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00")
	pdfHead  = []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n")
	oleHead  = append([]byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"), make([]byte, 504)...)
	elfHead  = append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 57)...)
	peHead   = append([]byte("MZ\x90\x00\x03"), make([]byte, 59)...)
	gzipHead = []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03")
)

func TestCheck(t *testing.T) {
	t.Parallel()
	encrypted := append(bytes.Clone(oleHead), encryptedPackage...)
	tests := []struct {
		name    string
		file    string
		head    []byte
		wantExt string
		wantErr error
		wantMsg string // part of the message for the user
	}{
		{"csv", "data.csv", []byte("a,b\n1,2\n"), ".csv", nil, ""},
		{"extension in capitals", "DATA.CSV", []byte("a,b\n"), ".csv", nil, ""},
		{"tsv", "data.tsv", []byte("a\tb\n"), ".tsv", nil, ""},
		{"json", "r.json", []byte(`[{"a":1}]`), ".json", nil, ""},
		{"shell script", "run.sh", []byte("#!/bin/sh\necho hi\n"), ".sh", nil, ""},
		{"csv starting with MZ", "codes.csv", []byte("MZ,code\n1,2\n"), ".csv", nil, ""},
		{"latin-1 csv", "l.csv", []byte("city\nZ\xfcrich\n"), ".csv", nil, ""},
		{"windows-1252 csv", "w.csv", []byte("price\n\x80 5\n"), ".csv", nil, ""},
		{"utf-16 csv with bom", "u.csv", utf16LE("\ufeffa,b\r\n1,2\r\n"), ".csv", nil, ""},
		{"utf-8 csv with bom", "u8.csv", []byte("\xef\xbb\xbfa,b\n"), ".csv", nil, ""},
		{"xlsx", "book.xlsx", zipBytes(t), ".xlsx", nil, ""},
		{"xlsx named xls", "book.xls", zipBytes(t), ".xls", nil, ""},
		{"xls", "old.xls", oleHead, ".xls", nil, ""},
		{"docx", "memo.docx", zipBytes(t), ".docx", nil, ""},
		{"png", "chart.png", pngHead, ".png", nil, ""},
		{"jpg", "photo.jpg", jpegHead, ".jpg", nil, ""},
		{"gif", "a.gif", []byte("GIF89a\x01\x00\x01\x00"), ".gif", nil, ""},
		{"pdf", "report.pdf", pdfHead, ".pdf", nil, ""},
		{"tar", "bundle.tar", tarBytes(t), ".tar", nil, ""},
		{"parquet", "t.parquet", []byte("PAR1\x15\x04\x15"), ".parquet", nil, ""},

		{"no extension", "data", []byte("a,b\n"), "", ErrUnsupported, "has no file extension"},
		{"unsupported extension", "setup.exe", peHead, "", ErrUnsupported, ".exe files aren't supported"},
		{"unsupported archive", "d.gz", gzipHead, "", ErrUnsupported, ".gz files aren't supported"},
		{"empty", "data.csv", nil, "", ErrEmpty, "is empty"},
		{"elf named csv", "data.csv", elfHead, "", ErrExecutable, "is a program"},
		{"windows program named xlsx", "book.xlsx", peHead, "", ErrExecutable, "is a program"},
		{"png named csv", "data.csv", pngHead, "", ErrMismatch, "its content is a PNG image"},
		{"pdf named txt", "notes.txt", pdfHead, "", ErrMismatch, "a PDF document"},
		{"gzip named csv", "data.csv", gzipHead, "", ErrMismatch, "a gzip archive. That type isn't supported"},
		{"binary junk named csv", "data.csv", junk(4096), "", ErrMismatch, "binary data, not text"},
		{"text named xlsx", "book.xlsx", []byte("a,b\n1,2\n"), "", ErrMismatch, "its content is plain text. If it holds CSV data, rename it to .csv"},
		{"junk named xlsx", "book.xlsx", junk(600)[1:], "", ErrMismatch, "data of an unknown kind. Rename it to match"},
		{"png named jpg", "photo.jpg", pngHead, "", ErrMismatch, "a PNG image"},
		{"zip named pdf", "report.pdf", zipBytes(t), "", ErrMismatch, "a ZIP archive"},
		{"encrypted xlsx", "secret.xlsx", encrypted, "", ErrUnreadable, "protected with a password"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := Check(tt.file, tt.head)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Check(%q) error = %v, want %v", tt.file, err, tt.wantErr)
			}
			if k.Ext != tt.wantExt {
				t.Errorf("Check(%q) kind = %q, want %q", tt.file, k.Ext, tt.wantExt)
			}
			if err == nil {
				return
			}
			var ue *UserError
			if !errors.As(err, &ue) {
				t.Fatalf("Check(%q) error %T is not a *UserError", tt.file, err)
			}
			if !strings.Contains(ue.Msg, tt.wantMsg) || !strings.Contains(ue.Msg, "“"+tt.file+"”") {
				t.Errorf("message %q lacks %q or the file name", ue.Msg, tt.wantMsg)
			}
			checkSentences(t, ue.Msg)
		})
	}
}

// checkSentences fails unless msg reads as full sentences for a user: a
// capital or a quoted name first, a full stop last, and a second sentence
// saying what to do.
func checkSentences(t *testing.T, msg string) {
	t.Helper()
	first, _ := utf8.DecodeRuneInString(msg)
	if !unicode.IsUpper(first) && first != '“' {
		t.Errorf("message %q does not start a sentence", msg)
	}
	if !strings.HasSuffix(msg, ".") || strings.Count(msg, ". ") < 1 {
		t.Errorf("message %q is not two full sentences", msg)
	}
}

func TestKindOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file        string
		wantOK      bool
		wantTabular bool
	}{
		{"a.csv", true, true}, {"a.XLSX", true, true}, {"a.parquet", true, true}, {"a.json", true, true},
		{"a.pdf", true, false}, {"a.tar.gz", false, false}, {"a", false, false}, {"a.xlsm", false, false},
	}
	for _, tt := range tests {
		k, ok := KindOf(tt.file)
		if ok != tt.wantOK || k.Tabular != tt.wantTabular {
			t.Errorf("KindOf(%q) = %+v, %v; want ok %v tabular %v", tt.file, k, ok, tt.wantOK, tt.wantTabular)
		}
	}
	if n := len(Kinds()); n != 32 {
		t.Errorf("len(Kinds()) = %d, want the article's 26 types plus 6", n)
	}
}

func TestCheck_NameLength(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ok   bool
	}{
		{strings.Repeat("a", MaxNameBytes-4) + ".csv", true},
		{strings.Repeat("a", MaxNameBytes-3) + ".csv", false},
		{strings.Repeat("é", 126) + ".csv", false}, // 256 bytes in 130 characters
		{strings.Repeat("a", 200<<10) + ".csv", false},
	}
	for _, tt := range tests {
		_, err := Check(tt.name, []byte("a,b\n1,2\n"))
		if tt.ok {
			if err != nil {
				t.Errorf("a name of %d bytes: %v", len(tt.name), err)
			}
			continue
		}
		assertRefused(t, err, ErrNameTooLong, fmt.Sprintf("has a name of %d bytes; the longest accepted is 255", len(tt.name)))
		if len(err.Error()) > 1000 {
			t.Errorf("the message quotes the whole name: %d bytes", len(err.Error()))
		}
	}
}
