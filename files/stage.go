package files

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
)

// Upload is a file [Blobs.Save] accepted.
type Upload struct {
	SHA256 string // hex digest, the blob's name in the store
	Size   int64  // bytes stored
	Kind   Kind   // the type Check found
}

// Staged is an upload written aside in the store's directory, checked but
// not yet stored: [Staged.Commit] stores it under its digest, and
// [Staged.Discard] removes it. Staging lets a request refuse all of its
// files at once (too many, over a quota) without leaving any behind.
type Staged struct {
	Upload
	// Name is the file's name as uploaded.
	Name  string
	path  string
	blobs *Blobs
	done  bool
}

// Stage is the upload path up to storing: it checks name and the first
// bytes of r with [Check] before anything is written, writes r aside while
// hashing it (at most max bytes), and checks a ZIP-based file's directory
// (sizes, ratios, entry count) before any parser opens it. Every refusal is
// a [*UserError] that names the file, and leaves nothing behind.
func (b *Blobs) Stage(name string, r io.Reader, max int64) (*Staged, error) {
	br := bufio.NewReaderSize(r, HeadSize)
	head, err := br.Peek(HeadSize)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("files: stage: %w", err)
	}
	k, err := Check(name, head)
	if err != nil {
		return nil, err
	}
	path, sha, size, err := b.write(br, max)
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
	return &Staged{Upload: Upload{SHA256: sha, Size: size, Kind: k}, Name: name, path: path, blobs: b}, nil
}

// Path is where the staged bytes are until Commit or Discard, for reading
// them (to profile them) before they are stored.
func (s *Staged) Path() string { return s.path }

// Commit stores the staged bytes under their digest; a blob with the same
// bytes that is already stored is kept.
func (s *Staged) Commit() error {
	if s.done {
		return errors.New("files: commit: already committed or discarded")
	}
	s.done = true
	if err := s.blobs.commit(s.path, s.SHA256); err != nil {
		os.Remove(s.path)
		return err
	}
	return nil
}

// Discard removes the staged bytes. After Commit it does nothing, so that
// it can be deferred.
func (s *Staged) Discard() {
	if !s.done {
		s.done = true
		os.Remove(s.path)
	}
}

// Save is [Blobs.Stage] and [Staged.Commit] in one call, for a single file.
func (b *Blobs) Save(name string, r io.Reader, max int64) (Upload, error) {
	s, err := b.Stage(name, r, max)
	if err != nil {
		return Upload{}, err
	}
	if err := s.Commit(); err != nil {
		return Upload{}, err
	}
	return s.Upload, nil
}
