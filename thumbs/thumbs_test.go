package thumbs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

const sha = "ab0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd"

func newCache(t *testing.T) *Cache {
	t.Helper()
	c, err := New(filepath.Join(t.TempDir(), "thumbs"), 320)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// counting wraps src in an open func that counts its calls.
func counting(src []byte, calls *atomic.Int32) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		calls.Add(1)
		return io.NopCloser(bytes.NewReader(src)), nil
	}
}

func decodeFile(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("thumbnail is not a PNG: %v", err)
	}
	return img
}

func encodeWith(t *testing.T, img image.Image, enc func(io.Writer, image.Image) error) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := enc(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		maxSide int
		wantErr bool
	}{
		{"ok", 320, false},
		{"zero side", 0, true},
		{"negative side", -5, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(t.TempDir(), tt.maxSide)
			if (err != nil) != tt.wantErr {
				t.Errorf("New(dir, %d) error = %v, want error %v", tt.maxSide, err, tt.wantErr)
			}
		})
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		w, h, side   int
		wantW, wantH int
	}{
		{1000, 600, 320, 320, 192},
		{600, 1000, 320, 192, 320},
		{320, 320, 320, 320, 320},
		{100, 50, 320, 100, 50},
		{1001, 1000, 320, 320, 320},
		{40_000_000, 1, 320, 320, 1},
		{1, 40_000_000, 320, 1, 320},
	}
	for _, tt := range tests {
		if w, h := fit(tt.w, tt.h, tt.side); w != tt.wantW || h != tt.wantH {
			t.Errorf("fit(%d, %d, %d) = %d, %d, want %d, %d", tt.w, tt.h, tt.side, w, h, tt.wantW, tt.wantH)
		}
	}
}

func TestThumbnail_Formats(t *testing.T) {
	landscape := chart(1, 1000, 600)
	jpegEnc := func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) }
	gifEnc := func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) }
	tests := []struct {
		name         string
		src          []byte
		wantW, wantH int
	}{
		{"png landscape", encodePNG(t, landscape), 320, 192},
		{"png portrait", encodePNG(t, chart(2, 300, 900)), 107, 320},
		{"png smaller than a thumbnail", encodePNG(t, chart(3, 100, 50)), 100, 50},
		{"jpeg", encodeWith(t, landscape, jpegEnc), 320, 192},
		{"gif", encodeWith(t, landscape, gifEnc), 320, 192},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t)
			var calls atomic.Int32
			path, err := c.Thumbnail(sha, counting(tt.src, &calls))
			if err != nil {
				t.Fatalf("Thumbnail: %v", err)
			}
			if !strings.HasPrefix(path, c.dir) {
				t.Errorf("path %s is outside the cache dir %s", path, c.dir)
			}
			if b := decodeFile(t, path).Bounds(); b.Dx() != tt.wantW || b.Dy() != tt.wantH {
				t.Errorf("thumbnail is %dx%d, want %dx%d", b.Dx(), b.Dy(), tt.wantW, tt.wantH)
			}
		})
	}
}

// The scaler choice exists for this: a 1 px light-grey grid line of the
// source must still be visible in the thumbnail.
func TestThumbnail_KeepsThinLines(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 1000, 600))
	fill(src, src.Bounds(), color.White)
	for x := 31; x < 1000; x += 97 {
		fill(src, image.Rect(x, 0, x+1, 600), color.RGBA{0x99, 0x99, 0x99, 0xff})
	}
	path, err := newCache(t).Thumbnail(sha, counting(encodePNG(t, src), new(atomic.Int32)))
	if err != nil {
		t.Fatal(err)
	}
	thumb := decodeFile(t, path)
	for x := 31; x < 1000; x += 97 {
		tx := x * 320 / 1000
		darkest := uint32(0xffff)
		for dx := -1; dx <= 1; dx++ {
			r, _, _, _ := thumb.At(tx+dx, 96).RGBA()
			darkest = min(darkest, r)
		}
		if darkest > 0xf000 {
			t.Errorf("the line at source x=%d vanished near thumbnail x=%d", x, tx)
		}
	}
}

