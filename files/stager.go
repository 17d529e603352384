package files

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// tempPrefix marks files a store is still writing; opening a store removes
// old ones that a crash left behind.
const tempPrefix = ".put-"

// stager writes incoming bytes to a temporary file on local disk while
// hashing them, under a size cap and the disk's free-space floor. Both
// stores stage this way: the disk store then renames the file into place,
// the Azure store uploads it. Staging locally is what lets an upload be
// checked (zip directory) and profiled (xlsx wants a file) before it is
// stored, whichever store keeps it.
type stager struct {
	dir   string
	floor floor
}

// newStager makes dir (private: these are users' files) and removes the
// temporary files older than a day, which only a crash mid-write leaves.
func newStager(dir string) (*stager, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("files: new blobs: %w", err)
	}
	s := &stager{dir: dir}
	s.removeStaleTemps(time.Now().Add(-24 * time.Hour))
	return s, nil
}

func (s *stager) removeStaleTemps(before time.Time) {
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && strings.HasPrefix(e.Name(), tempPrefix) && info.ModTime().Before(before) {
			_ = os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
}

// write copies r to a new temporary file in the staging directory, synced,
// and returns its path, the hex sha256 of its bytes and their number. It
// never holds the content in memory. On error nothing is left behind.
func (s *stager) write(r io.Reader, max int64) (path, sha string, size int64, err error) {
	// The disk's floor caps the write as the size limit does: past it the
	// write stops and nothing is left.
	limit, err := s.room(max)
	if err != nil {
		return "", "", 0, err
	}
	tmp, err := os.CreateTemp(s.dir, tempPrefix+"*")
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
		return "", "", 0, s.lowDisk(s.floor.minFree.Load())
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
