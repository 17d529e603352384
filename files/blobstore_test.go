package files

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/files/azuritetest"
)

// backend is one BlobStore under test and the local directory it stages
// uploads in, which must be empty of files once each call returns.
type backend struct {
	store BlobStore
	stage string
}

// blobBehaviours are what every BlobStore does alike; TestBlobStores runs
// each against the disk store and against Azure (Azurite).
var blobBehaviours = []struct {
	name string
	run  func(t *testing.T, b backend)
}{
	{"put hashes, caps and stores", testPut},
	{"equal bytes are stored once", testDedupe},
	{"concurrent puts of equal bytes all succeed", testConcurrentPuts},
	{"a failed read stores nothing", testPutReadError},
	{"open reads in order and by ranges", testOpenRange},
	{"downloads serve HTTP ranges", testServeRange},
	{"remove, and remove again", testRemove},
	{"walk lists every blob", testWalk},
	{"a missing blob", testMissing},
	{"a malformed digest", testBadDigest},
	{"stage, then commit or discard", testStage},
}

func TestBlobStores(t *testing.T) {
	t.Run("disk", func(t *testing.T) {
		for _, bh := range blobBehaviours {
			t.Run(bh.name, func(t *testing.T) {
				b := newTestBlobs(t)
				bh.run(t, backend{store: b, stage: b.dir})
			})
		}
	})
	t.Run("azure", func(t *testing.T) {
		start := time.Now()
		az := azuritetest.Start(t)
		t.Logf("Azurite answered after %v", time.Since(start).Round(time.Millisecond))
		var n atomic.Int64
		for _, bh := range blobBehaviours {
			t.Run(bh.name, func(t *testing.T) {
				bh.run(t, newAzureBackend(t, az, fmt.Sprintf("behaviour-%d", n.Add(1))))
			})
		}
		t.Run("a create-only upload keeps an existing blob", func(t *testing.T) {
			testCreateOnly(t, newAzureBackend(t, az, "create-only"))
		})
		t.Run("a small range fetches only a window", func(t *testing.T) { testRangeWindow(t, az) })
		t.Logf("the Azure suite took %v, Azurite's start included", time.Since(start).Round(time.Millisecond))
	})
}

// testBlockSize makes the larger test blobs span several blocks.
const testBlockSize = 1 << 20

// newAzureBackend is a store in a fresh container of az.
func newAzureBackend(t *testing.T, az *azuritetest.Server, container string) backend {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "staging")
	a, err := NewAzureBlobs(t.Context(), AzureConfig{ConnectionString: az.ConnectionString, Container: container,
		StageDir: dir, BlockSize: testBlockSize})
	if err != nil {
		t.Fatal(err)
	}
	return backend{store: a, stage: dir}
}

// leftInStage fails the test if a call left a file in the staging directory.
func leftInStage(t *testing.T, b backend) {
	t.Helper()
	entries, err := os.ReadDir(b.stage)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("%s left in the staging directory", e.Name())
		}
	}
}

