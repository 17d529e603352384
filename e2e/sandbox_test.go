package e2e

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestSetAsideSessionComesBackInThePage runs the local engine on a memory
// budget of 520 MiB, keeps a variable in one conversation, then opens more
// conversations, each holding 128 MiB, than fit. The first conversation's kernel is set
// aside; its next question finds the variable, the answer says the session
// was restored and what came back, the badge says so, and /admin counts it.
func TestSetAsideSessionComesBackInThePage(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword, "SANDBOX_MEMORY_BUDGET=520MiB")
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	first := path(t, ctx)
	askAndWait(t, ctx, "```python\nanswer = 41\nprint('kept', answer)\n```", "kept 41")

	for i := range 6 {
		navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
		// 128 MiB each: forked kernels cost so little that seven small ones
		// would all fit in the budget, and nothing would be set aside.
		askAndWait(t, ctx, "```python\nblob = b'x' * (128 << 20)\nprint('other', "+strconv.Itoa(i)+")\n```", "other "+strconv.Itoa(i))
	}

	navigates(t, ctx, chromedp.Navigate(srv.URL+first))
	askAndWait(t, ctx, "```python\nprint('back', answer + 1)\n```", "back 42")
	waitFor(t, ctx, "the note that the session was restored",
		`[...document.querySelectorAll('#messages .answer')].pop().textContent.includes('has been restored for this answer')`)
	note := js[string](t, ctx, `[...document.querySelectorAll('#messages .answer')].pop().querySelector('.notice, .alert')?.textContent || ''`)
	if !strings.Contains(note, "answer") {
		t.Fatalf("the restore note does not name the variable: %q", note)
	}
	waitFor(t, ctx, "the restored badge", `(document.querySelector('#session-badge')?.textContent || '').includes('restored')`)
	if dir := os.Getenv("E2E_SCREENSHOTS"); dir != "" {
		shoot(t, ctx, dir+"/restored.png")
	}

	navigates(t, ctx, chromedp.Navigate(srv.URL+"/admin"))
	if set := textOf(t, ctx, `[data-testid="sandbox-card"]`); !strings.Contains(set, "restored") || strings.Contains(set, " 0 set aside") {
		t.Fatalf("the admin page's sandbox card: %q", set)
	}
	if dir := os.Getenv("E2E_SCREENSHOTS"); dir != "" {
		shoot(t, ctx, dir+"/admin-sandbox.png")
	}
}

// askAndWait asks and waits for the answer to finish with want in its
// output.
func askAndWait(t *testing.T, ctx context.Context, question, want string) {
	t.Helper()
	ask(t, ctx, question)
	// An answer may restore a set-aside kernel first: give a busy machine time.
	waitUntil(t, ctx, 3*time.Minute, "the output "+want, `[...document.querySelectorAll('#messages .answer')].pop().textContent.includes(`+quote(want)+`)`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
}

// shoot saves a full-page screenshot to look at.
func shoot(t *testing.T, ctx context.Context, file string) {
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot: %v", err)
		return
	}
	os.WriteFile(file, buf, 0o644)
}
