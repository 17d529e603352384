package store_test

import (
	"context"
	"errors"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

func TestSSOUsers(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	if _, err := db.CreateUser(ctx, "ana@contoso.com", "h", store.RoleAnalyst, nil); err != nil {
		t.Fatal(err)
	}

	t.Run("a local account is no identity", func(t *testing.T) {
		if _, err := db.UserBySSO(ctx, "", ""); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("UserBySSO of a local account: err = %v, want ErrNotFound", err)
		}
	})
	t.Run("created without password, found by tenant and id", func(t *testing.T) {
		u, err := db.CreateSSOUser(ctx, "ana-sso", store.RoleAnalyst, "tid", "oid", nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := db.UserBySSO(ctx, "tid", "oid")
		if err != nil || got.ID != u.ID || got.HasPassword() || !got.UsesSSO() {
			t.Fatalf("UserBySSO = %+v, %v", got, err)
		}
		if _, err := db.UserBySSO(ctx, "other tenant", "oid"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("same id in another tenant: err = %v, want ErrNotFound", err)
		}
	})
	t.Run("one account per identity and per name", func(t *testing.T) {
		if _, err := db.CreateSSOUser(ctx, "someone-else", store.RoleAnalyst, "tid", "oid", nil); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second account for an identity: err = %v, want ErrConflict", err)
		}
		if _, err := db.CreateSSOUser(ctx, "ANA@contoso.com", store.RoleAnalyst, "tid", "oid2", nil); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("taken username: err = %v, want ErrConflict", err)
		}
	})
}