// stored lists the store's blobs by digest.
func stored(t *testing.T, s BlobStore) map[string]BlobInfo {
	t.Helper()
	out := map[string]BlobInfo{}
	err := s.Walk(t.Context(), func(b BlobInfo) error {
		out[b.SHA256] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readBlob reads a blob whole through Open.
func readBlob(t *testing.T, s BlobStore, sha string) []byte {
	t.Helper()
	f, err := s.Open(t.Context(), sha)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if f.Size() != int64(len(data)) {
		t.Errorf("Size = %d, read %d bytes", f.Size(), len(data))
	}
	return data
}

// mustPut puts data and returns its digest.
func mustPut(t *testing.T, s BlobStore, data []byte) string {
	t.Helper()
	sha, _, err := s.Put(t.Context(), bytes.NewReader(data), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	return sha
}

// patterned is n bytes that differ along their length, so that a range
// read from the wrong offset shows.
func patterned(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

func testPut(t *testing.T, b backend) {
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
		{"several blocks and copy buffers", patterned(3*testBlockSize + 12345), MaxSize, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sha, size, err := b.store.Put(t.Context(), bytes.NewReader(tt.data), tt.max)
			leftInStage(t, b)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Put error = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				var ue *UserError
				if !errors.As(err, &ue) || !strings.HasPrefix(ue.Msg, "The file is larger than 1000 bytes") {
					t.Errorf("error %q is not the user message", err)
				}
				if _, ok := stored(t, b.store)[digest(tt.data)]; ok {
					t.Error("a refused Put stored the blob")
				}
				return
			}
			if sha != digest(tt.data) || size != int64(len(tt.data)) {
				t.Errorf("Put = %s, %d; want %s, %d", sha, size, digest(tt.data), len(tt.data))
			}
			if got := readBlob(t, b.store, sha); !bytes.Equal(got, tt.data) {
				t.Errorf("the blob holds %d bytes, not the %d put", len(got), len(tt.data))
			}
		})
	}
}

func testDedupe(t *testing.T, b backend) {
	data := []byte("same bytes")
	sha := mustPut(t, b.store, data)
	before := stored(t, b.store)[sha]
	if sha2 := mustPut(t, b.store, data); sha2 != sha {
		t.Fatalf("second Put = %s, want %s", sha2, sha)
	}
	after := stored(t, b.store)
	if len(after) != 1 || !after[sha].Modified.Equal(before.Modified) || after[sha].Size != int64(len(data)) {
		t.Errorf("after a second Put: %+v; want the first blob, untouched (%+v)", after, before)
	}
	leftInStage(t, b)
}

func testConcurrentPuts(t *testing.T, b backend) {
	data := patterned(2*testBlockSize + 1)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { _, _, errs[i] = b.store.Put(t.Context(), bytes.NewReader(data), MaxSize) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("concurrent Puts of the same bytes: %v", err)
	}
	if got := stored(t, b.store); len(got) != 1 {
		t.Errorf("stored %d blobs, want 1", len(got))
	}
	if !bytes.Equal(readBlob(t, b.store, digest(data)), data) {
		t.Error("the blob does not hold the bytes put")
	}
	leftInStage(t, b)
}

func testPutReadError(t *testing.T, b backend) {
	if _, _, err := b.store.Put(t.Context(), &failingReader{n: 5000}, MaxSize); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Put error = %v, want the reader's", err)
	}
	leftInStage(t, b)
	if got := stored(t, b.store); len(got) != 0 {
		t.Errorf("a failed Put stored %v", got)
	}
}

func testOpenRange(t *testing.T, b backend) {
	data := patterned(2*spanWindows + 777)
	sha := mustPut(t, b.store, data)
	f, err := b.store.Open(t.Context(), sha)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Size() != int64(len(data)) {
		t.Fatalf("Size = %d, want %d", f.Size(), len(data))
	}
	for _, r := range []struct{ off, n int }{{0, 1}, {0, 512}, {1000, 4096}, {len(data) - 10, 10}, {testBlockSize - 5, 10}} {
		p := make([]byte, r.n)
		if n, err := f.ReadAt(p, int64(r.off)); n != r.n || err != nil || !bytes.Equal(p, data[r.off:r.off+r.n]) {
			t.Errorf("ReadAt(%d bytes at %d) = %d, %v, or the wrong bytes", r.n, r.off, n, err)
		}
	}
	p := make([]byte, 20)
	if n, err := f.ReadAt(p, int64(len(data)-5)); n != 5 || err != io.EOF || !bytes.Equal(p[:5], data[len(data)-5:]) {
		t.Errorf("ReadAt across the end = %d, %v; want 5, EOF", n, err)
	}
	if _, err := f.Seek(12345, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	rest, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(rest, data[12345:]) {
		t.Errorf("Seek then read to the end: %d bytes, %v; want %d", len(rest), err, len(data)-12345)
	}
	if end, err := f.Seek(-100, io.SeekEnd); err != nil || end != int64(len(data)-100) {
		t.Errorf("Seek from the end = %d, %v", end, err)
	}
	tail, _ := io.ReadAll(f)
	if !bytes.Equal(tail, data[len(data)-100:]) {
		t.Errorf("read after a seek from the end: %d bytes, want the last 100", len(tail))
	}
}

// spanWindows makes a test blob span a few read-ahead windows without
// making it large.
const spanWindows = 3 * firstWindow

func testServeRange(t *testing.T, b backend) {
	data := patterned(300_000)
	sha := mustPut(t, b.store, data)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := b.store.Open(r.Context(), sha)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "application/octet-stream")
		http.ServeContent(w, r, "", time.Time{}, f)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		rng  string
		want []byte
	}{
		{"bytes=0-99", data[:100]},
		{"bytes=123456-123999", data[123456:124000]},
		{"bytes=-10", data[len(data)-10:]},
		{"bytes=299990-", data[299990:]},
	} {
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
		req.Header.Set("Range", tc.rng)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusPartialContent || !bytes.Equal(got, tc.want) {
			t.Errorf("Range %s: %d with %d bytes, want 206 with %d", tc.rng, resp.StatusCode, len(got), len(tc.want))
		}
	}
}

