package e2e

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// longTurns is how many questions the long conversation holds: more than
// two pages' worth, each with a table and a chart.
const longTurns = 24

// TestLongConversationOpensFast (issue 40): a conversation of 24 answers,
// each a table and a chart, opens with its latest 10, in about the time
// a conversation of one takes to DOMContentLoaded (measured side by side,
// a ratio that a busy machine does not break); the earlier ones come on
// request, in order, and a link to the first answer (as the gallery
// makes) finds it.
func TestLongConversationOpensFast(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	for i := 1; i <= longTurns; i++ {
		ask(t, ctx, stepCode(i))
		waitFor(t, ctx, fmt.Sprintf("answer %d", i), fmt.Sprintf(`document.querySelectorAll('#messages .answer').length === %d &&
			!!document.querySelector('[data-testid="send"]') && (document.querySelector('#messages .turn:last-child .cell-output')?.textContent || '').includes('step %d')`, i, i))
	}
	conversation := srv.URL + path(t, ctx)
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
	ask(t, ctx, stepCode(1))
	waitFor(t, ctx, "the one answer", `(document.querySelector('#messages .cell-output')?.textContent || '').includes('step 1')`)
	short := srv.URL + path(t, ctx)

	// Side by side, so a busy machine slows both: the long conversation
	// renders the same ten turns at most as the short one renders one.
	long, one := openTimes(t, ctx, conversation, short)
	size := js[float64](t, ctx, `performance.getEntriesByType('navigation')[0].transferSize`)
	t.Logf("DOMContentLoaded medians: %d turns %.0f ms (%.0f KB), 1 turn %.0f ms; ratio %.1f", longTurns, long, size/1024, one, long/one)
	if long > 4*one+200 {
		t.Errorf("the conversation of %d turns took %.0f ms to DOMContentLoaded, one of 1 turn %.0f ms: want at most 4× + 200 ms", longTurns, long, one)
	}
	if n := js[int](t, ctx, `document.querySelectorAll('#messages .turn').length`); n != 10 {
		t.Fatalf("the page opened with %d turns, want the latest 10", n)
	}
	if b := textOf(t, ctx, `[data-testid="earlier-turns"]`); !strings.Contains(b, "14 earlier questions") {
		t.Fatalf("the earlier button says %q", b)
	}
	if os.Getenv("SCREENSHOTS") != "" {
		do(t, ctx, chromedp.ScrollIntoView(`[data-testid="earlier-turns"]`))
		saveScreenshot(t, ctx)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="earlier-turns"]`)))
	waitFor(t, ctx, "ten earlier turns above", `document.querySelectorAll('#messages .turn').length === 20 &&
		(document.querySelector('#messages .turn .cell-output')?.textContent || '').includes('step 5')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="earlier-turns"]`)))
	waitFor(t, ctx, "the first turns", `document.querySelectorAll('#messages .turn').length === 24 && !document.querySelector('[data-testid="earlier-turns"]')`)
	first := js[string](t, ctx, `document.querySelector('#messages .answer[data-run-id]').getAttribute('data-run-id')`)
	outputs := js[string](t, ctx, `[...document.querySelectorAll('#messages .cell-output')].map(e => (e.textContent.match(/step \d+/) || [''])[0]).join(',')`)
	if want := stepsList(longTurns); outputs != want {
		t.Fatalf("the turns read %s, want %s", outputs, want)
	}

	do(t, ctx, chromedp.Navigate(conversation+"#run-"+first))
	waitFor(t, ctx, "the first answer, found by its link", fmt.Sprintf(`!!document.getElementById('run-%s')`, first))
}

// stepCode is the Python of turn i: a table and a chart that name the step.
func stepCode(i int) string {
	return fmt.Sprintf("```python\nimport numpy as np, pandas as pd, matplotlib.pyplot as plt\n"+
		"d = pd.DataFrame(np.arange(180).reshape(30, 6) * %d.5, columns=list('abcdef'))\n"+
		"d.plot(title='step %d'); plt.savefig('/mnt/data/step%d.png')\nprint('step', %d)\nd\n```", i, i, i, i)
}

// openTimes opens two pages in turn three times and returns the median
// DOMContentLoaded of each, in milliseconds; the long page is open last.
func openTimes(t *testing.T, ctx context.Context, long, short string) (float64, float64) {
	t.Helper()
	var a, b []float64
	for range 3 {
		for _, p := range []struct {
			url string
			to  *[]float64
		}{{short, &b}, {long, &a}} {
			do(t, ctx, chromedp.Navigate(p.url))
			waitLoaded(t, ctx)
			*p.to = append(*p.to, js[float64](t, ctx, `performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd`))
		}
	}
	slices.Sort(a)
	slices.Sort(b)
	return a[1], b[1]
}

// stepsList is "step 1,step 2,…,step n".
func stepsList(n int) string {
	var s []string
	for i := 1; i <= n; i++ {
		s = append(s, fmt.Sprintf("step %d", i))
	}
	return strings.Join(s, ",")
}
