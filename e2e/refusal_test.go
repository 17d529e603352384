package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestRefusedQuestionKeepsItsText: a question sent while the previous answer
// still runs (as from a second tab) is refused with a toast that says why,
// and what the analyst typed stays in the composer to send again.
func TestRefusedQuestionKeepsItsText(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time\ntime.sleep(30)\n```")
	waitFor(t, ctx, "the stop button", `!!document.querySelector('[data-testid="stop"]')`)
	const typed = "what is the mean revenue by region?"
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#composer-input"), typed))
	js[bool](t, ctx, `htmx.trigger(document.getElementById('composer'), 'submit'), true`)
	waitFor(t, ctx, "the refusal", `document.getElementById('toasts').textContent.includes('still being answered')`)
	if got := js[string](t, ctx, `document.getElementById('composer-input').value`); got != typed {
		t.Fatalf("the composer holds %q after the refusal, want the question typed", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
}
