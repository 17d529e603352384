package chat

import (
	"context"
	"encoding/json"
	"io"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/store"
)

// Uploaded is a file added to a conversation, with its profile when it is
// a table.
type Uploaded struct {
	File    *store.File
	Profile *files.FileProfile
}

// Upload stores one file of a conversation: a [Batch] of one. The file
// reaches Foundry later, on the first turn that attaches it.
func (s *Service) Upload(ctx context.Context, userID, convID, name string, r io.Reader) (*Uploaded, error) {
	b, err := s.NewBatch(ctx, userID, convID)
	if err != nil {
		return nil, err
	}
	defer b.Discard()
	if err := b.Add(name, r); err != nil {
		return nil, err
	}
	out := b.Commit(ctx)
	return out[0].Uploaded, out[0].Err
}

// Files returns the conversation's files with their profiles.
func (s *Service) Files(ctx context.Context, userID, convID string) ([]Uploaded, error) {
	rows, err := s.db.Files(ctx, userID, convID)
	if err != nil {
		return nil, err
	}
	out := make([]Uploaded, 0, len(rows))
	for _, f := range rows {
		u := Uploaded{File: f}
		if f.Profile != "" {
			u.Profile = &files.FileProfile{}
			if err := json.Unmarshal([]byte(f.Profile), u.Profile); err != nil {
				u.Profile = nil
			}
		}
		out = append(out, u)
	}
	return out, nil
}

// OpenBlob opens stored bytes by their SHA-256, for downloads: read in
// order, or by ranges (http.ServeContent seeks).
func (s *Service) OpenBlob(ctx context.Context, sha string) (files.Blob, error) {
	return s.store.Open(ctx, sha)
}
