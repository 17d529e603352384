package store_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestRenewFoundryConversation: the conversation moves to the new Foundry
// conversation with no session, and the old one waits in the outbox.
func TestRenewFoundryConversation(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, "t")
	db.SetFoundryConversation(ctx, c.ID, "conv_old")
	db.UseSession(ctx, c.ID, "cntr_1", time.Now())
	if err := db.RenewFoundryConversation(ctx, c.ID, "conv_new"); err != nil {
		t.Fatal(err)
	}
	got, _ := db.Conversation(ctx, u.ID, c.ID)
	if got.FoundryConversationID != "conv_new" || got.ContainerID != "" || !got.SessionUsedAt.IsZero() {
		t.Fatalf("after renewal: %+v", got)
	}
	due, err := db.DueOutbox(ctx, time.Now().Add(time.Minute), 10)
	if err != nil || len(due) != 1 || due[0].Kind != store.OutboxFoundryConversation || due[0].Target != "conv_old" {
		t.Fatalf("outbox = %+v, %v", due, err)
	}
	log, _ := db.AuditLog(ctx, 10)
	if len(log) != 1 || log[0].Action != store.ActionSessionRenewal || log[0].PurgeID != due[0].PurgeID {
		t.Errorf("audit = %+v", log)
	}
	if err := db.RenewFoundryConversation(ctx, "nope", "conv_x"); err != store.ErrNotFound {
		t.Errorf("unknown conversation: %v", err)
	}
}

// TestUnknownFoundryFiles_OnlyOurs: a Foundry file this app never uploaded
// is not an orphan of this app, however unknown it is.
func TestUnknownFoundryFiles_OnlyOurs(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, "t")
	kept, _ := db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "a.csv", SHA256: "a", Size: 1})
	gone, _ := db.AddFile(ctx, u.ID, store.File{ConversationID: c.ID, Name: "b.csv", SHA256: "b", Size: 1})
	db.SetFoundryFileID(ctx, kept.ID, "file-kept")
	db.SetFoundryFileID(ctx, gone.ID, "file-gone")
	db.DeleteConversation(ctx, u.ID, c.ID) // its rows go; the Foundry files stay behind
	c2, _ := db.CreateConversation(ctx, u.ID, "t2")
	again, _ := db.AddFile(ctx, u.ID, store.File{ConversationID: c2.ID, Name: "a.csv", SHA256: "a", Size: 1})
	db.SetFoundryFileID(ctx, again.ID, "file-kept")
	got, err := db.UnknownFoundryFiles(ctx, []string{"file-kept", "file-gone", "file-of-another-app"})
	if err != nil || !slices.Equal(got, []string{"file-gone"}) {
		t.Fatalf("UnknownFoundryFiles = %v, %v; want only file-gone", got, err)
	}
}

func TestInstallID(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	a, err := db.InstallID(ctx)
	b, _ := db.InstallID(ctx)
	if err != nil || a == "" || a != b {
		t.Fatalf("InstallID = %q then %q, %v", a, b, err)
	}
}
