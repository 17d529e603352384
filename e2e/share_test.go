package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// createShare opens the Share menu, sets who may open the link, creates it,
// and returns the link shown for copying.
func createShare(t *testing.T, ctx context.Context, anyone bool) string {
	t.Helper()
	if !js[bool](t, ctx, `document.getElementById('share-menu').open`) {
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="share-button"]`)))
	}
	if anyone {
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="share-anyone"]`)))
	}
	n := js[int](t, ctx, `document.querySelectorAll('[data-testid="share-url"]').length`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="create-share"]`)))
	waitFor(t, ctx, "the new link", `document.querySelectorAll('[data-testid="share-url"]').length > `+strconv.Itoa(n)+
		` && !!document.querySelector('.share-new [data-testid="share-url"]')`)
	waitFor(t, ctx, "the new link selected to copy", `document.activeElement === document.querySelector('.share-new [data-testid="share-url"]')`)
	return js[string](t, ctx, `document.querySelector('.share-new [data-testid="share-url"]').value`)
}

// TestShareReadOnlyLink: the owner shares an answer with a table and a
// chart; a link for anyone opens without an account, a link for signed-in
// users sends a visitor through the sign-in page and back; the second user
// sees the answer, table and chart and nothing to change; once the owner
// revokes the link, it is no longer valid.
func TestShareReadOnlyLink(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	owner := newBrowserFor(t, 3*time.Minute)
	signInNewConversation(t, owner, srv)
	askAndWait(t, owner, "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\n"+
		"df = pd.DataFrame({'month': ['Jan', 'Feb', 'Mar', 'Apr'], 'revenue': [120, 135, 180, 150]})\nprint(df)\n"+
		"df.plot.bar(x='month', y='revenue', legend=False, color='#4f46e5')\nplt.title('Revenue by month')\n"+
		"plt.tight_layout()\nplt.savefig('/mnt/data/revenue.png')\n```", "revenue")
	waitFor(t, owner, "the chart", `(() => { const i = document.querySelector('.chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	conversation := path(t, owner)
	navigates(t, owner, chromedp.Navigate(srv.URL+"/admin/users"))
	submitForm(t, owner, `form[action="/admin/users"]`, map[string]string{"username": "bea", "password": "bea's long passphrase", "role": "analyst"})
	do(t, owner, chromedp.Navigate(srv.URL+conversation))
	waitLoaded(t, owner)

	signedIn := createShare(t, owner, false)
	public := createShare(t, owner, true)
	if !strings.HasPrefix(signedIn, srv.URL+"/s/") || !strings.HasPrefix(public, srv.URL+"/s/") || signedIn == public {
		t.Fatalf("links %q and %q", signedIn, public)
	}

	bea := newBrowserFor(t, 3*time.Minute)
	do(t, bea, chromedp.Navigate(public))
	waitLoaded(t, bea)
	if got := textOf(t, bea, "#messages"); !strings.Contains(got, "Revenue by month") && !strings.Contains(got, "revenue") {
		t.Fatalf("the public link shows %q", got)
	}

	do(t, bea, chromedp.Navigate(signedIn))
	waitLoaded(t, bea)
	if p := path(t, bea); !strings.HasPrefix(p, "/login?next=") {
		t.Fatalf("a link for signed-in users opened at %q without signing in", p)
	}
	submitForm(t, bea, `form[action="/login"]`, map[string]string{"username": "bea", "password": "bea's long passphrase"})
	if p := path(t, bea); p != strings.TrimPrefix(signedIn, srv.URL) {
		t.Fatalf("after signing in: %q, want the link", p)
	}
	waitFor(t, bea, "the chart", `(() => { const i = document.querySelector('.chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	waitFor(t, bea, "the table", `document.querySelectorAll('[data-testid="data-table"] tbody tr').length === 4`)
	if got := textOf(t, bea, ".share-byline"); !strings.Contains(got, "Shared by ops") {
		t.Fatalf("byline %q", got)
	}
	if n := js[int](t, bea, `document.querySelectorAll('#composer, form, textarea, #sidebar, [data-testid="share-button"]').length`); n != 0 {
		t.Fatalf("the shared page has %d controls of the owner's", n)
	}
	for _, msg := range runAxe(t, bea) {
		t.Errorf("shared page: axe: %s", msg)
	}
	// On a phone, neither the shared page nor the Share menu scrolls sideways.
	do(t, bea, emulate(narrow, "dark"), chromedp.Reload())
	waitLoaded(t, bea)
	if msg := js[string](t, bea, fmt.Sprintf("%s(%d)", overflowing, narrow.width)); msg != "" {
		t.Errorf("the shared page scrolls sideways: %s", msg)
	}
	for _, msg := range runAxe(t, bea) {
		t.Errorf("shared page, dark: axe: %s", msg)
	}
	do(t, owner, emulate(narrow, "light"), chromedp.Reload())
	waitLoaded(t, owner)
	do(t, owner, chromedp.Click(chromedp.CSS(`[data-testid="share-button"]`)))
	if msg := js[string](t, owner, fmt.Sprintf("%s(%d)", overflowing, narrow.width)); msg != "" {
		t.Errorf("the Share menu scrolls sideways: %s", msg)
	}
	for _, msg := range runAxe(t, owner) {
		t.Errorf("Share menu: axe: %s", msg)
	}
	if dir := os.Getenv("SCREENSHOTS_DIR"); dir != "" {
		shoot(t, bea, filepath.Join(dir, "share-phone-dark.png"))
		buf, err := chromedp.Run(owner, chromedp.CaptureScreenshot())
		if err == nil {
			os.WriteFile(filepath.Join(dir, "share-menu-phone.png"), buf, 0o644)
		}
	}
	do(t, owner, emulate(desktop, "light"))
	do(t, bea, emulate(desktop, "light"))
	if dir := os.Getenv("SCREENSHOTS_DIR"); dir != "" {
		do(t, bea, emulate(shotDesktop, "light"), chromedp.Reload())
		waitFor(t, bea, "the chart", `(() => { const i = document.querySelector('.chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
		shoot(t, bea, filepath.Join(dir, "share.png"))
		do(t, owner, emulate(shotDesktop, "dark"), chromedp.Reload())
		waitLoaded(t, owner)
		do(t, owner, chromedp.Click(chromedp.CSS(`[data-testid="share-button"]`)))
		time.Sleep(300 * time.Millisecond)
		buf, err := chromedp.Run(owner, chromedp.CaptureScreenshot())
		if err == nil {
			os.WriteFile(filepath.Join(dir, "share-menu.png"), buf, 0o644)
		}
	}

	// The owner sees the views, then revokes the link.
	do(t, owner, chromedp.Reload())
	waitLoaded(t, owner)
	do(t, owner, chromedp.Click(chromedp.CSS(`[data-testid="share-button"]`)))
	if got := textOf(t, owner, "#share-list"); strings.Contains(got, "not opened yet") || strings.Count(got, "opened") != 2 {
		t.Fatalf("the owner's list says %q", got)
	}
	js[bool](t, owner, "window.confirm = () => true; true")
	id := strings.TrimPrefix(signedIn, srv.URL+"/s/")
	do(t, owner, chromedp.Click(chromedp.CSS(`[data-testid="share-link"]:has(input[value$="`+id+`"]) [data-testid="revoke-share"]`)))
	waitFor(t, owner, "the link to leave the list", `![...document.querySelectorAll('[data-testid="share-url"]')].some(i => i.value.endsWith('`+id+`'))`)

	// The browser that showed the page may keep it a minute (its reader
	// has seen it); asking again, as a reload does, finds the link gone.
	if p := path(t, bea); p != strings.TrimPrefix(signedIn, srv.URL) {
		t.Fatalf("bea is at %q", p)
	}
	do(t, bea, chromedp.Reload())
	waitLoaded(t, bea)
	if got := textOf(t, bea, "main"); !strings.Contains(got, "no longer valid") {
		t.Fatalf("the revoked link shows %q", got)
	}
}
