package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAnalystCannotOpenAnotherUsersConversation scripts the admin through
// the environment, has them add an analyst, and checks that the analyst gets
// a 404 page for the admin's conversation and a 403 page for admin pages.
func TestAnalystCannotOpenAnotherUsersConversation(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)

	admin := newBrowser(t)
	do(t, admin, chromedp.Navigate(srv.URL+"/login"))
	submitForm(t, admin, `form[action="/login"]`, map[string]string{"username": "ops", "password": adminPassword})
	secret := newConversation(t, admin, "Board pack — confidential")

	do(t, admin, chromedp.Navigate(srv.URL+"/admin/users"))
	submitForm(t, admin, `form[action="/admin/users"]`, map[string]string{"username": "bea", "password": "bea's long passphrase", "role": "analyst"})
	if msg := textOf(t, admin, ".alert-success"); !strings.Contains(msg, "User added") {
		t.Fatalf("add user: %q", msg)
	}
	waitFor(t, admin, "bea in the user list", `!!document.querySelector('tr[data-username="bea"]')`)

	analyst := newBrowser(t)
	do(t, analyst, chromedp.Navigate(srv.URL+"/"))
	submitForm(t, analyst, `form[action="/login"]`, map[string]string{"username": "bea", "password": "bea's long passphrase"})
	if got := textOf(t, analyst, ".empty-hint"); !strings.Contains(got, "No conversations yet") {
		t.Fatalf("bea's sidebar: %q", got)
	}
	do(t, analyst, chromedp.Navigate(srv.URL+"/conversations/"+secret))
	waitLoaded(t, analyst)
	if code, body := textOf(t, analyst, ".error-code"), textOf(t, analyst, "main"); code != "404" || strings.Contains(body, "confidential") {
		t.Fatalf("another user's conversation: code %q, page %q", code, body)
	}
	do(t, analyst, chromedp.Navigate(srv.URL+"/admin/users"))
	waitLoaded(t, analyst)
	if code := textOf(t, analyst, ".error-code"); code != "403" {
		t.Fatalf("analyst on /admin/users: code %q", code)
	}
}

// TestSignInAndCreateWithoutJavaScript proves the core forms are plain HTML:
// with scripts off, set-up, creating and renaming a conversation, searching
// and signing out all work.
func TestSignInAndCreateWithoutJavaScript(t *testing.T) {
	srv := startServer(t)
	ctx := newBrowser(t)
	do(t, ctx, disableJavaScript(), chromedp.Navigate(srv.URL+"/"))
	waitLoaded(t, ctx)
	submitForm(t, ctx, `form[action="/setup"]`, map[string]string{"username": "admin", "password": adminPassword})

	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	if !strings.HasPrefix(path(t, ctx), "/conversations/") {
		t.Fatalf("create without JavaScript: at %q", path(t, ctx))
	}
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="rename-conversation"]`)))
	submitForm(t, ctx, `form.title-form`, map[string]string{"title": "Plain HTML works"})
	if got := textOf(t, ctx, ".conversation-title"); got != "Plain HTML works" {
		t.Fatalf("title after rename: %q", got)
	}
	navigates(t, ctx, chromedp.SetValue(chromedp.CSS("#conversation-search"), "plain"), chromedp.Submit(chromedp.CSS("#conversation-search")))
	if got := textOf(t, ctx, "#conversation-list .conv-title"); got != "Plain HTML works" || path(t, ctx) != "/?q=plain" {
		t.Fatalf("search without JavaScript: %q at %q", got, path(t, ctx))
	}
}
