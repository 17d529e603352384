package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAdminPurgesAConversationHereAndInFoundry: an analyst uploads a file
// and has code write one; the admin previews and purges that conversation;
// its bytes vanish from DATA_DIR and from the local engine's Foundry store.
func TestAdminPurgesAConversationHereAndInFoundry(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)

	admin := newBrowser(t)
	do(t, admin, chromedp.Navigate(srv.URL+"/admin/users"))
	submitForm(t, admin, `form[action="/login"]`, map[string]string{"username": "ops", "password": adminPassword})
	submitForm(t, admin, `form[action="/admin/users"]`, map[string]string{"username": "bea", "password": "bea's long passphrase", "role": "analyst"})

	bea := newBrowser(t)
	do(t, bea, chromedp.Navigate(srv.URL+"/login"))
	submitForm(t, bea, `form[action="/login"]`, map[string]string{"username": "bea", "password": "bea's long passphrase"})
	navigates(t, bea, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	csv := filepath.Join(t.TempDir(), "secret-numbers.csv")
	os.WriteFile(csv, []byte("a,b\n1,2\n3,4\n"), 0o644)
	do(t, bea, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, bea, "the upload", `!!document.querySelector('.file-card[data-file-name="secret-numbers.csv"]')`)
	ask(t, bea, "```python\nimport pandas as pd\npd.read_csv(__import__('glob').glob('/mnt/data/*-secret-numbers.csv')[0]).to_csv('/mnt/data/copy.csv')\n```")
	waitFor(t, bea, "the generated file", `!!document.querySelector('[data-testid="artifact"]')`)

	blobs := countFiles(t, filepath.Join(srv.DataDir, "blobs"))
	engineFiles := countFiles(t, filepath.Join(srv.DataDir, "engine", "files"))
	if blobs == 0 || engineFiles == 0 {
		t.Fatalf("before the purge: %d blobs, %d engine files", blobs, engineFiles)
	}

	do(t, admin, chromedp.Navigate(srv.URL+"/admin"))
	waitLoaded(t, admin)
	do(t, admin, chromedp.Click(chromedp.CSS(`tr[data-conversation-id] input[name="conversation_id"]`)))
	// The form's button is clicked by script: it sits far above the ticked
	// row, and what is tested here is the purge, not scrolling.
	navigates(t, admin, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := chromedp.Evaluate[bool](`document.querySelector('#purge-form button[name="dry_run"]').click(); true`)(ctx, tg)
		return err
	}))
	if got := textOf(t, admin, "main"); !strings.Contains(got, "Nothing has been deleted") || !strings.Contains(got, "Foundry file") {
		t.Fatalf("preview: %q", got)
	}
	if countFiles(t, filepath.Join(srv.DataDir, "blobs")) != blobs {
		t.Fatal("the preview deleted something")
	}
	js[bool](t, admin, "window.confirm = () => true; true")
	do(t, admin, chromedp.Click(chromedp.CSS(`[data-testid="purge-execute"]`)))
	waitFor(t, admin, "the purge to finish", `document.querySelector('#purge-progress')?.dataset.finished === 'true'`)

	if n := countFiles(t, filepath.Join(srv.DataDir, "blobs")); n != 0 {
		t.Fatalf("%d blobs left on disk", n)
	}
	if n := countFiles(t, filepath.Join(srv.DataDir, "engine", "files")); n != 0 {
		t.Fatalf("%d files left in the engine's Foundry store", n)
	}
	do(t, bea, chromedp.Navigate(srv.URL+"/"))
	waitLoaded(t, bea)
	if got := textOf(t, bea, ".empty-hint"); !strings.Contains(got, "No conversations yet") {
		t.Fatalf("bea still sees conversations: %q", got)
	}
}

// countFiles counts the regular files below dir (none if it does not exist).
func countFiles(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			n++
		}
		return nil
	})
	return n
}
