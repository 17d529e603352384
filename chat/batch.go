package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/store"
)

// Limits on uploads besides the size of one file and the user's quota.
const (
	// MaxFilesPerRequest caps the files of one upload request. The upload
	// script sends one file a request; a plain HTML form sends them all.
	MaxFilesPerRequest = 20
	// MaxFilesPerUser caps the files one user keeps, across conversations,
	// however small: each is a row, a card and a blob.
	MaxFilesPerUser = 5_000
)

// LimitError refuses an upload request as a whole: too many files, or over
// the user's quota. Nothing of the request is stored.
type LimitError struct{ Msg string }

// Error returns the message for the user.
func (e *LimitError) Error() string { return e.Msg }

// UserMessage returns the text for the user.
func (e *LimitError) UserMessage() string { return e.Msg }

// Batch receives the files of one upload request. Each file is checked and
// written aside as it arrives ([Batch.Add]); [Batch.Commit] profiles and
// records them once the request is read whole. So a request refused as a
// whole, or cut off, leaves nothing behind once [Batch.Discard] is called,
// which a caller defers.
type Batch struct {
	s              *Service
	userID, convID string
	used           store.Usage // the user's files before this request
	staged         []*files.Staged
	parts          int
}

// NewBatch starts an upload into a conversation of userID.
func (s *Service) NewBatch(ctx context.Context, userID, convID string) (*Batch, error) {
	if _, err := s.db.Conversation(ctx, userID, convID); err != nil {
		return nil, err
	}
	used, err := s.db.UploadUsage(ctx, userID)
	if err != nil {
		return nil, err
	}
	return &Batch{s: s, userID: userID, convID: convID, used: used}, nil
}

// Add checks a file and writes it aside. A refusal of this file alone is
// a *files.UserError, and the batch goes on; a *LimitError refuses the
// whole request.
func (b *Batch) Add(name string, r io.Reader) error {
	b.parts++
	if b.parts > MaxFilesPerRequest {
		return errTooManyFiles()
	}
	if b.used.Files+int64(len(b.staged)) >= MaxFilesPerUser {
		return errFileCount()
	}
	// The quota's room caps how much of the file is read at all.
	max, room := b.s.maxUpload, b.room()
	if room <= 0 {
		return b.errQuota(name)
	}
	st, err := b.s.store.Stage(name, r, min(max, room))
	if room < max && errors.Is(err, files.ErrTooLarge) {
		return b.errQuota(name)
	}
	if err != nil {
		return err
	}
	b.staged = append(b.staged, st)
	return nil
}

// room is how many bytes the quota leaves for the next file, with this
// request's files so far counted; without a quota, all there is.
func (b *Batch) room() int64 {
	if b.s.quota <= 0 {
		return math.MaxInt64
	}
	n := b.s.quota - b.used.Bytes
	for _, st := range b.staged {
		n -= st.Size
	}
	return n
}

// Outcome is what became of one file at Commit: Uploaded, or Err.
type Outcome struct {
	Name     string
	Uploaded *Uploaded
	Err      error
}

// Commit profiles and records the files written aside, in order. A file
// can still be refused here, with a *UserError in its Outcome: when it has
// the same bytes as a file already in the conversation, or when another
// request took the quota's room meanwhile.
func (b *Batch) Commit(ctx context.Context) []Outcome {
	out := make([]Outcome, len(b.staged))
	for i, st := range b.staged {
		up, err := b.commit(ctx, st)
		out[i] = Outcome{Name: st.Name, Uploaded: up, Err: err}
	}
	return out
}

func (b *Batch) commit(ctx context.Context, st *files.Staged) (*Uploaded, error) {
	prof, err := b.s.profile(ctx, st)
	if err != nil {
		return nil, err
	}
	var profJSON []byte
	if prof != nil {
		profJSON, _ = json.Marshal(prof)
	}
	// The blob goes first: a row must never name bytes that are not there.
	if err := st.Commit(ctx); err != nil {
		return nil, err
	}
	limit := store.Usage{Files: MaxFilesPerUser, Bytes: b.s.quota}
	f, err := b.s.db.AddFileWithin(ctx, b.userID, store.File{ConversationID: b.convID, Name: st.Name,
		ContentType: st.Kind.MIME, Size: st.Size, SHA256: st.SHA256, Profile: string(profJSON)}, limit)
	var dup *store.DuplicateFileError
	switch {
	case errors.As(err, &dup):
		return nil, &UserError{fmt.Sprintf("%s has the same content as %s, which is already in this conversation.", st.Name, dup.Existing.Name)}
	case errors.Is(err, store.ErrOverLimit):
		return nil, &UserError{b.errQuota(st.Name).Msg}
	case err != nil:
		return nil, err
	}
	return &Uploaded{File: f, Profile: prof}, nil
}

// profile describes a staged table, in the service's pool. A file that
// cannot be profiled is still uploaded: the agent may cope, and the
// profile's problems say why none is shown.
func (s *Service) profile(ctx context.Context, st *files.Staged) (*files.FileProfile, error) {
	prof, err := s.profiler.Profile(ctx, st.Path(), st.Kind)
	var ue *files.UserError
	switch {
	case errors.Is(err, files.ErrNoProfile):
		return nil, nil
	case errors.As(err, &ue):
		return &files.FileProfile{Problems: []string{ue.Msg}}, nil
	}
	return prof, err
}

// Discard removes the files written aside and not committed.
func (b *Batch) Discard() {
	for _, st := range b.staged {
		st.Discard()
	}
}

func errTooManyFiles() *LimitError {
	return &LimitError{fmt.Sprintf("This upload has more than %d files, the most one upload may hold. "+
		"Nothing was stored: upload the files in smaller groups.", MaxFilesPerRequest)}
}

func errFileCount() *LimitError {
	return &LimitError{fmt.Sprintf("You already keep %d files, the most one person may. Nothing was stored: "+
		"delete conversations or files you no longer need, then upload again.", MaxFilesPerUser)}
}

// errQuota names the file that would take the user past the quota.
func (b *Batch) errQuota(name string) *LimitError {
	return &LimitError{fmt.Sprintf("%s would take your files past your storage quota of %s (they take %s now). "+
		"Nothing from this upload was stored: delete conversations or files you no longer need, "+
		"or ask your administrator for more room.", files.ShortName(name), files.HumanSize(b.s.quota), files.HumanSize(b.used.Bytes))}
}
