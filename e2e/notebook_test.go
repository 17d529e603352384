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

// TestDataFrameRendersAsTable runs a describe(): its result shows as a
// table, not wrapped text; a header click sorts it, and it copies as CSV.
func TestDataFrameRendersAsTable(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport pandas as pd\ndf = pd.DataFrame({'price': [3.5, 1.25, 2.0, 10.0], 'qty': [4, 9, 1, 2]})\ndf.describe()\n```")
	waitFor(t, ctx, "the table", `!!document.querySelector('.answer .answer-status[data-status="completed"]') && !!document.querySelector('[data-testid="data-table"] table')`)
	if got := textOf(t, ctx, `[data-testid="data-table"] .df-shape`); !strings.Contains(got, "8 rows × 2 columns") {
		t.Fatalf("shape %q", got)
	}
	if n := js[int](t, ctx, `document.querySelectorAll('.cell-output').length`); n != 0 {
		t.Fatalf("%d text outputs beside the table", n)
	}
	firstPrice := `document.querySelector('[data-testid="data-table"] tbody tr td')?.dataset.v`
	if got := js[string](t, ctx, firstPrice); got != "4" { // count
		t.Fatalf("first price %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="data-table"] thead th:nth-child(2)`)))
	if got := js[string](t, ctx, firstPrice); got != "1.25" { // min, the smallest
		t.Fatalf("after sorting, first price %q", got)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="data-table"] thead th:nth-child(2)`)))
	if got := js[string](t, ctx, firstPrice); got != "10" { // max
		t.Fatalf("after sorting down, first price %q", got)
	}
	csv := js[string](t, ctx, `workbenchTableCSV(document.querySelector('[data-testid="data-table"] table'))`)
	if !strings.HasPrefix(csv, ",price,qty\n") || !strings.Contains(csv, "mean,4.1875,4\n") {
		t.Fatalf("csv %q", csv)
	}
	if !js[bool](t, ctx, `!document.querySelector('[data-testid="copy-csv"]').hidden`) {
		t.Fatal("no Copy as CSV button")
	}
	saveScreenshot(t, ctx)
}
