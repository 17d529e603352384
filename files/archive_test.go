package files

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallBomb is an entry of size zeros, deflated.
func smallBomb(t testing.TB, name string, size int) zipEntry {
	t.Helper()
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	zeros := make([]byte, size)
	w.Write(zeros)
	w.Close()
	return zipEntry{name: name, rawData: buf.Bytes(), raw: &zip.FileHeader{Name: name, Method: zip.Deflate,
		CRC32: crc32.ChecksumIEEE(zeros), CompressedSize64: uint64(buf.Len()), UncompressedSize64: uint64(size)}}
}

// manyEntries is n entries made by entry(i).
func manyEntries(n int, entry func(i int) zipEntry) []zipEntry {
	out := make([]zipEntry, n)
	for i := range out {
		out[i] = entry(i)
	}
	return out
}

// TestStage_RefusesZipBombs stages hostile ZIP-based files, each a few MB
// on disk, and checks that each is refused with a message that says what
// happened and what to do, before any parser opens it, leaving nothing in
// the store.
func TestStage_RefusesZipBombs(t *testing.T) {
	mb := smallBomb(t, "", 1<<20)
	tests := []struct {
		name    string
		file    string
		entries func() []zipEntry
		want    []string
	}{
		{"a 1 GiB part in a workbook, which excelize would read whole", "bomb.xlsx",
			func() []zipEntry { return workbookWith(bombEntry(t, "xl/media/image1.png", bombSize)) },
			[]string{"“bomb.xlsx” was refused", "“xl/media/image1.png” would grow from 1019.2 KB to 1 GB", "upload the new copy"}},
		{"a 1 GiB sheet", "sheet.xlsx",
			func() []zipEntry { return workbookWith(bombEntry(t, "xl/worksheets/sheet2.xml", bombSize)) },
			[]string{"“xl/worksheets/sheet2.xml” would grow"}},
		{"a Word document", "bomb.docx",
			func() []zipEntry { return []zipEntry{bombEntry(t, "word/document.xml", bombSize)} },
			[]string{"“bomb.docx” was refused"}},
		{"a PowerPoint file", "bomb.pptx",
			func() []zipEntry { return []zipEntry{bombEntry(t, "ppt/slides/slide1.xml", bombSize)} },
			[]string{"“bomb.pptx” was refused"}},
		{"a ZIP archive", "bomb.zip",
			func() []zipEntry { return []zipEntry{bombEntry(t, "zeros.csv", bombSize)} },
			[]string{"“bomb.zip” was refused"}},
		{"an .xlsx named .xls", "bomb.xls",
			func() []zipEntry { return workbookWith(bombEntry(t, "xl/media/image1.png", bombSize)) },
			[]string{"“bomb.xls” was refused"}},
		{"many parts, each under the ratio floor", "many.zip",
			func() []zipEntry {
				return manyEntries(1500, func(i int) zipEntry {
					e := mb
					e.raw = &zip.FileHeader{Name: fmt.Sprint(i), Method: zip.Deflate, CRC32: mb.raw.CRC32,
						CompressedSize64: mb.raw.CompressedSize64, UncompressedSize64: mb.raw.UncompressedSize64}
					return e
				})
			},
			[]string{"its contents would grow", "to 1.5 GB"}},
		{"more parts than allowed", "entries.zip",
			func() []zipEntry {
				return manyEntries(maxArchiveEntries+1, func(i int) zipEntry { return zipEntry{name: fmt.Sprint(i)} })
			},
			[]string{"holds more than 10000 files", "Split it into smaller archives"}},
		{"a directory that understates a part", "lying.xlsx",
			func() []zipEntry { return workbookWith(bombEntry(t, "xl/styles.xml", 1<<10)) },
			[]string{"says its part “xl/styles.xml” is smaller than the data it holds"}},
		{"a part declared over the size cap", "big.zip",
			func() []zipEntry { return []zipEntry{bombEntry(t, "big.bin", 3<<30)} },
			[]string{"“big.bin” unpacks to 3 GB, more than the 1 GB one part may hold"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeZip(t, tt.file, tt.entries()...)
			b := newTestBlobs(t)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			_, err = b.Stage(tt.file, f, MaxSize)
			assertRefused(t, err, ErrArchive, tt.want...)
			assertEmptyStore(t, b)
		})
	}
}

// assertRefused checks that err is a *UserError wrapping cause whose
// message holds every string of want.
func assertRefused(t *testing.T, err error, cause error, want ...string) {
	t.Helper()
	var ue *UserError
	if !errors.As(err, &ue) || !errors.Is(err, cause) {
		t.Fatalf("err = %v, want a *UserError wrapping %v", err, cause)
	}
	for _, w := range want {
		if !strings.Contains(ue.Msg, w) {
			t.Errorf("message %q lacks %q", ue.Msg, w)
		}
	}
}

// assertEmptyStore checks that the store holds no file at all, blob or
// temporary.
func assertEmptyStore(t *testing.T, b *Blobs) {
	t.Helper()
	filepath.WalkDir(b.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left in the store: %s", path)
		}
		return nil
	})
}

