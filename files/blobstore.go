package files

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"time"
)

// MaxSize is the default upload limit: 512 MB, the most a Foundry file may be.
const MaxSize int64 = 512 << 20

// ErrBadDigest is returned for a digest that is not 64 lower-case hex digits;
// checking it keeps a forged id from naming a path or blob outside the store.
var ErrBadDigest = errors.New("files: malformed sha256 digest")

// BlobStore keeps the bytes of uploaded and generated files by the hex
// sha256 of their content, so that equal bytes are stored once. [Blobs]
// keeps them on disk, [AzureBlobs] in an Azure Blob Storage container
// (shared by every replica). Every method is safe for concurrent use.
type BlobStore interface {
	// Put streams r into the store while hashing it, and returns its hex
	// sha256 and size. More than max bytes stop the copy with a
	// [*UserError] wrapping [ErrTooLarge]; a write that would cross the
	// staging disk's floor fails with ErrLowDisk. A blob that already
	// exists is kept. Nothing is left behind on error.
	Put(ctx context.Context, r io.Reader, max int64) (sha string, size int64, err error)
	// Stage checks an upload and writes it aside on local disk, hashed,
	// where it can be read by path (to profile it) before it is stored;
	// see [Staged].
	Stage(name string, r io.Reader, max int64) (*Staged, error)
	// Open opens the blob with digest sha for reading, in order or at any
	// offset. A missing blob gives an error that matches fs.ErrNotExist.
	Open(ctx context.Context, sha string) (Blob, error)
	// Remove deletes the blob with digest sha; a blob already gone is not
	// an error. Callers must know that no record still refers to it.
	Remove(ctx context.Context, sha string) error
	// Walk calls fn for every stored blob, in no particular order, without
	// holding the whole list in memory; an error from fn stops the walk
	// and is returned.
	Walk(ctx context.Context, fn func(BlobInfo) error) error
}

// Blob is an opened blob. Read and Seek serve a download with HTTP Range
// (http.ServeContent) and ReadAt readers that jump about (zip, xlsx),
// reading only the bytes asked for.
type Blob interface {
	io.ReadSeekCloser
	io.ReaderAt
	// Size is the blob's length in bytes.
	Size() int64
}

// BlobInfo describes a stored blob, for the orphan sweep.
type BlobInfo struct {
	SHA256 string
	Size   int64
	// Modified is when the blob was written; an orphan sweep spares young
	// ones, whose rows may not be written yet.
	Modified time.Time
}

// validDigest reports whether sha is 64 lower-case hex digits.
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
