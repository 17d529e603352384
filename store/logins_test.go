package store_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

func TestLoginSessions(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	u, err := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	live := store.LoginSession{ID: "live", UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)}
	if err := db.CreateLoginSession(ctx, live); err != nil {
		t.Fatal(err)
	}

	t.Run("found until deleted", func(t *testing.T) {
		if s, err := db.LoginSession(ctx, "live"); err != nil || s.UserID != u.ID {
			t.Fatalf("LoginSession = %+v, %v", s, err)
		}
		if err := db.DeleteLoginSession(ctx, "live"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LoginSession(ctx, "live"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("after delete: err = %v, want ErrNotFound", err)
		}
		if err := db.DeleteLoginSession(ctx, "live"); err != nil {
			t.Fatalf("second delete: %v", err)
		}
	})

	t.Run("expired is not found", func(t *testing.T) {
		old := store.LoginSession{ID: "old", UserID: u.ID, CreatedAt: now.Add(-2 * time.Hour), ExpiresAt: now.Add(-time.Hour)}
		if err := db.CreateLoginSession(ctx, old); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LoginSession(ctx, "old"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("expired: err = %v, want ErrNotFound", err)
		}
	})

	t.Run("password reset deletes the user's sessions, a role change does not", func(t *testing.T) {
		for _, id := range []string{"a", "b"} {
			db.CreateLoginSession(ctx, store.LoginSession{ID: id, UserID: u.ID, CreatedAt: now, ExpiresAt: now.Add(time.Hour)})
		}
		role := store.RoleAdmin
		if err := db.UpdateUser(ctx, u.ID, store.UserUpdate{Role: &role}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.LoginSession(ctx, "a"); err != nil {
			t.Fatalf("after role change: %v", err)
		}
		hash := "h2"
		if err := db.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &hash}); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"a", "b"} {
			if _, err := db.LoginSession(ctx, id); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("session %s after reset: err = %v", id, err)
			}
		}
	})
}

// TestOpen_FilesArePrivate checks that the database and its -wal and -shm
// files are readable by the server's user only, whatever the umask, and
// that files an older version left readable are tightened.
func TestOpen_FilesArePrivate(t *testing.T) {
	only(t, "sqlite")
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")

	check := func(t *testing.T) {
		t.Helper()
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			info, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := info.Mode().Perm(); got != 0o600 {
				t.Errorf("%s: mode %v, want 0600", filepath.Base(p), got)
			}
		}
	}
	t.Run("created", func(t *testing.T) {
		db, err := store.Open(ctx, path, migrations.FS, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.CreateUser(ctx, "ana", "h", store.RoleAdmin, nil); err != nil {
			t.Fatal(err)
		}
		check(t)
	})
	t.Run("tightened", func(t *testing.T) {
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			if err := os.Chmod(p, 0o644); err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
		}
		db, err := store.Open(ctx, path, migrations.FS, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		check(t)
	})
}