func testRemove(t *testing.T, b backend) {
	sha := mustPut(t, b.store, []byte("hello"))
	keep := mustPut(t, b.store, []byte("other"))
	if err := b.store.Remove(t.Context(), sha); err != nil {
		t.Fatal(err)
	}
	if err := b.store.Remove(t.Context(), sha); err != nil {
		t.Errorf("second Remove = %v, want nil for a missing blob", err)
	}
	if _, err := b.store.Open(t.Context(), sha); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open after Remove = %v, want fs.ErrNotExist", err)
	}
	if got := stored(t, b.store); len(got) != 1 || got[keep].SHA256 != keep {
		t.Errorf("after Remove the store holds %v, want only %s", got, keep)
	}
}

func testWalk(t *testing.T, b backend) {
	if got := stored(t, b.store); len(got) != 0 {
		t.Fatalf("a new store holds %v", got)
	}
	start := time.Now().Add(-time.Minute) // the store's clock may differ a little
	want := map[string]int64{}
	for _, s := range []string{"one", "two, longer", ""} {
		want[mustPut(t, b.store, []byte(s))] = int64(len(s))
	}
	got := stored(t, b.store)
	if len(got) != len(want) {
		t.Fatalf("Walk found %d blobs, want %d", len(got), len(want))
	}
	for sha, size := range want {
		if g := got[sha]; g.Size != size || g.Modified.Before(start) || g.Modified.After(time.Now().Add(time.Minute)) {
			t.Errorf("Walk: %+v, want size %d modified about now", g, size)
		}
	}
	stop := errors.New("stop")
	calls := 0
	err := b.store.Walk(t.Context(), func(BlobInfo) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Walk with fn failing = %v after %d calls, want fn's error after 1", err, calls)
	}
}

func testMissing(t *testing.T, b backend) {
	sha := digest([]byte("never stored"))
	if _, err := b.store.Open(t.Context(), sha); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open of a missing blob = %v, want fs.ErrNotExist", err)
	}
	if err := b.store.Remove(t.Context(), sha); err != nil {
		t.Errorf("Remove of a missing blob = %v, want nil", err)
	}
}

func testBadDigest(t *testing.T, b backend) {
	for _, sha := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("g", 64), strings.Repeat("a", 63)} {
		if _, err := b.store.Open(t.Context(), sha); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Open(%q) = %v, want ErrBadDigest", sha, err)
		}
		if err := b.store.Remove(t.Context(), sha); !errors.Is(err, ErrBadDigest) {
			t.Errorf("Remove(%q) = %v, want ErrBadDigest", sha, err)
		}
	}
}

func testStage(t *testing.T, b backend) {
	ctx := t.Context()
	csv := []byte("a,b\n1,2\n")
	st, err := b.store.Stage("sales.csv", bytes.NewReader(csv), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	if local, err := os.ReadFile(st.Path()); err != nil || !bytes.Equal(local, csv) {
		t.Fatalf("the staged file at %s: %q, %v", st.Path(), local, err)
	}
	if _, err := b.store.Open(ctx, st.SHA256); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open before Commit = %v, want fs.ErrNotExist", err)
	}
	if err := st.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	st.Discard() // deferred by callers: a no-op after Commit
	if !bytes.Equal(readBlob(t, b.store, st.SHA256), csv) || st.Size != int64(len(csv)) || st.Kind.Ext != ".csv" {
		t.Errorf("committed %+v", st.Upload)
	}
	if err := st.Commit(ctx); err == nil {
		t.Error("a second Commit succeeded")
	}
	other, err := b.store.Stage("other.csv", strings.NewReader("c\n3\n"), MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	other.Discard()
	if _, err := b.store.Stage("sales.csv", bytes.NewReader(pngHead), MaxSize); !errors.Is(err, ErrMismatch) {
		t.Errorf("a PNG named .csv: %v, want ErrMismatch", err)
	}
	if got := stored(t, b.store); len(got) != 1 {
		t.Errorf("after a discard and a refusal the store holds %d blobs, want 1", len(got))
	}
	leftInStage(t, b)
}

// testCreateOnly sends a blob that is already stored past the existence
// check, as a replica racing another would: the create-only commit is
// refused and the stored blob kept, with no error.
func testCreateOnly(t *testing.T, b backend) {
	a := b.store.(*AzureBlobs)
	data := []byte("stored first")
	sha := mustPut(t, a, data)
	before := stored(t, a)[sha]
	path := filepath.Join(b.stage, "again")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.upload(context.Background(), path, sha); err != nil {
		t.Fatalf("upload over an existing blob = %v, want nil", err)
	}
	if after := stored(t, a)[sha]; !after.Modified.Equal(before.Modified) {
		t.Errorf("the blob was rewritten: modified %v, then %v", before.Modified, after.Modified)
	}
}
