package files

import (
	"archive/zip"
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzCSVReader checks that any input reads to the end without a panic, and
// that a file without quotes splits exactly as strings.Split would.
func FuzzCSVReader(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"x\"\"y\",z\r\n", "a,\"b\n", "\"a\"b,c", ",,\n\n,", "\r\n\"\r\n\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := newCSVReader(strings.NewReader(in), ',')
		var got []string
		for {
			n, err := r.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(r.strings(n), ","))
		}
		if strings.ContainsAny(in, "\"\r") {
			return
		}
		var want []string
		for _, line := range strings.Split(in, "\n") {
			if line != "" {
				want = append(want, line)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("records %q, want %q", got, want)
		}
	})
}

// FuzzCheck checks that any name and head get a kind or a user error, and
// that no name over MaxNameBytes is accepted.
func FuzzCheck(f *testing.F) {
	f.Add("a.csv", []byte("a,b\n"))
	f.Add("a.xlsx", []byte("PK\x03\x04"))
	f.Add("a.tar", make([]byte, 300))
	f.Add(strings.Repeat("n", MaxNameBytes-4)+".csv", []byte("a\n"))
	f.Add(strings.Repeat("é", MaxNameBytes)+".csv", []byte("a\n"))
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		k, err := Check(name, head)
		var ue *UserError
		if err != nil && !errors.As(err, &ue) {
			t.Fatalf("Check error %v is not a *UserError", err)
		}
		if err == nil && k.Ext == "" {
			t.Fatal("Check accepted a file without a kind")
		}
		if err == nil && len(name) > MaxNameBytes {
			t.Fatalf("Check accepted a name of %d bytes", len(name))
		}
	})
}

// FuzzCheckArchive checks that any bytes get a directory or a user error,
// and that what is accepted keeps the bounds: few enough entries, none
// declared too large, and none that inflates past its declared size.
func FuzzCheckArchive(f *testing.F) {
	for _, entries := range [][]zipEntry{
		workbookParts,
		{{name: "a.csv", content: "a,b\n1,2\n"}},
		{smallBomb(f, "zeros.bin", 1<<16)},
		{lie(smallBomb(f, "lying.bin", 1<<16), 100)},
	} {
		f.Add(zipData(f, entries...))
	}
	f.Add(zip64End(f, 3))
	f.Add(zip64End(f, maxArchiveEntries+1))
	f.Add([]byte("PK\x03\x04"))
	f.Add(zipData(f, workbookParts...)[:200])
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := checkArchive(bytes.NewReader(data), int64(len(data)), "“x.zip”")
		var ue *UserError
		if err != nil {
			if !errors.As(err, &ue) {
				t.Fatalf("error %v is not a *UserError", err)
			}
			return
		}
		if len(entries) > maxArchiveEntries {
			t.Fatalf("accepted %d entries", len(entries))
		}
		for i, e := range entries {
			if e.UncompressedSize64 > uint64(maxEntrySize) {
				t.Fatalf("accepted %s of %d bytes", e.Name, e.UncompressedSize64)
			}
			if i < 16 { // inflating every entry would slow the fuzzer down for no gain
				assertInflatesWithin(t, e)
			}
		}
	})
}

// assertInflatesWithin reads up to 64 KiB of e and checks that it never
// yields more than its declared size.
func assertInflatesWithin(t *testing.T, e *zip.File) {
	rc, err := e.Open()
	if err != nil {
		return
	}
	defer rc.Close()
	n, _ := io.Copy(io.Discard, io.LimitReader(rc, 64<<10))
	if uint64(n) > e.UncompressedSize64 {
		t.Fatalf("%s inflated to %d bytes, declared %d", e.Name, n, e.UncompressedSize64)
	}
}
