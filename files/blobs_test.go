package files

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func newTestBlobs(t *testing.T) *Blobs {
	t.Helper()
	b, err := NewBlobs(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func digest(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// temps lists what Put left in the store's top directory besides fan-out
// directories: nothing, when it has finished.
func temps(t *testing.T, b *Blobs) []string {
	t.Helper()
	entries, err := os.ReadDir(b.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

func TestBlobs_Put(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		max     int64
		wantErr error
	}{
		{"small", []byte("a,b\n1,2\n"), MaxSize, nil},
		{"exactly the limit", bytes.Repeat([]byte("x"), 1000), 1000, nil},
		{"one byte over", bytes.Repeat([]byte("x"), 1001), 1000, ErrTooLarge},
		{"empty", nil, MaxSize, nil},
		{"larger than the copy buffer", bytes.Repeat([]byte("0123456789"), 300_000), MaxSize, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTestBlobs(t)
			sha, size, err := b.Put(t.Context(), bytes.NewReader(tt.data), tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Put error = %v, want %v", err, tt.wantErr)
			}
			if left := temps(t, b); len(left) != 0 {
				t.Errorf("Put left %q behind", left)
			}
			if err != nil {
				var ue *UserError
				if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, "The file is larger than 1000 bytes") {
					t.Errorf("error %q is not the user message", err)
				}
				return
			}
			if sha != digest(tt.data) || size != int64(len(tt.data)) {
				t.Errorf("Put = %s, %d; want %s, %d", sha, size, digest(tt.data), len(tt.data))
			}
			got, err := os.ReadFile(b.Path(sha))
			if err != nil || !bytes.Equal(got, tt.data) {
				t.Errorf("blob at %s holds %d bytes (%v), want the %d put", b.Path(sha), len(got), err, len(tt.data))
			}
		})
	}
}

func TestBlobs_PutDuplicate(t *testing.T) {
	b := newTestBlobs(t)
	data := []byte("same bytes")
	sha1, _, err := b.Put(t.Context(), bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	// An old time on the blob: a second Put that rewrote it would show,
	// however fast it runs.
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(b.Path(sha1), old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(b.Path(sha1))
	sha2, _, err := b.Put(t.Context(), bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(b.Path(sha2))
	if sha1 != sha2 || !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Errorf("second Put of the same bytes replaced the blob (%s, %s)", sha1, sha2)
	}
	if want := filepath.Join(b.dir, sha1[:2], sha1); b.Path(sha1) != want {
		t.Errorf("Path = %s, want %s", b.Path(sha1), want)
	}
}

// failingReader returns some bytes and then an error, like a dropped upload.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.ErrUnexpectedEOF
	}
	n := min(len(p), r.n)
	r.n -= n
	return n, nil
}

func TestBlobs_PutReadError(t *testing.T) {
	b := newTestBlobs(t)
	if _, _, err := b.Put(t.Context(), &failingReader{n: 5000}, MaxSize); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Put error = %v, want the reader's", err)
	}
	if left := temps(t, b); len(left) != 0 {
		t.Errorf("Put left %q behind", left)
	}
}

func TestBlobs_OpenRemove(t *testing.T) {
	b := newTestBlobs(t)
	sha, _, err := b.Put(t.Context(), strings.NewReader("hello"), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	f, err := b.Open(t.Context(), sha)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f)
	f.Close()
	if string(got) != "hello" {
		t.Errorf("Open read %q, want hello", got)
	}
	if err := b.Remove(t.Context(), sha); err != nil {
		t.Fatal(err)
	}
	if err := b.Remove(t.Context(), sha); err != nil {
		t.Errorf("second Remove = %v, want nil for a missing blob", err)
	}
	if _, err := b.Open(t.Context(), sha); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open after Remove = %v, want fs.ErrNotExist", err)
	}
}

func TestBlobs_BadDigest(t *testing.T) {
	b := newTestBlobs(t)
	for _, sha := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("g", 64), strings.Repeat("a", 63)} {
		if _, err := b.Open(t.Context(), sha); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Open(%q) = %v, want ErrBadDigest", sha, err)
		}
		if err := b.Remove(t.Context(), sha); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Remove(%q) = %v, want ErrBadDigest", sha, err)
		}
		if p := b.Path(sha); p != "" {
			t.Errorf("Path(%q) = %q, want empty", sha, p)
		}
	}
}

func TestNewBlobsRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	stale, fresh := filepath.Join(dir, tempPrefix+"old"), filepath.Join(dir, tempPrefix+"new")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-48 * time.Hour)
	os.Chtimes(stale, old, old)
	if _, err := NewBlobs(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("stale temp file kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp file (a Put in progress) removed: %v", err)
	}
}

func TestBlobs_Save(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		data    []byte
		max     int64
		wantErr error
		wantMsg string
	}{
		{"csv", "sales.csv", []byte("a,b\n1,2\n"), MaxSize, nil, ""},
		{"png named csv", "sales.csv", pngHead, MaxSize, ErrMismatch, "“sales.csv” is named like a CSV file but its content is a PNG image."},
		{"empty", "sales.csv", nil, MaxSize, ErrEmpty, "“sales.csv” is empty"},
		{"too large", "big.csv", bytes.Repeat([]byte("a,b\n"), 1<<18+1), 1 << 20, ErrTooLarge, "“big.csv” is larger than 1 MB"},
		{"executable", "tool.csv", elfHead, MaxSize, ErrExecutable, "is a program"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := newTestBlobs(t)
			up, err := Save(t.Context(), b, tt.file, bytes.NewReader(tt.data), tt.max)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Save error = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if !strings.Contains(err.Error(), tt.wantMsg) {
					t.Errorf("message %q lacks %q", err, tt.wantMsg)
				}
				checkSentences(t, err.Error())
				if entries, _ := os.ReadDir(b.dir); len(entries) != 0 {
					t.Errorf("a refused upload left %d entries in the store", len(entries))
				}
				return
			}
			if up.SHA256 != digest(tt.data) || up.Size != int64(len(tt.data)) || up.Kind.Ext != ".csv" {
				t.Errorf("Save = %+v", up)
			}
		})
	}
}

func TestHumanSize(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n    int64
		want string
	}{
		{512, "512 bytes"}, {1 << 10, "1 KB"}, {1536, "1.5 KB"}, {MaxSize, "512 MB"}, {3 << 30, "3 GB"},
	}
	for _, tt := range tests {
		if got := HumanSize(tt.n); got != tt.want {
			t.Errorf("HumanSize(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}
