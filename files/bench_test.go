package files

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

const benchSize = 64 << 20

// chunkReader hands out data 32 KiB at a time and hides bytes.Reader's
// WriteTo, as a multipart part does, so that neither benchmark gets a
// zero-copy shortcut the upload path would not have.
type chunkReader struct{ r *bytes.Reader }

func (c chunkReader) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), 32<<10)]) }

func benchData() []byte {
	return bytes.Repeat([]byte("2024-01-31,north,1234.50,\"a note, quoted\"\n"), benchSize/44)
}

// BenchmarkPut measures Put: copy, sha256, fsync and rename of 64 MiB.
// Compare its MB/s with BenchmarkCopyBaseline's to see what hashing costs.
func BenchmarkPut(b *testing.B) {
	data := benchData()
	blobs, err := NewBlobs(filepath.Join(b.TempDir(), "blobs"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for i := 0; b.Loop(); i++ {
		data[0] = byte(i) // a new blob each time, not a duplicate
		sha, _, err := blobs.Put(b.Context(), chunkReader{bytes.NewReader(data)}, MaxSize)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		blobs.Remove(b.Context(), sha)
		b.StartTimer()
	}
}

// BenchmarkCopyBaseline is a plain io.Copy of the same 64 MiB to a file on
// the same disk, with the same fsync: the floor for BenchmarkPut.
func BenchmarkCopyBaseline(b *testing.B) {
	data := benchData()
	dir := b.TempDir()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := os.Create(filepath.Join(dir, "copy"))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(f, chunkReader{bytes.NewReader(data)}); err != nil {
			b.Fatal(err)
		}
		if err := f.Sync(); err != nil {
			b.Fatal(err)
		}
		f.Close()
		b.StopTimer()
		os.Remove(f.Name())
		b.StartTimer()
	}
}

// BenchmarkProfileCSV profiles a 64 MiB CSV file (1.2 million rows).
func BenchmarkProfileCSV(b *testing.B) {
	path, _ := writeBigCSV(b, benchSize)
	k := mustKind(b, ".csv")
	b.SetBytes(benchSize)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Profile(context.Background(), path, k); err != nil {
			b.Fatal(err)
		}
	}
}
