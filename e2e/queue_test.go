package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestQuestionAfterStopWaitsThenStreams: Stop, then a question at once,
// while the stopped cell still winds down (it catches the interrupt and
// takes three seconds more): the question is accepted, its answer says it
// waits, and then streams in live, without a reload.
func TestQuestionAfterStopWaitsThenStreams(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time\nprint('started', flush=True)\ntry:\n    time.sleep(60)\nexcept KeyboardInterrupt:\n"+
		"    print('winding down', flush=True)\n    time.sleep(3)\n```")
	waitFor(t, ctx, "the cell's first line", `(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('started')`)
	waitFor(t, ctx, "the stop button, ready",
		`document.querySelector('[data-testid="stop"]')?.['htmx-internal-data']?.initHash != null`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	// Send is back at once, before the stop is confirmed.
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#composer-input"), "```python\nprint('second', 6 * 7)\n```"),
		chromedp.SendKeys(chromedp.CSS("#composer-input"), "\r"))
	waitFor(t, ctx, "the second answer, waiting",
		`document.querySelectorAll('#messages .answer').length === 2 && `+
			`document.querySelectorAll('#messages .answer')[1].textContent.includes('Waiting for the stopped answer to end')`)
	if js[bool](t, ctx, `document.getElementById('toasts').textContent.includes('still being answered')`) {
		t.Fatal("the question after Stop was refused")
	}
	waitLong(t, ctx, "the second answer, streamed",
		`document.querySelectorAll('#messages .answer')[1].textContent.includes('second 42') && `+
			`document.querySelectorAll('#messages .answer')[1].querySelector('.answer-status')?.dataset.status === 'completed'`)
	if got := js[string](t, ctx, `document.querySelectorAll('#messages .answer')[0].querySelector('.answer-status')?.dataset.status`); got != "cancelled" {
		t.Errorf("the stopped answer's status is %q, want cancelled", got)
	}
	waitFor(t, ctx, "the send button after both", `!!document.querySelector('[data-testid="send"]')`)
}
