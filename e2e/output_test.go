package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// longOutput prints a line wider than any screen and forty more lines at
// once, then a line every 0.3 s, so that its output block scrolls both
// ways while it is still running.
const longOutput = "```python\nimport time\nprint(' '.join('column_%03d' % i for i in range(40)))\n" +
	"for i in range(40):\n    print('head', i)\nfor i in range(40):\n    print('tick', i, flush=True)\n    time.sleep(0.3)\nprint('all done')\n```"

// TestOutputBlocks is issue 26's item 9: an output block keeps wide text
// on its lines and scrolls sideways inside its box; while it runs it
// follows its end until the reader scrolls it up, and then stays where
// they put it; finished, and after a reload, it opens at its top; after
// Edit → Run the page brings the new running step into view.
func TestOutputBlocks(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 4*time.Minute)
	signInNewConversation(t, ctx, srv)
	ask(t, ctx, longOutput)
	const out = `document.querySelector('#messages .cell-running [data-testid="cell-output"]')`
	const atEnd = `(o => o.scrollTop + o.clientHeight >= o.scrollHeight - 4)(` + out + `)`
	waitLong(t, ctx, "the running output to follow its end", out+`?.textContent.includes('tick 2') && `+out+`.scrollHeight > `+out+`.clientHeight && `+atEnd)

	// The reader scrolls the output up (set as a wheel would, at once, so
	// that no update lands halfway through a smooth scroll): the lines
	// that come after do not pull it back to the end.
	js[bool](t, ctx, out+`.scrollTop = 40, true`)
	ticks := js[int](t, ctx, `(`+out+`.textContent.match(/tick \d+/g) || []).length`)
	waitLong(t, ctx, "three more lines", fmt.Sprintf(`(%s?.textContent.match(/tick \d+/g) || []).length >= %d`, out, ticks+3))
	if js[bool](t, ctx, atEnd) {
		t.Error("the running output jumped back to its end after the reader scrolled it up")
	}

	answered(t, ctx, 1)
	const done = `document.querySelector('#messages .cell [data-testid="cell-output"]')`
	opensAtTop := func(when string) {
		t.Helper()
		o := js[map[string]any](t, ctx, `(o => ({top: o.scrollTop, wide: o.scrollWidth > o.clientWidth, tall: o.scrollHeight > o.clientHeight,
			ws: getComputedStyle(o).whiteSpace, text: o.textContent}))(`+done+`)`)
		if !strings.Contains(o["text"].(string), "all done") {
			t.Fatalf("%s: the output lacks its last line", when)
		}
		if o["top"].(float64) != 0 || !o["tall"].(bool) {
			t.Errorf("%s: the output opens scrolled to %v (scrolls down: %v), want its top", when, o["top"], o["tall"])
		}
		if o["ws"] != "pre" || !o["wide"].(bool) {
			t.Errorf("%s: wide output wraps (white-space %v) or does not scroll sideways (%v)", when, o["ws"], o["wide"])
		}
	}
	opensAtTop("finished")
	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	waitFor(t, ctx, "the answer", `!!`+done)
	opensAtTop("after a reload")

	// Edit → Run on the step, scrolled out of view above a tall answer:
	// the page brings the new step into view while it runs.
	askAndWait(t, ctx, "```python\nfor i in range(150):\n    print('filler', i)\n```", "filler 149")
	// The outputs at their full height make the page far taller than the
	// window, whatever its size.
	js[bool](t, ctx, `document.querySelectorAll('#messages .cell-output').forEach(o => o.style.maxHeight = 'none'), true`)
	clickJS(t, ctx, `.cell [data-testid="edit-step"]`)
	waitFor(t, ctx, "the editor", `!!document.querySelector('[data-testid="step-input"]')`)
	js[bool](t, ctx, `document.querySelector('[data-testid="step-input"]').value = "import time\nprint('rerun')\ntime.sleep(4)", document.querySelector('.step-editor').scrollIntoView({block: 'start'}), true`)
	clickJS(t, ctx, `[data-testid="step-run"]`)
	waitLong(t, ctx, "the new step in view while it runs", `(() => {
		const last = [...document.querySelectorAll('#messages .turn')].pop();
		if (!last?.classList.contains('turn-step') || !last.querySelector('.cell-running')) return false;
		const r = last.getBoundingClientRect();
		return r.top >= 0 && r.top < innerHeight - 40;
	})()`)
	answered(t, ctx, 3)
}
