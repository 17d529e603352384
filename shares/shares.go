// Package shares decides the rules of read-only links to a conversation:
// how long one lives, who may make and end one, and what counts as a view.
// Handlers call it for every change to a link; they may read links from the
// store to render a page.
package shares

import (
	"context"
	"fmt"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// Lifetimes of a link, in days.
const (
	DefaultDays = 30
	MaxDays     = 365
)

// Options are what the owner chooses for a new link.
type Options struct {
	// Anyone lets the link open without signing in.
	Anyone bool
	// IncludeUploads offers the conversation's uploaded files too.
	IncludeUploads bool
	// Days is how long the link opens: 1 to MaxDays, 0 for DefaultDays.
	Days int
}

// Service changes links in the store, by the rules above.
type Service struct {
	db *store.DB
}

// New returns a Service over db.
func New(db *store.DB) *Service { return &Service{db: db} }

// Error is a refusal whose text is meant for the user.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

// UserMessage returns the text for the user.
func (e *Error) UserMessage() string { return e.Msg }

// ErrLifetime refuses a lifetime out of bounds.
var ErrLifetime error = &Error{fmt.Sprintf("A link expires after 1 to %d days; enter a whole number of days.", MaxDays)}

// Create makes a link to the user's conversation; another user's
// conversation is store.ErrNotFound.
func (s *Service) Create(ctx context.Context, userID, convID string, o Options) (*store.Share, error) {
	days := o.Days
	if days == 0 {
		days = DefaultDays
	}
	if days < 1 || days > MaxDays {
		return nil, ErrLifetime
	}
	return s.db.CreateShare(ctx, userID, convID, store.ShareOptions{Anyone: o.Anyone, IncludeUploads: o.IncludeUploads,
		Lifetime: time.Duration(days) * 24 * time.Hour})
}

// Revoke ends one of the links of the user's conversation.
func (s *Service) Revoke(ctx context.Context, userID, convID, shareID string) error {
	return s.db.RevokeShare(ctx, userID, convID, shareID)
}

// RevokeAny ends any live link for an administrator (named in the audit
// log); anyone else is told the link does not exist.
func (s *Service) RevokeAny(ctx context.Context, admin *store.User, shareID string) error {
	if admin == nil || admin.Role != store.RoleAdmin {
		return store.ErrNotFound
	}
	return s.db.RevokeAnyShare(ctx, admin.ID, shareID)
}

// Viewed counts a reading of the link: by anyone but its owner, and only a
// GET (a HEAD, from a link preview or a checker, is not a reader). viewer
// is nil for someone not signed in.
func (s *Service) Viewed(ctx context.Context, share *store.Share, viewer *store.User, method string) error {
	if method != "GET" || viewer != nil && viewer.ID == share.OwnerID {
		return nil
	}
	return s.db.RecordShareView(ctx, share.ID)
}
