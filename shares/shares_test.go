package shares_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/shares"
	"github.com/analyst-workbench/workbench/store"
)

func newDB(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "wb.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestLinkRules: a lifetime is 1 to 365 days (30 unless chosen); only the
// owner makes and ends a link of theirs, only an administrator any link;
// a view counts unless it is the owner's or a HEAD.
func TestLinkRules(t *testing.T) {
	ctx := context.Background()
	db := newDB(t)
	s := shares.New(db)
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	ben, _ := db.CreateUser(ctx, "ben", "h", store.RoleAnalyst, nil)
	root, _ := db.CreateUser(ctx, "root", "h", store.RoleAdmin, nil)
	conv, _ := db.CreateConversation(ctx, ana.ID, "Q3")
	for _, days := range []int{-1, 366} {
		if _, err := s.Create(ctx, ana.ID, conv.ID, shares.Options{Days: days}); !errors.Is(err, shares.ErrLifetime) {
			t.Errorf("%d days: %v", days, err)
		}
	}
	if _, err := s.Create(ctx, ben.ID, conv.ID, shares.Options{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link to another user's conversation: %v", err)
	}
	link, err := s.Create(ctx, ana.ID, conv.ID, shares.Options{Anyone: true})
	if err != nil {
		t.Fatal(err)
	}
	if days := link.ExpiresAt.Sub(link.CreatedAt).Hours() / 24; days != shares.DefaultDays {
		t.Errorf("a link lives %.1f days by default", days)
	}
	link, _ = db.ShareByToken(ctx, link.Token)
	for _, v := range []struct {
		viewer *store.User
		method string
	}{{ana, "GET"}, {nil, "HEAD"}, {nil, "GET"}, {ben, "GET"}} {
		if err := s.Viewed(ctx, link, v.viewer, v.method); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := db.ShareByToken(ctx, link.Token); got.Views != 2 {
		t.Errorf("%d views counted, want 2 (the owner's and a HEAD are not)", got.Views)
	}
	if err := s.RevokeAny(ctx, ben, link.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("an analyst revoked another's link: %v", err)
	}
	if err := s.Revoke(ctx, ben.ID, conv.ID, link.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("another user revoked the link: %v", err)
	}
	if err := s.RevokeAny(ctx, root, link.ID); err != nil {
		t.Errorf("the administrator could not revoke it: %v", err)
	}
}
