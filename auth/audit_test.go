package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/store"
)

// TestAccountChangesAreAudited checks that every change to an account
// leaves an audit entry naming who made it and which account it touched,
// and that a refused change leaves none.
func TestAccountChangesAreAudited(t *testing.T) {
	ctx := context.Background()
	a, db := newAccounts(t)
	root, err := a.Setup(ctx, "root", goodPassword)
	if err != nil {
		t.Fatal(err)
	}
	ana, err := a.Create(ctx, root.ID, "ana", goodPassword, store.RoleAnalyst)
	if err != nil {
		t.Fatal(err)
	}
	must(t, a.ResetPassword(ctx, root.ID, ana.ID, "another good passphrase"))
	must(t, a.SetDisabled(ctx, root.ID, ana.ID, true))
	must(t, a.SetDisabled(ctx, root.ID, ana.ID, false))
	if err := a.SetDisabled(ctx, root.ID, root.ID, true); !errors.Is(err, auth.ErrDisableSelf) {
		t.Fatalf("disabling oneself: err = %v, want ErrDisableSelf", err)
	}
	must(t, db.UpdateUser(ctx, root.ID, store.UserUpdate{Role: ptr(store.RoleAnalyst)}))
	must(t, a.EnsureAdmin(ctx, "root", goodPassword))

	want := []string{
		"root user_create root role=admin",
		"root user_create ana role=analyst",
		"root user_password_reset ana",
		"root user_disable ana",
		"root user_enable ana",
		"environment user_role_change root from=analyst to=admin",
	}
	if got := auditLines(t, db, map[string]string{root.ID: "root", ana.ID: "ana"}); !slices.Equal(got, want) {
		t.Errorf("audit log:\n got %q\nwant %q", got, want)
	}
}

// auditLines is the audit log, oldest first, as "actor action user k=v…"
// with user ids replaced by names.
func auditLines(t *testing.T, db *store.DB, names map[string]string) []string {
	t.Helper()
	entries, err := db.AuditLog(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range slices.Backward(entries) {
		var d map[string]any
		if err := json.Unmarshal([]byte(e.Details), &d); err != nil {
			t.Fatalf("details %q: %v", e.Details, err)
		}
		line := name(names, e.Actor) + " " + e.Action + " " + name(names, d["user"].(string))
		for _, k := range []string{"role", "from", "to"} {
			if v, ok := d[k]; ok {
				line += " " + k + "=" + v.(string)
			}
		}
		out = append(out, line)
	}
	return out
}

func name(names map[string]string, id string) string {
	if n, ok := names[id]; ok {
		return n
	}
	return id
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func ptr[T any](v T) *T { return &v }
