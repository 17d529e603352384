package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestSetupSignInAndConversations walks a new install: set-up of the first
// admin (a weak password refused first), conversations created, renamed
// inline and searched, then sign-out and sign-in again.
func TestSetupSignInAndConversations(t *testing.T) {
	srv := startServer(t)
	ctx := newBrowser(t)

	do(t, ctx, chromedp.Navigate(srv.URL+"/"))
	waitLoaded(t, ctx)
	if got := path(t, ctx); got != "/setup" {
		t.Fatalf("a fresh install opened %q, want /setup", got)
	}
	submitForm(t, ctx, `form[action="/setup"]`, map[string]string{"username": "admin", "password": "short"})
	if msg := textOf(t, ctx, ".alert-error"); !strings.Contains(msg, "at least 10 characters") {
		t.Fatalf("weak password: alert %q", msg)
	}
	submitForm(t, ctx, `form[action="/setup"]`, map[string]string{"username": "admin", "password": adminPassword, "password_confirm": adminPassword})
	if got := path(t, ctx); got != "/" {
		t.Fatalf("after set-up: at %q, want /", got)
	}

	first := newConversation(t, ctx, "Quarterly revenue")
	second := newConversation(t, ctx, "Churn analysis")
	if first == second {
		t.Fatal("two conversations share an id")
	}
	waitFor(t, ctx, "both in the sidebar, newest first",
		`[...document.querySelectorAll('#conversation-list .conv-title')].map(e => e.textContent).join('|') === 'Churn analysis|Quarterly revenue'`)

	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#conversation-search"), "QUARTER"))
	waitFor(t, ctx, "search to keep only the matching title",
		`[...document.querySelectorAll('#conversation-list .conv-title')].map(e => e.textContent).join('|') === 'Quarterly revenue'`)

	do(t, ctx, chromedp.Click(chromedp.CSS(".user-menu summary")))
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`.user-menu form[action="/logout"] button`)))
	if got := path(t, ctx); got != "/login" {
		t.Fatalf("after sign-out: at %q", got)
	}
	submitForm(t, ctx, `form[action="/login"]`, map[string]string{"username": "admin", "password": "wrong password"})
	if msg := textOf(t, ctx, ".alert-error"); msg != "Wrong username or password." {
		t.Fatalf("wrong password: alert %q", msg)
	}
	submitForm(t, ctx, `form[action="/login"]`, map[string]string{"username": "admin", "password": adminPassword})
	waitFor(t, ctx, "conversations after signing in again", `document.querySelectorAll('#conversation-list .conv-title').length === 2`)
}

// newConversation creates a conversation with the button, renames it inline
// and returns its id.
func newConversation(t *testing.T, ctx context.Context, title string) string {
	t.Helper()
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	id := js[string](t, ctx, `document.querySelector('[data-conversation-id]')?.dataset.conversationId || ''`)
	if id == "" || path(t, ctx) != "/conversations/"+id {
		t.Fatalf("new conversation: at %q", path(t, ctx))
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="rename-conversation"]`)),
		chromedp.WaitVisible(chromedp.CSS("#title-input")),
		chromedp.SetValue(chromedp.CSS("#title-input"), title),
		chromedp.Click(chromedp.CSS(`.title-form button[type="submit"]`)),
	)
	waitFor(t, ctx, "the new title in place and in the sidebar",
		`document.querySelector('.conversation-title')?.textContent === `+quote(title)+
			` && document.querySelector('#conv-item-`+id+` .conv-title')?.textContent === `+quote(title))
	return id
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }
