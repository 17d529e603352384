package thumbs

import (
	"image"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// TestThumbnailsArePrivate is issue 13 item 11: thumbnails show users'
// charts, so their directories are 0700 and their files 0600.
func TestThumbnailsArePrivate(t *testing.T) {
	c := newCache(t)
	var calls atomic.Int32
	path, err := c.Thumbnail(sha, counting(encodePNG(t, image.NewRGBA(image.Rect(0, 0, 640, 480))), &calls))
	if err != nil {
		t.Fatal(err)
	}
	for p := path; len(p) >= len(c.dir); p = filepath.Dir(p) {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		want := fs.FileMode(0o600)
		if info.IsDir() {
			want = 0o700
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, info.Mode().Perm(), want)
		}
	}
}