// TestProfile_ZipBombInFlatMemory profiles the workbook that took the
// server down (a 1 MB .xlsx with a 1 GiB part): it must be refused before
// excelize reads the part, with the heap staying flat.
func TestProfile_ZipBombInFlatMemory(t *testing.T) {
	path := writeZip(t, "bomb.xlsx", workbookWith(bombEntry(t, "xl/media/image1.png", bombSize))...)
	var err error
	grew := peakHeap(func() { _, err = Profile(context.Background(), path, mustKind(t, ".xlsx")) })
	t.Logf("Profile of a 1 GiB zip bomb: heap grew by %.1f MiB at most", float64(grew)/(1<<20))
	var ue *UserError
	if !errors.As(err, &ue) || !strings.Contains(ue.Msg, "This workbook was refused") {
		t.Errorf("err = %v, want a refusal", err)
	}
	if grew > 64<<20 {
		t.Errorf("heap grew by %d MiB, want at most 64", grew>>20)
	}
}

// TestZipReadsStopAtDeclaredSize checks what the bounds rely on: a part
// whose directory understates it by too little to look implausible is
// still never inflated past its declared size, here nor through excelize.
func TestZipReadsStopAtDeclaredSize(t *testing.T) {
	const declared = 1 << 20 // the bomb's 1 GiB deflates to a little less than this
	path := writeZip(t, "lying.xlsx", workbookWith(bombEntry(t, "xl/styles.xml", declared))...)
	if _, err := checkZipFile(path, "“lying.xlsx”"); err != nil {
		t.Fatalf("the directory was expected to pass the checks: %v", err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, e := range zr.File {
		if e.Name != "xl/styles.xml" {
			continue
		}
		rc, _ := e.Open()
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		if n > declared || err == nil {
			t.Errorf("read %d bytes with error %v, want at most %d and an error", n, err, declared)
		}
	}
	grew := peakHeap(func() { Profile(context.Background(), path, mustKind(t, ".xlsx")) })
	if grew > 64<<20 {
		t.Errorf("Profile grew the heap by %d MiB, want at most 64", grew>>20)
	}
}

// TestReadZipDirectory_EndRecordCount checks that an end record declaring
// more entries than allowed is refused before archive/zip, which would
// reserve room for them, reads it.
func TestReadZipDirectory_EndRecordCount(t *testing.T) {
	data := zip64End(t, maxArchiveEntries+1)
	if n, ok := declaredEntries(bytes.NewReader(data), int64(len(data))); !ok || n != maxArchiveEntries+1 {
		t.Fatalf("declared entries = %d, %v; want %d", n, ok, maxArchiveEntries+1)
	}
	_, err := checkArchive(bytes.NewReader(data), int64(len(data)), "“x.zip”")
	assertRefused(t, err, ErrArchive, "holds more than 10000 files")
}

// zip64End returns an archive of one entry whose zip64 end record declares
// n entries.
func zip64End(t testing.TB, n uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("a.csv")
	w.Write([]byte("a\n1\n"))
	zw.Close()
	data := buf.Bytes()
	end := data[len(data)-endLen:]
	dirSize, dirOffset := binary.LittleEndian.Uint32(end[12:]), binary.LittleEndian.Uint32(end[16:])
	out := append([]byte{}, data[:len(data)-endLen]...)
	end64At := uint64(len(out))
	le := binary.LittleEndian
	out = le.AppendUint32(out, 0x06064b50)
	out = le.AppendUint64(out, end64Len-12)
	out = le.AppendUint16(le.AppendUint16(out, 45), 45)
	out = le.AppendUint32(le.AppendUint32(out, 0), 0)
	out = le.AppendUint64(le.AppendUint64(out, n), n)
	out = le.AppendUint64(le.AppendUint64(out, uint64(dirSize)), uint64(dirOffset))
	out = le.AppendUint32(out, 0x07064b50)
	out = le.AppendUint32(out, 0)
	out = le.AppendUint64(out, end64At)
	out = le.AppendUint32(out, 1)
	out = le.AppendUint32(out, 0x06054b50)
	out = le.AppendUint16(le.AppendUint16(out, 0), 0)
	out = le.AppendUint16(le.AppendUint16(out, 0xffff), 0xffff)
	out = le.AppendUint32(le.AppendUint32(out, 0xffffffff), 0xffffffff)
	return le.AppendUint16(out, 0)
}

// TestStage_AcceptsRealArchives checks that the bounds leave ordinary
// files alone: a workbook, a ZIP of CSVs, and a workbook whose sheet is
// large enough to be streamed.
func TestStage_AcceptsRealArchives(t *testing.T) {
	csvs := manyEntries(50, func(i int) zipEntry {
		return zipEntry{name: fmt.Sprintf("part-%d.csv", i), content: strings.Repeat("2024-01-01,north,12.5\n", 2000)}
	})
	files := map[string]string{
		"book.xlsx": writeWorkbook(t, [][]any{{"a", "b"}, {1, 2}}),
		"data.zip":  writeZip(t, "data.zip", csvs...),
	}
	if !testing.Short() {
		files["big.xlsx"] = writeBigWorkbook(t, 150_000)
	}
	for name, path := range files {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			s, err := newTestBlobs(t).Stage(name, f, MaxSize)
			if err != nil {
				t.Fatalf("Stage(%s) = %v", name, err)
			}
			s.Discard()
		})
	}
}
