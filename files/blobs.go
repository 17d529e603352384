package files

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Blobs is the [BlobStore] on disk, under one directory (in the
// application, DATA_DIR/blobs). A blob lives at dir/ab/abcdef..., named by
// the hex sha256 of its bytes, so equal uploads share one file.
type Blobs struct {
	*stager // in dir itself, so that the final rename stays on one filesystem
}

var _ BlobStore = (*Blobs)(nil)

// NewBlobs opens the store at dir, creating the directory if needed and
// removing temporary files older than a day, which only a crash mid-Put leaves.
func NewBlobs(dir string) (*Blobs, error) {
	st, err := newStager(dir)
	if err != nil {
		return nil, err
	}
	return &Blobs{stager: st}, nil
}

// Put streams r into the store, hashing it on the way, and returns the hex
// sha256 of its bytes and their number. It never holds the content in
// memory: the bytes go to a temporary file in the store's directory, which
// is synced and then renamed to its digest's path. A blob that already
// exists is kept. More than max bytes stop the copy with a [*UserError]
// wrapping [ErrTooLarge]; use [MaxSize] for Foundry's limit. The disk
// store does not consult ctx: it waits on nothing but the disk and r.
func (b *Blobs) Put(ctx context.Context, r io.Reader, max int64) (sha string, size int64, err error) {
	return put(ctx, b.stager, b.commit, r, max)
}

// Stage is the upload path up to storing; see [BlobStore].
func (b *Blobs) Stage(name string, r io.Reader, max int64) (*Staged, error) {
	return stage(b.stager, b.commit, name, r, max)
}

// commit moves a finished temporary file to the blob path of sha, and syncs
// the directory so that the rename survives a crash. The temporary file is
// gone afterwards, whatever happened.
func (b *Blobs) commit(_ context.Context, tmp, sha string) error {
	err := b.rename(tmp, sha)
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

func (b *Blobs) rename(tmp, sha string) error {
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
func (b *Blobs) Open(_ context.Context, sha string) (Blob, error) {
	if !validDigest(sha) {
		return nil, ErrBadDigest
	}
	f, err := os.Open(b.Path(sha))
	if err != nil {
		return nil, fmt.Errorf("files: open blob: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("files: open blob: %w", err)
	}
	return diskBlob{File: f, size: info.Size()}, nil
}

// diskBlob is an open blob file; its size is read once, at Open.
type diskBlob struct {
	*os.File
	size int64
}

// Size is the blob's length in bytes.
func (d diskBlob) Size() int64 { return d.size }

// Remove deletes the blob with digest sha; a blob that is already gone is not
// an error. Callers must know that no other record still refers to it.
func (b *Blobs) Remove(_ context.Context, sha string) error {
	if !validDigest(sha) {
		return ErrBadDigest
	}
	if err := os.Remove(b.Path(sha)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("files: remove blob: %w", err)
	}
	return nil
}

// Walk calls fn for every blob, one prefix directory at a time, so memory
// stays bounded by the largest directory, not the whole store. Temporary
// files of unfinished writes sit beside the prefix directories and are
// not blobs.
func (b *Blobs) Walk(ctx context.Context, fn func(BlobInfo) error) error {
	prefixes, err := os.ReadDir(b.dir)
	if err != nil {
		return fmt.Errorf("files: walk blobs: %w", err)
	}
	for _, p := range prefixes {
		if !p.IsDir() || len(p.Name()) != 2 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.walkDir(filepath.Join(b.dir, p.Name()), fn); err != nil {
			return err
		}
	}
	return nil
}

func (b *Blobs) walkDir(dir string, fn func(BlobInfo) error) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("files: walk blobs: %w", err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !validDigest(e.Name()) {
			continue // removed meanwhile, or not ours
		}
		if err := fn(BlobInfo{SHA256: e.Name(), Size: info.Size(), Modified: info.ModTime()}); err != nil {
			return err
		}
	}
	return nil
}
