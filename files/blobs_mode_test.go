package files

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlobsArePrivate is issue 13 item 11: blobs are users' files, so their
// directories are 0700 and the files 0600.
func TestBlobsArePrivate(t *testing.T) {
	b := newTestBlobs(t)
	sha, _, err := b.Put(t.Context(), strings.NewReader("secret,data\n1,2\n"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	for p := b.Path(sha); len(p) >= len(b.dir); p = filepath.Dir(p) {
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