func TestThumbnail_KeepsTransparency(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 800, 400)) // all transparent
	path, err := newCache(t).Thumbnail(sha, counting(encodePNG(t, src), new(atomic.Int32)))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, _, a := decodeFile(t, path).At(10, 10).RGBA(); a != 0 {
		t.Errorf("alpha = %d, want 0 (transparent background kept)", a)
	}
}

// pngHeader is a PNG that ends after its IHDR chunk, claiming w×h RGBA
// pixels: all DecodeConfig reads, and what a decompression bomb starts with.
func pngHeader(w, h uint32) []byte {
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	ihdr = append(ihdr, 8, 6, 0, 0, 0)
	chunk := append([]byte("IHDR"), ihdr...)
	out := append([]byte("\x89PNG\r\n\x1a\n"), binary.BigEndian.AppendUint32(nil, uint32(len(ihdr)))...)
	out = append(out, chunk...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(chunk))
}

// sparseFile returns an open func for a file of size bytes that takes no
// disk space, like a huge artifact in the blob store.
func sparseFile(t *testing.T, size int64) func() (io.ReadCloser, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "huge")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(pngHeader(1000, 600))
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return func() (io.ReadCloser, error) { return os.Open(path) }
}

func bytesOpener(src []byte) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(src)), nil }
}

func TestThumbnail_BadInput(t *testing.T) {
	good := encodePNG(t, chart(4, 1000, 600))
	corrupted := bytes.Clone(good)
	for i := len(good) / 2; i < len(good)/2+16; i++ {
		corrupted[i] ^= 0x5a
	}
	jpg := encodeWith(t, chart(5, 1000, 600), func(w io.Writer, m image.Image) error { return jpeg.Encode(w, m, nil) })
	gifData := encodeWith(t, chart(6, 200, 100), func(w io.Writer, m image.Image) error { return gif.Encode(w, m, nil) })
	tests := []struct {
		name         string
		open         func() (io.ReadCloser, error)
		maxBytes     int64
		wantTooLarge bool
	}{
		{"zero bytes", bytesOpener(nil), 0, false},
		{"text", bytesOpener([]byte("Traceback (most recent call last):\n")), 0, false},
		{"bmp", bytesOpener(append([]byte("BM"), make([]byte, 60)...)), 0, false},
		{"png header only", bytesOpener(pngHeader(1000, 600)), 0, false},
		{"png zero width", bytesOpener(pngHeader(0, 600)), 0, false},
		{"truncated png", bytesOpener(good[:len(good)/2]), 0, false},
		{"corrupted png", bytesOpener(corrupted), 0, false},
		{"truncated jpeg", bytesOpener(jpg[:len(jpg)/2]), 0, false},
		{"truncated gif", bytesOpener(gifData[:len(gifData)/2]), 0, false},
		{"decompression bomb", bytesOpener(pngHeader(100_000, 100_000)), 0, true},
		{"just over the pixel cap", bytesOpener(pngHeader(8000, 5001)), 0, true},
		{"file far over the byte cap", sparseFile(t, 10*MaxBytes), 0, true},
		{"stream over the byte cap", bytesOpener(good), 1000, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t)
			if tt.maxBytes > 0 {
				c.maxBytes = tt.maxBytes
			}
			path, err := c.Thumbnail(sha, tt.open)
			if !errors.Is(err, ErrNotImage) {
				t.Fatalf("Thumbnail = %q, %v, want ErrNotImage", path, err)
			}
			if got := errors.Is(err, ErrTooLarge); got != tt.wantTooLarge {
				t.Errorf("errors.Is(%v, ErrTooLarge) = %v, want %v", err, got, tt.wantTooLarge)
			}
			if !strings.HasPrefix(err.Error(), "thumbs: ") {
				t.Errorf("error %q lacks the thumbs: prefix", err)
			}
			assertNoFiles(t, c.dir)
		})
	}
}

// assertNoFiles checks a failed generation left neither a thumbnail nor a
// temporary file behind.
func assertNoFiles(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			t.Errorf("left a file behind: %s", path)
		}
		return nil
	})
}

