package purge

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// ErrEmptySelection is returned for a selection that names nothing: a
// purge never means "everything" by omission.
var ErrEmptySelection = errors.New("purge: empty selection")

// PreviewLimit caps the conversations and objects a plan lists by name; its
// counts and bytes always cover everything.
const PreviewLimit = 50

// Selection says what a purge deletes. The conversation fields narrow one
// another (ids AND user AND age); Orphans adds blobs and Foundry files no
// row knows, whatever the conversation fields say.
type Selection struct {
	ConversationIDs []string `json:"conversation_ids,omitempty"`
	UserID          string   `json:"user_id,omitempty"`
	// OlderThanDays keeps conversations last updated more than this many
	// days ago; 0 means any age.
	OlderThanDays int  `json:"older_than_days,omitempty"`
	Orphans       bool `json:"orphans,omitempty"`
}

// conversations reports whether the selection picks conversations at all.
func (sel Selection) conversations() bool {
	return len(sel.ConversationIDs) > 0 || sel.UserID != "" || sel.OlderThanDays > 0
}

func (sel Selection) validate() error {
	if sel.OlderThanDays < 0 {
		return fmt.Errorf("purge: negative age %d", sel.OlderThanDays)
	}
	if !sel.conversations() && !sel.Orphans {
		return ErrEmptySelection
	}
	return nil
}

// store turns the selection into the store's, fixing the age cutoff at now.
func (sel Selection) store(now time.Time) store.PurgeSelection {
	if !sel.conversations() {
		return store.PurgeSelection{}
	}
	ss := store.PurgeSelection{ConversationIDs: sel.ConversationIDs, UserID: sel.UserID}
	if sel.OlderThanDays > 0 {
		ss.Before = now.Add(-time.Duration(sel.OlderThanDays) * 24 * time.Hour)
	}
	return ss
}

// Plan is a dry run: what a purge would delete here and in Foundry.
type Plan struct {
	Selection Selection
	// Before is the age cutoff the plan used, zero without one.
	Before time.Time
	// Summary counts the selected conversations and all they hold.
	Summary store.PurgeSummary
	// Conversations and Remote are the first PreviewLimit conversations
	// (oldest first) and Foundry objects of the selection.
	Conversations []store.PurgeConversation
	Remote        []store.PurgeObject
	// Orphans counts blobs and Foundry files no row knows, when the
	// selection asks for them.
	Orphans OrphanSummary
}

// OrphanSummary counts orphans by kind and lists the first PreviewLimit.
type OrphanSummary struct {
	Blobs     int64               `json:"blobs"`
	BlobBytes int64               `json:"blob_bytes"`
	Files     int64               `json:"files"`
	FileBytes int64               `json:"file_bytes"`
	Preview   []store.PurgeObject `json:"-"`
}

// Plan computes what purging sel would delete, and deletes nothing. Its cost
// is a few aggregate queries plus, for orphans, one walk of the blob
// directory and one Foundry file listing.
func (s *Service) Plan(ctx context.Context, sel Selection) (*Plan, error) {
	if err := sel.validate(); err != nil {
		return nil, err
	}
	ss := sel.store(s.now())
	p := &Plan{Selection: sel, Before: ss.Before}
	var err error
	if p.Summary, err = s.db.PurgeSummary(ctx, ss); err != nil {
		return nil, err
	}
	if p.Conversations, err = s.db.PurgePreview(ctx, ss, PreviewLimit); err != nil {
		return nil, err
	}
	if p.Remote, err = s.db.PurgeRemotePreview(ctx, ss, PreviewLimit); err != nil {
		return nil, err
	}
	if sel.Orphans {
		err = s.orphans(ctx, func(o store.PurgeObject) {
			p.Orphans.add(o)
		})
	}
	return p, err
}

func (o *OrphanSummary) add(obj store.PurgeObject) {
	switch obj.Kind {
	case store.OutboxBlob:
		o.Blobs++
		o.BlobBytes += obj.Bytes
	default:
		o.Files++
		o.FileBytes += obj.Bytes
	}
	if len(o.Preview) < PreviewLimit {
		o.Preview = append(o.Preview, obj)
	}
}
