package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestLiveOutputAndStopKeepsIt runs a long cell that prints as it goes: its
// first line shows while it still runs, and Stop keeps what it printed,
// labelling the cell "stopped", not "error", before and after a reload.
func TestLiveOutputAndStopKeepsIt(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time\nfor i in range(600):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n```")
	waitFor(t, ctx, "the first line while the cell runs",
		`!!document.querySelector('.cell-running') && (document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('tick 0')`)
	waitFor(t, ctx, "more lines", `(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('tick 3')`)

	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
	check := func(when string) {
		t.Helper()
		waitFor(t, ctx, "the stopped pill "+when, `(document.querySelector('.cell .pill')?.textContent || '') === 'stopped'`)
		if got := textOf(t, ctx, `.cell [data-testid="cell-output"]`); !contains(got, "tick 0", "tick 3") {
			t.Fatalf("%s the stopped cell shows %q", when, got)
		}
	}
	check("live")
	saveScreenshot(t, ctx)
	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	check("after reload")
}

func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
