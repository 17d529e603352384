package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/store"
)

// Uploaded is a file added to a conversation, with its profile when it is
// a table.
type Uploaded struct {
	File    *store.File
	Profile *files.FileProfile
}

// Upload stores one file of a conversation: its type is checked against
// its content, its bytes streamed to the blob store and hashed, a table is
// profiled, and the file recorded. The same bytes twice in a conversation
// are refused with a message naming the earlier upload. The file reaches
// Foundry later, on the first turn that attaches it.
func (s *Service) Upload(ctx context.Context, userID, convID, name string, r io.Reader) (*Uploaded, error) {
	if _, err := s.db.Conversation(ctx, userID, convID); err != nil {
		return nil, err
	}
	up, err := s.store.Save(name, r, s.maxUpload)
	if err != nil {
		return nil, err
	}
	prof, err := files.Profile(ctx, s.store.Path(up.SHA256), up.Kind)
	if err != nil && !errors.Is(err, files.ErrNoProfile) {
		var ue *files.UserError
		if !errors.As(err, &ue) {
			return nil, err
		}
		// An unreadable table is still uploaded: the agent may cope, and
		// the user sees why no profile is shown.
		prof = &files.FileProfile{Problems: []string{ue.Msg}}
	}
	profJSON := ""
	if prof != nil {
		b, _ := json.Marshal(prof)
		profJSON = string(b)
	}
	f, err := s.db.AddFile(ctx, userID, store.File{ConversationID: convID, Name: name, ContentType: up.Kind.MIME,
		Size: up.Size, SHA256: up.SHA256, Profile: profJSON})
	var dup *store.DuplicateFileError
	if errors.As(err, &dup) {
		return nil, &UserError{fmt.Sprintf("%s has the same content as %s, which is already in this conversation.", name, dup.Existing.Name)}
	}
	if err != nil {
		return nil, err
	}
	return &Uploaded{File: f, Profile: prof}, nil
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

// OpenBlob opens stored bytes by their SHA-256, for downloads.
func (s *Service) OpenBlob(sha string) (*os.File, error) { return s.store.Open(sha) }
