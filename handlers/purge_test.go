package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

func TestAdminPurge(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	convID := ana.create()
	ana.upload("/conversations/"+convID+"/files", true, part{"file", "sales.csv", salesCSV})
	anaID := mustUser(t, a, "ana").ID
	files, _ := a.db.Files(context.Background(), anaID, convID)
	blob := a.blobs.Path(files[0].SHA256)

	expect(t, ana.post("/admin/purge", url.Values{"user": {anaID}, "dry_run": {"0"}}), http.StatusForbidden)
	expect(t, root.post("/admin/purge", url.Values{"dry_run": {"1"}}), http.StatusUnprocessableEntity, "Choose what to purge")
	expect(t, root.post("/admin/purge", url.Values{"user": {"nobody"}, "dry_run": {"1"}}), http.StatusUnprocessableEntity, "There is no user nobody")
	// A script may name the user instead of giving the id.
	expect(t, root.post("/admin/purge", url.Values{"user": {"ana"}, "dry_run": {"1"}}), http.StatusOK, "New conversation")

	t.Run("a dry run lists what would go and deletes nothing", func(t *testing.T) {
		r := root.post("/admin/purge", url.Values{"user": {anaID}, "older_than_days": {"0"}, "dry_run": {"1"}})
		expect(t, r, http.StatusOK, "Purge preview", "Nothing has been deleted", "New conversation", `data-testid="purge-execute"`)
		if _, err := a.db.Conversation(context.Background(), anaID, convID); err != nil {
			t.Fatal("a dry run deleted the conversation")
		}
	})
	t.Run("executing deletes rows and blobs and logs it", func(t *testing.T) {
		r := root.post("/admin/purge", url.Values{"conversation_id": {convID}, "dry_run": {"0"}})
		if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/admin/purges/") {
			t.Fatalf("execute: %d → %q", r.status, r.location)
		}
		if err := a.purge.Drain(context.Background()); err != nil {
			t.Fatal(err)
		}
		if _, err := a.db.Conversation(context.Background(), anaID, convID); err == nil {
			t.Fatal("the conversation is still there")
		}
		if _, err := os.Stat(blob); !os.IsNotExist(err) {
			t.Fatalf("the uploaded file's blob is still on disk: %v", err)
		}
		// Its owner is told what happened, in the layout; nobody else is.
		expect(t, ana.get("/conversations/"+convID), http.StatusGone, "was deleted on", "by an administrator", `id="sidebar"`)
		expect(t, ana.get("/conversations/"+convID+"/gallery"), http.StatusGone, "was deleted on")
		expect(t, root.get("/conversations/"+convID), http.StatusNotFound)
		expect(t, root.get(r.location), http.StatusOK, "Done.")
		expect(t, root.get("/admin"), http.StatusOK, "Audit log", "purge")
	})
}

func TestAnalystDeletesOwnConversationThroughThePurgePath(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	convID := ana.create()
	expect(t, bob.post("/conversations/"+convID+"/delete", nil), http.StatusNotFound)
	if r := ana.post("/conversations/"+convID+"/delete", nil); r.status != http.StatusSeeOther {
		t.Fatalf("delete: %d", r.status)
	}
	expect(t, ana.get("/conversations/"+convID), http.StatusNotFound, "Not found", `id="sidebar"`)
}

func TestReconcile(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	expect(t, root.get("/admin/reconcile"), http.StatusOK, "Reconcile with Foundry")
	expect(t, root.post("/admin/reconcile", url.Values{"object": {"rm -rf|x|y"}}), http.StatusBadRequest)
	expect(t, root.post("/admin/reconcile", nil), http.StatusUnprocessableEntity, "Select at least one")
	r := root.post("/admin/reconcile", url.Values{"object": {"foundry_file||file-left-behind"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("reconcile: %d %s", r.status, excerpt(r.body))
	}
	if err := a.purge.Drain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(a.remote.deleted, ","); got != "file file-left-behind" {
		t.Fatalf("remote deletions: %q", got)
	}
}

func TestRetentionIsEditable(t *testing.T) {
	a := newApp(t)
	root := a.signedIn("root", store.RoleAdmin)
	expect(t, root.get("/admin"), http.StatusOK, "Retention is off")
	expect(t, root.post("/admin/retention", url.Values{"retention_days": {"-3"}}), http.StatusUnprocessableEntity, "whole number of days")
	if r := root.post("/admin/retention", url.Values{"retention_days": {"90"}}); r.status != http.StatusSeeOther {
		t.Fatalf("set retention: %d", r.status)
	}
	expect(t, root.get("/admin"), http.StatusOK, "not updated for 90 days are purged every hour")
	if n, _ := a.db.IntSetting(context.Background(), store.SettingRetentionDays, 0); n != 90 {
		t.Fatalf("stored retention %d", n)
	}
}
