package store_test

import (
	"context"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

func TestShares(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db.Now = func() time.Time { return now }
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	conv, _ := db.CreateConversation(ctx, ana.ID, "Q3 revenue")
	month := 30 * 24 * time.Hour

	s, err := db.CreateShare(ctx, ana.ID, conv.ID, store.ShareOptions{Anyone: true, Lifetime: month})
	if err != nil {
		t.Fatal(err)
	}
	if raw, err := base64.RawURLEncoding.DecodeString(s.Token); err != nil || len(raw) != 16 {
		t.Fatalf("token %q: %d bytes, %v; want 16 random bytes, base64url", s.Token, len(raw), err)
	}
	if !s.Anyone || s.IncludeUploads || s.Title != "Q3 revenue" || s.Owner != "ana" || !s.ExpiresAt.Equal(now.Add(month)) {
		t.Fatalf("created %+v", s)
	}

	t.Run("only the owner creates links", func(t *testing.T) {
		if _, err := db.CreateShare(ctx, bob.ID, conv.ID, store.ShareOptions{Lifetime: month}); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bob: %v", err)
		}
	})
	t.Run("the token opens it; anything else does not", func(t *testing.T) {
		got, err := db.ShareByToken(ctx, s.Token)
		if err != nil || got.ID != s.ID || got.ConversationID != conv.ID {
			t.Fatalf("lookup: %+v, %v", got, err)
		}
		for _, bad := range []string{"", s.Token[:len(s.Token)-1], strings.ToUpper(s.Token)} {
			if _, err := db.ShareByToken(ctx, bad); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("token %q: %v", bad, err)
			}
		}
	})
	t.Run("views are counted", func(t *testing.T) {
		db.RecordShareView(ctx, s.ID)
		db.RecordShareView(ctx, s.ID)
		got, _ := db.ShareByToken(ctx, s.Token)
		if got.Views != 2 || !got.LastViewedAt.Equal(now) {
			t.Fatalf("views %d, last %v", got.Views, got.LastViewedAt)
		}
	})
	t.Run("an expired link is gone", func(t *testing.T) {
		short, _ := db.CreateShare(ctx, ana.ID, conv.ID, store.ShareOptions{Lifetime: time.Hour})
		now = now.Add(time.Hour)
		if _, err := db.ShareByToken(ctx, short.Token); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("expired: %v", err)
		}
		list, _ := db.Shares(ctx, ana.ID, conv.ID)
		if len(list) != 1 || list[0].ID != s.ID {
			t.Fatalf("live links %v", list)
		}
	})
	t.Run("a disabled owner's links stop opening", func(t *testing.T) {
		db.UpdateUser(ctx, ana.ID, store.UserUpdate{Disabled: ptr(true)})
		_, err := db.ShareByToken(ctx, s.Token)
		db.UpdateUser(ctx, ana.ID, store.UserUpdate{Disabled: ptr(false)})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("disabled owner: %v", err)
		}
	})
	t.Run("revoking: not by another user, then for good, audited", func(t *testing.T) {
		if err := db.RevokeShare(ctx, bob.ID, conv.ID, s.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("bob revoked: %v", err)
		}
		if err := db.RevokeShare(ctx, ana.ID, conv.ID, s.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ShareByToken(ctx, s.Token); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("revoked link opens: %v", err)
		}
		if err := db.RevokeShare(ctx, ana.ID, conv.ID, s.ID); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("second revoke: %v", err)
		}
		log, _ := db.AuditLog(ctx, 10)
		var actions []string
		for _, e := range log {
			actions = append(actions, e.Action)
		}
		if got := strings.Join(actions, " "); !strings.Contains(got, store.ActionShareRevoke) || !strings.Contains(got, store.ActionShareCreate) {
			t.Fatalf("audit actions %q", got)
		}
	})
	t.Run("an admin revokes any link; deleting the conversation removes its links", func(t *testing.T) {
		other, _ := db.CreateShare(ctx, ana.ID, conv.ID, store.ShareOptions{Lifetime: month})
		live, _ := db.LiveShares(ctx, 10)
		if len(live) != 1 || live[0].ID != other.ID {
			t.Fatalf("live shares %v", live)
		}
		if err := db.RevokeAnyShare(ctx, bob.ID, other.ID); err != nil {
			t.Fatal(err)
		}
		kept, _ := db.CreateShare(ctx, ana.ID, conv.ID, store.ShareOptions{Lifetime: month})
		if err := db.DeleteConversation(ctx, ana.ID, conv.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ShareByToken(ctx, kept.Token); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("link of a deleted conversation: %v", err)
		}
		if live, _ := db.LiveShares(ctx, 10); len(live) != 0 {
			t.Fatalf("links of a deleted conversation still listed: %v", live)
		}
	})
}

func ptr[T any](v T) *T { return &v }