func TestThumbnail_Cached(t *testing.T) {
	c := newCache(t)
	var calls atomic.Int32
	open := counting(encodePNG(t, chart(7, 1000, 600)), &calls)
	first, err := c.Thumbnail(sha, open)
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Thumbnail(sha, open)
	if err != nil {
		t.Fatal(err)
	}
	if first != second || calls.Load() != 1 {
		t.Errorf("second request: path %s (first %s), open called %d times, want same path and 1 call", second, first, calls.Load())
	}
	// A new Cache over the same directory, as after a restart, reuses the file.
	again, _ := New(c.dir, 320)
	if _, err := again.Thumbnail(sha, open); err != nil || calls.Load() != 1 {
		t.Errorf("after restart: err %v, open called %d times, want 1", err, calls.Load())
	}
}

func TestThumbnail_BadSourceRemembered(t *testing.T) {
	c := newCache(t)
	var calls atomic.Int32
	open := counting([]byte("not an image"), &calls)
	for range 3 {
		if _, err := c.Thumbnail(sha, open); !errors.Is(err, ErrNotImage) {
			t.Fatalf("Thumbnail = %v, want ErrNotImage", err)
		}
	}
	if calls.Load() != 1 {
		t.Errorf("open called %d times for a known bad source, want 1", calls.Load())
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

// I/O failures are not the image's fault: they must not read as ErrNotImage
// (the caller would show a placeholder forever) and are retried.
func TestThumbnail_IOErrors(t *testing.T) {
	errDisk := errors.New("input/output error")
	good := encodePNG(t, chart(8, 1000, 600))
	tests := []struct {
		name string
		open func() (io.ReadCloser, error)
	}{
		{"open fails", func() (io.ReadCloser, error) { return nil, errDisk }},
		{"read fails at once", func() (io.ReadCloser, error) { return io.NopCloser(failingReader{errDisk}), nil }},
		{"read fails midway", func() (io.ReadCloser, error) {
			return io.NopCloser(io.MultiReader(bytes.NewReader(good[:len(good)/2]), failingReader{errDisk})), nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t)
			var calls int
			open := func() (io.ReadCloser, error) { calls++; return tt.open() }
			for range 2 {
				_, err := c.Thumbnail(sha, open)
				if !errors.Is(err, errDisk) || errors.Is(err, ErrNotImage) {
					t.Fatalf("Thumbnail = %v, want the I/O error and not ErrNotImage", err)
				}
			}
			if calls != 2 {
				t.Errorf("open called %d times, want 2 (I/O errors are retried)", calls)
			}
		})
	}
}

func TestThumbnail_InvalidSHA(t *testing.T) {
	c := newCache(t)
	for _, s := range []string{"", "abc", strings.ToUpper(sha), "../" + sha[3:], sha + "0", sha[:63] + "g"} {
		if _, err := c.Thumbnail(s, bytesOpener(nil)); err == nil || errors.Is(err, ErrNotImage) {
			t.Errorf("Thumbnail(%q) error = %v, want an invalid sha256 error", s, err)
		}
	}
}

func TestThumbnail_ConcurrentGenerateOnce(t *testing.T) {
	c := newCache(t)
	src := encodePNG(t, chart(9, 1000, 600))
	var calls atomic.Int32
	release := make(chan struct{})
	open := func() (io.ReadCloser, error) {
		calls.Add(1)
		<-release // hold the first generation until every request is in
		return io.NopCloser(bytes.NewReader(src)), nil
	}
	const n = 16
	var started, done sync.WaitGroup
	paths := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			paths[i], errs[i] = c.Thumbnail(sha, open)
		}()
	}
	started.Wait()
	close(release)
	done.Wait()
	for i := range n {
		if errs[i] != nil || paths[i] != paths[0] {
			t.Errorf("request %d: %q, %v, want %q", i, paths[i], errs[i], paths[0])
		}
	}
	if calls.Load() != 1 {
		t.Errorf("open called %d times, want 1", calls.Load())
	}
}
