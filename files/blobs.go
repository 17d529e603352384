package files

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// MaxSize is the default upload limit: 512 MB, the most a Foundry file may be.
const MaxSize int64 = 512 << 20

// tempPrefix marks files Put is still writing; NewBlobs removes old ones that
// a crash left behind.
const tempPrefix = ".put-"

// ErrBadDigest is returned for a digest that is not 64 lower-case hex digits;
// checking it keeps a forged id from naming a path outside the store.
var ErrBadDigest = errors.New("files: malformed sha256 digest")

// Blobs is a content-addressed store of files under one directory (in the
// application, DATA_DIR/blobs). A blob lives at dir/ab/abcdef..., named by the
// hex sha256 of its bytes, so equal uploads share one file.
type Blobs struct {
	dir   string
	floor floor
}

// NewBlobs opens the store at dir, creating the directory if needed and
// removing temporary files older than a day, which only a crash mid-Put leaves.
func NewBlobs(dir string) (*Blobs, error) {
	// Private: blobs are users' files. Each is made 0600 by CreateTemp.
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("files: new blobs: %w", err)
	}
	b := &Blobs{dir: dir}
	b.removeStaleTemps(time.Now().Add(-24 * time.Hour))
	return b, nil
}

func (b *Blobs) removeStaleTemps(before time.Time) {
	entries, _ := os.ReadDir(b.dir)
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && strings.HasPrefix(e.Name(), tempPrefix) && info.ModTime().Before(before) {
			_ = os.Remove(filepath.Join(b.dir, e.Name()))
		}
	}
}

// Put streams r into the store, hashing it on the way, and returns the hex
// sha256 of its bytes and their number. It never holds the content in
// memory: the bytes go to a temporary file in the store's directory (so the
// final rename stays on one filesystem), which is synced and then renamed to
// its digest's path. A blob that already exists is kept. More than max bytes
// stop the copy with a [*UserError] wrapping [ErrTooLarge]; use [MaxSize] for
// Foundry's limit. Put is safe for concurrent use.
func (b *Blobs) Put(r io.Reader, max int64) (sha string, size int64, err error) {
	tmp, sha, size, err := b.write(r, max)
	if err != nil {
		return "", 0, err
	}
	if err := b.commit(tmp, sha); err != nil {
		os.Remove(tmp)
		return "", 0, err
	}
	return sha, size, nil
}

// write copies r to a new temporary file in the store's directory, synced,
// and returns its path, the hex sha256 of its bytes and their number. On
// error nothing is left behind.
func (b *Blobs) write(r io.Reader, max int64) (path, sha string, size int64, err error) {
	// The disk's floor caps the write as the size limit does: past it the
	// write stops and nothing is left.
	limit, err := b.room(max)
	if err != nil {
		return "", "", 0, err
	}
	tmp, err := os.CreateTemp(b.dir, tempPrefix+"*")
	if err != nil {
		return "", "", 0, fmt.Errorf("files: put: %w", err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	h := sha256.New()
	// A large buffer halves the syscalls of io.Copy's 32 KiB default.
	size, err = io.CopyBuffer(io.MultiWriter(tmp, h), io.LimitReader(r, limit+1), make([]byte, 1<<20))
	switch {
	case err != nil:
		return "", "", 0, fmt.Errorf("files: put: %w", err)
	case size > limit && limit < max:
		return "", "", 0, b.lowDisk(b.floor.minFree.Load())
	case size > max:
		return "", "", 0, errTooLarge("", max)
	}
	if err = tmp.Sync(); err != nil {
		return "", "", 0, fmt.Errorf("files: put: sync: %w", err)
	}
	if err = tmp.Close(); err != nil {
		return "", "", 0, fmt.Errorf("files: put: %w", err)
	}
	return tmp.Name(), hex.EncodeToString(h.Sum(nil)), size, nil
}

// commit moves a finished temporary file to the blob path of sha, and syncs
// the directory so that the rename survives a crash.
func (b *Blobs) commit(tmp, sha string) error {
	dst := b.Path(sha)
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	if _, err := os.Stat(dst); err == nil {
		return os.Remove(tmp)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	d, err := os.Open(filepath.Dir(dst))
	if err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("files: put: sync dir: %w", err)
	}
	return nil
}

// Path returns where the blob with digest sha lives (whether or not it
// exists), or "" if sha is not a well-formed digest.
func (b *Blobs) Path(sha string) string {
	if !validDigest(sha) {
		return ""
	}
	return filepath.Join(b.dir, sha[:2], sha)
}

// Open opens the blob with digest sha for reading. A missing blob gives an
// error that matches fs.ErrNotExist.
func (b *Blobs) Open(sha string) (*os.File, error) {
	if !validDigest(sha) {
		return nil, ErrBadDigest
	}
	f, err := os.Open(b.Path(sha))
	if err != nil {
		return nil, fmt.Errorf("files: open blob: %w", err)
	}
	return f, nil
}

// Remove deletes the blob with digest sha; a blob that is already gone is not
// an error. Callers must know that no other record still refers to it.
func (b *Blobs) Remove(sha string) error {
	if !validDigest(sha) {
		return ErrBadDigest
	}
	if err := os.Remove(b.Path(sha)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: remove blob: %w", err)
	}
	return nil
}

func validDigest(sha string) bool {
	if len(sha) != 2*sha256.Size {
		return false
	}
	for _, c := range []byte(sha) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
