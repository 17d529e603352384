package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// fakeClock returns a clock that advances one millisecond a call, so rows
// written one after another get distinct, increasing times.
func fakeClock() func() time.Time {
	t := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Millisecond); return t }
}

func TestOpen_SetsPragmasOnEveryConnectionAndReopens(t *testing.T) {
	only(t, "sqlite")
	path := filepath.Join(t.TempDir(), "app.db")
	ctx := context.Background()
	db, err := store.Open(ctx, path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateUser(ctx, "ana", "h", store.RoleAdmin, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := os.Stat(path + "-wal"); err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	// Reopening applies no migration twice and keeps the data.
	db, err = store.Open(ctx, path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if n, err := db.CountUsers(ctx); err != nil || n != 1 {
		t.Fatalf("CountUsers = %d, %v; want 1", n, err)
	}
	if err := db.CheckPragmas(ctx, 3); err != nil {
		t.Fatal(err)
	}
}

func TestUsers(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)

	t.Run("usernames are unique regardless of case", func(t *testing.T) {
		if _, err := db.CreateUser(ctx, "Ana", "h", store.RoleAnalyst, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("second Ana: err = %v, want ErrConflict", err)
		}
		u, err := db.UserByUsername(ctx, "ANA")
		if err != nil || u.Username != "Ana" {
			t.Fatalf("UserByUsername(ANA) = %v, %v", u, err)
		}
	})

	t.Run("first user only once", func(t *testing.T) {
		if _, err := db.CreateFirstUser(ctx, "root", "h", store.RoleAdmin, nil); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("CreateFirstUser with users present: err = %v, want ErrConflict", err)
		}
	})

	t.Run("password reset and disable advance the session epoch", func(t *testing.T) {
		u, _ := db.UserByUsername(ctx, "ana")
		hash, disabled := "h2", true
		if err := db.UpdateUser(ctx, u.ID, store.UserUpdate{PasswordHash: &hash, Disabled: &disabled}); err != nil {
			t.Fatal(err)
		}
		got, _ := db.UserByID(ctx, u.ID)
		if got.PasswordHash != "h2" || !got.Disabled || got.SessionEpoch != u.SessionEpoch+1 {
			t.Fatalf("after update: %+v", got)
		}
	})

	t.Run("missing user", func(t *testing.T) {
		if _, err := db.UserByID(ctx, "nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})

	t.Run("metacharacters are stored as typed", func(t *testing.T) {
		name := `<b>x</b>'; DROP TABLE users;--`
		if _, err := db.CreateUser(ctx, name, "h", store.RoleAnalyst, nil); err != nil {
			t.Fatal(err)
		}
		u, err := db.UserByUsername(ctx, name)
		if err != nil || u.Username != name {
			t.Fatalf("got %v, %v", u, err)
		}
	})
}

func TestConversations(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	db.Now = fakeClock()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	var ids []string
	for _, title := range []string{"Sales 2024", "100% growth_check", "Churn", "sales by region"} {
		c, err := db.CreateConversation(ctx, ana.ID, title)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, c.ID)
	}

	t.Run("newest first, paged by cursor", func(t *testing.T) {
		p1, err := db.Conversations(ctx, store.ConversationFilter{UserID: ana.ID, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := titles(p1.Conversations); !equal(got, []string{"sales by region", "Churn", "100% growth_check"}) {
			t.Fatalf("page 1 = %q", got)
		}
		p2, err := db.Conversations(ctx, store.ConversationFilter{UserID: ana.ID, Limit: 3, After: p1.Next})
		if err != nil {
			t.Fatal(err)
		}
		if got := titles(p2.Conversations); !equal(got, []string{"Sales 2024"}) || !p2.Next.IsZero() {
			t.Fatalf("page 2 = %q, next %v", got, p2.Next)
		}
	})

	t.Run("search by title ignores case and treats wildcards literally", func(t *testing.T) {
		for q, want := range map[string][]string{
			"SALES": {"sales by region", "Sales 2024"},
			"%":     {"100% growth_check"},
			"_":     {"100% growth_check"},
			"zzz":   nil,
		} {
			p, err := db.Conversations(ctx, store.ConversationFilter{UserID: ana.ID, Query: q})
			if err != nil {
				t.Fatal(err)
			}
			if got := titles(p.Conversations); !equal(got, want) {
				t.Errorf("query %q = %q, want %q", q, got, want)
			}
		}
	})

	t.Run("another user's conversation is not found", func(t *testing.T) {
		if _, err := db.Conversation(ctx, bob.ID, ids[0]); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Conversation as bob: %v", err)
		}
		if _, err := db.RenameConversation(ctx, bob.ID, ids[0], "mine"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Rename as bob: %v", err)
		}
		if err := db.DeleteConversation(ctx, bob.ID, ids[0]); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("Delete as bob: %v", err)
		}
		if p, _ := db.Conversations(ctx, store.ConversationFilter{UserID: bob.ID}); len(p.Conversations) != 0 {
			t.Fatalf("bob sees %d conversations", len(p.Conversations))
		}
	})

	t.Run("rename moves it to the top; delete removes it", func(t *testing.T) {
		c, err := db.RenameConversation(ctx, ana.ID, ids[0], "Renamed")
		if err != nil || c.Title != "Renamed" {
			t.Fatalf("rename = %v, %v", c, err)
		}
		p, _ := db.Conversations(ctx, store.ConversationFilter{UserID: ana.ID, Limit: 1})
		if p.Conversations[0].ID != ids[0] {
			t.Fatalf("top = %q, want renamed one", p.Conversations[0].Title)
		}
		if err := db.DeleteConversation(ctx, ana.ID, ids[0]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Conversation(ctx, ana.ID, ids[0]); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
	})
}

func titles(cs []*store.Conversation) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Title)
	}
	return out
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestEndSessionsKeepsTheContainerButNotItsClock(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, "t")
	db.UseSession(ctx, c.ID, "cntr_1", time.Now())
	if n, err := db.EndSessions(ctx); err != nil || n != 1 {
		t.Fatalf("EndSessions = %d, %v", n, err)
	}
	got, _ := db.Conversation(ctx, u.ID, c.ID)
	if got.ContainerID != "cntr_1" || !got.SessionUsedAt.IsZero() || !got.SessionStartedAt.IsZero() {
		t.Fatalf("after EndSessions: %+v", got)
	}
}

// TestSameMillisecondKeepsOrder: files uploaded together and the files a
// cell writes come back in the order they were made, even when the clock
// gives them all the same millisecond (their ids are random).
func TestSameMillisecondKeepsOrder(t *testing.T) {
	db := openDB(t)
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	db.Now = func() time.Time { return at }
	ctx := context.Background()
	u, err := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := db.CreateConversation(ctx, u.ID, "c")
	_, run, err := db.StartTurn(ctx, u.ID, c.ID, "q", "")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for i := range 20 {
		name := fmt.Sprintf("part-%02d", i)
		want = append(want, name)
		sha := fmt.Sprintf("%064x", i+1)
		if _, err := db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: name, ContentType: "text/csv", Size: 1, SHA256: sha}); err != nil {
			t.Fatal(err)
		}
		if _, err := db.AddArtifact(ctx, store.Artifact{ConversationID: c.ID, RunID: run.ID, Name: name, ContentType: "image/png",
			Size: 1, SHA256: sha, Kind: store.ArtifactImage}); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := db.Files(ctx, u.ID, c.ID)
	arts, _ := db.Artifacts(ctx, u.ID, c.ID)
	var gotFiles, gotArts []string
	for _, f := range files {
		gotFiles = append(gotFiles, f.Name)
	}
	for _, a := range arts {
		gotArts = append(gotArts, a.Name)
	}
	if !slices.Equal(gotFiles, want) || !slices.Equal(gotArts, want) {
		t.Fatalf("files %q, artifacts %q; want %q", gotFiles, gotArts, want)
	}
}
