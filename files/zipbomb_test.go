package files

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// zeros is the content of a zip bomb's entry: bombSize zero bytes, which
// deflate squeezes about a thousand times.
const bombSize = 1 << 30

var bomb struct {
	once sync.Once
	data []byte // bombSize zeros, deflated
	crc  uint32
}

// bombData returns a deflate stream of bombSize zeros and their CRC-32,
// computed once per test binary: about 1 MB that inflates to 1 GiB.
func bombData(t testing.TB) ([]byte, uint32) {
	t.Helper()
	bomb.once.Do(func() {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		chunk := make([]byte, 1<<20)
		h := crc32.NewIEEE()
		for range bombSize / len(chunk) {
			w.Write(chunk)
			h.Write(chunk)
		}
		w.Close()
		bomb.data, bomb.crc = buf.Bytes(), h.Sum32()
	})
	return bomb.data, bomb.crc
}

// zipEntry is one entry of a test archive: stored content, deflated, or
// raw bytes written as they are under a header that may lie.
type zipEntry struct {
	name    string
	content string
	raw     *zip.FileHeader // with raw set, rawData is written unchanged
	rawData []byte
}

// workbookParts are the smallest set of parts excelize opens as a
// workbook with one sheet holding a header and one row.
var workbookParts = []zipEntry{
	{name: "[Content_Types].xml", content: `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`},
	{name: "_rels/.rels", content: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`},
	{name: "xl/workbook.xml", content: `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
	{name: "xl/_rels/workbook.xml.rels", content: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`},
	{name: "xl/worksheets/sheet1.xml", content: `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row><row r="2"><c r="A2"><v>1</v></c></row></sheetData></worksheet>`},
}

// bombEntry is an entry of bombSize zeros under name, with the directory
// declaring size uncompressed bytes (bombSize when it tells the truth).
func bombEntry(t testing.TB, name string, size uint64) zipEntry {
	data, crc := bombData(t)
	return zipEntry{name: name, rawData: data, raw: &zip.FileHeader{Name: name, Method: zip.Deflate,
		CRC32: crc, CompressedSize64: uint64(len(data)), UncompressedSize64: size}}
}

// lie makes e's directory declare size uncompressed bytes.
func lie(e zipEntry, size uint64) zipEntry {
	h := *e.raw
	h.UncompressedSize64 = size
	e.raw = &h
	return e
}

// writeZip writes entries as a ZIP archive called name in a fresh
// temporary directory and returns its path.
func writeZip(t testing.TB, name string, entries ...zipEntry) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	writeEntries(t, f, entries)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// zipData is entries as a ZIP archive in memory.
func zipData(t testing.TB, entries ...zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	writeEntries(t, &buf, entries)
	return buf.Bytes()
}

func writeEntries(t testing.TB, out io.Writer, entries []zipEntry) {
	t.Helper()
	zw := zip.NewWriter(out)
	for _, e := range entries {
		if e.raw != nil {
			w, err := zw.CreateRaw(e.raw)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(e.rawData)
			continue
		}
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// workbookWith is a valid one-sheet workbook with extra parts added.
func workbookWith(extra ...zipEntry) []zipEntry {
	return append(append([]zipEntry{}, workbookParts...), extra...)
}
