package files

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Upload is a file [BlobStore.Stage] accepted.
type Upload struct {
	SHA256 string // hex digest, the blob's name in the store
	Size   int64  // bytes stored
	Kind   Kind   // the type Check found
}

// commitFunc stores a staged file under its digest. The staged file is
// gone afterwards, whether it was stored or not.
type commitFunc func(ctx context.Context, path, sha string) error

// Staged is an upload written aside on local disk, checked but not yet
// stored: [Staged.Commit] stores it under its digest, and [Staged.Discard]
// removes it. Staging lets a request refuse all of its files at once (too
// many, over a quota) without leaving any behind.
type Staged struct {
	Upload
	// Name is the file's name as uploaded.
	Name   string
	path   string
	commit commitFunc
	done   bool
}

// put writes r aside through st and commits it under ctx: [BlobStore.Put]
// for both stores.
func put(ctx context.Context, st *stager, commit commitFunc, r io.Reader, max int64) (string, int64, error) {
	tmp, sha, size, err := st.write(r, max)
	if err != nil {
		return "", 0, err
	}
	if err := commit(ctx, tmp, sha); err != nil {
		return "", 0, err
	}
	return sha, size, nil
}

// stage is the upload path up to storing: it checks name and the first
// bytes of r with [Check] before anything is written, writes r aside while
// hashing it (at most max bytes), and checks a ZIP-based file's directory
// (sizes, ratios, entry count) before any parser opens it. Every refusal is
// a [*UserError] that names the file, and leaves nothing behind.
func stage(st *stager, commit commitFunc, name string, r io.Reader, max int64) (*Staged, error) {
	br := bufio.NewReaderSize(r, HeadSize)
	head, err := br.Peek(HeadSize)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("files: stage: %w", err)
	}
	k, err := Check(name, head)
	if err != nil {
		return nil, err
	}
	path, sha, size, err := st.write(br, max)
	if errors.Is(err, ErrTooLarge) {
		return nil, errTooLarge(name, max)
	}
	if err != nil {
		return nil, err
	}
	if isZip(head) {
		if _, err := checkZipFile(path, "“"+name+"”"); err != nil {
			os.Remove(path)
			return nil, err
		}
	}
	return &Staged{Upload: Upload{SHA256: sha, Size: size, Kind: k}, Name: name, path: path, commit: commit}, nil
}

// Path is where the staged bytes are until Commit or Discard, for reading
// them (to profile them) before they are stored. It is a local file with
// either store.
func (s *Staged) Path() string { return s.path }

// Commit stores the staged bytes under their digest; a blob with the same
// bytes that is already stored is kept.
func (s *Staged) Commit(ctx context.Context) error {
	if s.done {
		return errors.New("files: commit: already committed or discarded")
	}
	s.done = true
	return s.commit(ctx, s.path, s.SHA256)
}

// Discard removes the staged bytes. After Commit it does nothing, so that
// it can be deferred.
func (s *Staged) Discard() {
	if !s.done {
		s.done = true
		os.Remove(s.path)
	}
}

// Save is [BlobStore.Stage] and [Staged.Commit] in one call, for a single
// file.
func Save(ctx context.Context, store BlobStore, name string, r io.Reader, max int64) (Upload, error) {
	s, err := store.Stage(name, r, max)
	if err != nil {
		return Upload{}, err
	}
	if err := s.Commit(ctx); err != nil {
		return Upload{}, err
	}
	return s.Upload, nil
}
