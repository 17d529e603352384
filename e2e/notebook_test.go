package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// TestLiveOutputAndStopKeepsIt runs a long cell that prints a numbered
// line every 20 ms: its first line shows while it still runs, and Stop
// keeps every line it printed, up to the last one the kernel wrote (which
// the next cell reads back from a variable, kept by the interrupt),
// labelling the cell "stopped", not "error", before and after a reload.
func TestLiveOutputAndStopKeepsIt(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time\nfor i in range(100000):\n    print('tick', i, flush=True); last = i\n    time.sleep(0.02)\n```")
	waitFor(t, ctx, "the first line while the cell runs",
		`!!document.querySelector('.cell-running') && (document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('tick 0')`)
	waitFor(t, ctx, "more lines", `(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('tick 3')`)
	// Stop once the cell has printed past tick 20 (what the check below
	// wants kept), and once htmx has bound the button (a click before does
	// nothing): conditions, not a second's sleep.
	waitFor(t, ctx, "twenty lines printed",
		`Math.max(-1, ...[...(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').matchAll(/tick (\d+)/g)].map(m => +m[1])) >= 20`)
	waitFor(t, ctx, "the stop button, ready",
		`document.querySelector('[data-testid="stop"]')?.['htmx-internal-data']?.initHash != null`)

	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
	var lastShown string
	check := func(when string) {
		t.Helper()
		waitFor(t, ctx, "the stopped pill "+when, `(document.querySelector('.cell .pill')?.textContent || '') === 'stopped'`)
		got := textOf(t, ctx, `.cell [data-testid="cell-output"]`)
		if !contains(got, "tick 0", "tick 3", "tick 20") {
			t.Fatalf("%s the stopped cell shows %q", when, got)
		}
		lines := strings.Split(strings.TrimSpace(got), "\n")
		lastShown = lines[len(lines)-1]
	}
	check("live")
	saveScreenshot(t, ctx)
	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	check("after reload")

	askAndWait(t, ctx, "```python\nprint('kernel', 'tick', last)\n```", "kernel tick")
	printed := js[string](t, ctx, `[...document.querySelectorAll('.answer')].pop().querySelector('[data-testid="cell-output"]')?.textContent || ''`)
	if want := strings.TrimPrefix(strings.TrimSpace(printed), "kernel "); lastShown != want {
		t.Fatalf("the stopped cell ends with %q; the kernel printed up to %q", lastShown, want)
	}
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

// TestEachAnswerShowsOnlyItsOwnCharts uploads a CSV with a comment line:
// its card reads the shape the analyst reads; the loader is one line; a
// second chart answer shows its one chart, not the first one again.
func TestEachAnswerShowsOnlyItsOwnCharts(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	var b strings.Builder
	b.WriteString("# Data source: a test, daily closes\nDate,Open,Close,Volume\n")
	for i := 1; i <= 28; i++ {
		fmt.Fprintf(&b, "2024-02-%02d,%d.5,%d.25,%d\n", i, 100+i, 101+i, 1000*i)
	}
	csv := t.TempDir() + "/stocks.csv"
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's card", `!!document.querySelector('.file-card[data-file-name="stocks.csv"]')`)
	if got := textOf(t, ctx, `.file-card[data-file-name="stocks.csv"]`); !strings.Contains(got, "28 rows × 4 columns") || strings.Contains(got, "Data source") {
		t.Fatalf("the card reads %q", got)
	}

	ask(t, ctx, "plot Close over time as a line chart")
	waitFor(t, ctx, "the first answer", `document.querySelectorAll('.answer .answer-status[data-status="completed"]').length === 1`)
	if got := textOf(t, ctx, `.answer [data-testid="loader-cell"] summary`); !strings.Contains(got, "Loaded stocks.csv: 28 × 4") {
		t.Fatalf("loader line %q", got)
	}
	if js[bool](t, ctx, `document.querySelector('.answer [data-testid="loader-cell"]').open`) {
		t.Fatal("the loader is open")
	}
	ask(t, ctx, "plot Open over time as a line chart")
	waitFor(t, ctx, "the second answer", `document.querySelectorAll('.answer .answer-status[data-status="completed"]').length === 2`)
	counts := js[[]int](t, ctx, `Array.from(document.querySelectorAll('.answer')).map(a => a.querySelectorAll('.chart-card').length)`)
	if len(counts) != 2 || counts[0] != 1 || counts[1] != 1 {
		t.Fatalf("charts per answer %v, want [1 1]", counts)
	}
	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	counts = js[[]int](t, ctx, `Array.from(document.querySelectorAll('.answer')).map(a => a.querySelectorAll('.chart-card').length)`)
	if len(counts) != 2 || counts[0] != 1 || counts[1] != 1 {
		t.Fatalf("after reload, charts per answer %v, want [1 1]", counts)
	}
	saveScreenshot(t, ctx)
}

// TestInteractiveChart asks for a line chart: the built-in analyst writes
// its Vega-Lite spec beside the PNG, the page draws it with the vendored
// vega-embed (no eval, CSP intact), and hovering a point shows a tooltip.
func TestInteractiveChart(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	csv := t.TempDir() + "/prices.csv"
	os.WriteFile(csv, []byte("Date,Close\n2024-01-01,10\n2024-01-02,12\n2024-01-03,11\n2024-01-04,15\n"), 0o644)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's card", `!!document.querySelector('.file-card[data-file-name="prices.csv"]')`)

	ask(t, ctx, "plot Close over time as a line chart")
	waitFor(t, ctx, "the interactive chart", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready' && !!document.querySelector('figure[data-vega-lite] svg .mark-symbol path')`)
	if js[bool](t, ctx, `!!document.querySelector('.artifact-chip')`) {
		t.Fatal("the spec shows as a file chip too")
	}
	point := js[[]float64](t, ctx, `(() => { const p = document.querySelector('figure[data-vega-lite] svg .mark-symbol path'); p.scrollIntoView({block: "center"}); const r = p.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`)
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, point[0], point[1]))
	waitFor(t, ctx, "the tooltip", `(document.querySelector('#vg-tooltip-element.visible')?.textContent || '').includes('2024')`)
	saveScreenshot(t, ctx)
}

// TestInteractiveBarChart asks for a bar chart: its Vega-Lite twin is drawn
// as bars with the PNG's categories, hovering a bar shows its category and
// value, and in the dark theme the chart is drawn with light text and no
// inverted picture (the PNG reads as drawn, on the white ground it brings).
func TestInteractiveBarChart(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	csv := t.TempDir() + "/sales.csv"
	os.WriteFile(csv, []byte("region,revenue\nNorth,120\nSouth,80\nNorth,30\nEast,55\nWest,20\nSouth,10\n"), 0o644)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's card", `!!document.querySelector('.file-card[data-file-name="sales.csv"]')`)

	ask(t, ctx, "bar chart of revenue by region")
	const bars = `figure[data-vega-lite] svg .mark-rect path`
	waitFor(t, ctx, "the interactive bars", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready' && document.querySelectorAll('`+bars+`').length === 4`)
	for _, msg := range runAxe(t, ctx) {
		if strings.Contains(msg, "vega") || strings.Contains(msg, "summary") {
			t.Errorf("the interactive chart: axe: %s", msg)
		}
	}
	labels := js[[]string](t, ctx, `Array.from(document.querySelectorAll('figure[data-vega-lite] svg .role-axis-label text')).map(e => e.textContent)`)
	if !strings.Contains(strings.Join(labels, ","), "North,South,East,West") {
		t.Errorf("axis labels %v, want the bars' regions in the PNG's order", labels)
	}
	point := js[[]float64](t, ctx, `(() => { const p = document.querySelector('`+bars+`'); p.scrollIntoView({block: "center"}); const r = p.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`)
	do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, point[0], point[1]))
	waitFor(t, ctx, "the tooltip", `(() => { const t = document.querySelector('#vg-tooltip-element.visible')?.textContent || ''; return t.includes('North') && t.includes('150') })()`)
	if lum := labelLuminance(t, ctx); lum > 0.5 {
		t.Errorf("light theme: axis labels of luminance %.2f on a white card", lum)
	}
	linkContrast(t, ctx, "light")
	t.Run("light", func(t *testing.T) { saveScreenshot(t, ctx) })

	// The theme changed with the page open: the chart is drawn again in it.
	do(t, ctx, colorScheme("dark"))
	waitFor(t, ctx, "the chart redrawn with light labels", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready' && `+labelLuminanceJS+` > 0.5`)
	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	waitFor(t, ctx, "the interactive bars, dark", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready' && document.querySelectorAll('`+bars+`').length === 4`)
	if lum := labelLuminance(t, ctx); lum < 0.5 {
		t.Errorf("dark theme: axis labels of luminance %.2f on a dark card", lum)
	}
	if bg := js[string](t, ctx, `getComputedStyle(document.querySelector('figure[data-vega-lite] svg')).backgroundColor`); bg != "rgba(0, 0, 0, 0)" && bg != "transparent" {
		t.Errorf("dark theme: the chart has its own ground %s, a block on the card", bg)
	}
	linkContrast(t, ctx, "dark")
	js[bool](t, ctx, `(document.querySelector('.answer .chart-card figcaption').scrollIntoView({block: "center"}), true)`)
	t.Run("dark", func(t *testing.T) { saveScreenshot(t, ctx) })

	// The gallery shows the PNG itself: as drawn, never inverted.
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="gallery-link"]`)))
	waitFor(t, ctx, "the gallery's chart", `(() => { const i = document.querySelector('.gallery-thumb img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	if f := js[string](t, ctx, `getComputedStyle(document.querySelector('.gallery-thumb img')).filter`); f != "none" {
		t.Errorf("dark theme: the chart's PNG is filtered: %s", f)
	}
	t.Run("gallery-dark", func(t *testing.T) { saveScreenshot(t, ctx) })
}

// labelLuminance is the relative luminance (0 black, 1 white) of the
// interactive chart's first axis label.
func labelLuminance(t *testing.T, ctx context.Context) float64 {
	t.Helper()
	return js[float64](t, ctx, labelLuminanceJS)
}

const labelLuminanceJS = `(() => {
	const label = document.querySelector('figure[data-vega-lite] svg .role-axis-label text');
	const fill = label ? getComputedStyle(label).fill : '';
	const [r, g, b] = (fill.match(/[\d.]+/g) || [0, 0, 0]).map(Number).map(c => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4 });
	return 0.2126 * r + 0.7152 * g + 0.0722 * b;
})()`

// linkContrast checks the chart card's links against the card's ground:
// at least 4.5:1 (WCAG AA for text).
func linkContrast(t *testing.T, ctx context.Context, theme string) {
	t.Helper()
	got := js[[]float64](t, ctx, `(() => {
		const lum = c => { const [r, g, b] = c.match(/[\d.]+/g).map(Number).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4 }); return 0.2126 * r + 0.7152 * g + 0.0722 * b };
		const card = lum(getComputedStyle(document.querySelector('.answer .chart-card')).backgroundColor);
		return [...document.querySelectorAll('.answer .chart-card figcaption a')].map(a => { const l = lum(getComputedStyle(a).color); return (Math.max(l, card) + 0.05) / (Math.min(l, card) + 0.05) });
	})()`)
	if len(got) == 0 {
		t.Fatalf("%s theme: no links on the chart card", theme)
	}
	for _, c := range got {
		if c < 4.5 {
			t.Errorf("%s theme: a chart card link has contrast %.2f:1 with the card", theme, c)
		}
	}
}

// TestLiveFigureShowsWhileTheCellRuns saves a figure and then sleeps: the
// image shows in the running cell before it ends, and once it ends the
// kept chart replaces it (one image, not two).
func TestLiveFigureShowsWhileTheCellRuns(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time, numpy as np, matplotlib.pyplot as plt\nx = np.linspace(0, 6, 60)\n"+
		"plt.figure(figsize=(7, 3.2))\nplt.plot(x, np.sin(x), label='sin')\nplt.plot(x, np.cos(x), label='cos')\n"+
		"plt.legend(); plt.title('Waves'); plt.savefig('/mnt/data/waves.png')\n"+
		"print('saved waves.png; fitting the model…', flush=True)\ntime.sleep(3)\nprint('done')\n```")
	waitFor(t, ctx, "the live image in the running cell",
		`(() => { const i = document.querySelector('.cell-running img[src*="/images/"]'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	waitFor(t, ctx, "the line printed after the figure, in the running cell",
		`(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('fitting the model')`)
	if !js[bool](t, ctx, `!!document.querySelector('.cell-running') && !(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('done')`) {
		t.Fatal("the image came only as the cell ended")
	}
	// What docs/notebook-live.png shows: the running step, its line and its chart.
	js[bool](t, ctx, `(document.querySelector('.cell-running').scrollIntoView({block: 'start'}), true)`)
	if png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
		os.MkdirAll("screenshots", 0o755)
		os.WriteFile("screenshots/notebook-live.png", png, 0o644)
	}
	waitFor(t, ctx, "the answer", `!!document.querySelector('.answer .answer-status[data-status="completed"]')`)
	waitFor(t, ctx, "the kept chart", `!!document.querySelector('.answer .chart-card img[src^="/artifacts/"]')`)
	if n := js[int](t, ctx, `document.querySelectorAll('.answer .cell img').length`); n != 1 {
		t.Fatalf("%d images in the cell once it ended, want the kept chart only", n)
	}
}

// TestLargeTableDownloadsFullCSV returns a 50,000-row frame: the page
// shows its first rows, paged, and "Download CSV" fetches the whole result
// kept as an artifact (header and 50,000 rows), which is not listed again
// as a file of the answer.
func TestLargeTableDownloadsFullCSV(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport pandas as pd, numpy as np\npd.DataFrame({'n': np.arange(50_000), 'half': np.arange(50_000) / 2})\n```")
	waitFor(t, ctx, "the table's full download", `!!document.querySelector('.answer .answer-status[data-status="completed"]') && !!document.querySelector('[data-testid="download-full-csv"]')`)
	if got := textOf(t, ctx, `[data-testid="data-table"] .df-shape`); !contains(got, "50,000 rows × 2 columns", "showing the first 1,000") {
		t.Fatalf("shape %q", got)
	}
	if !js[bool](t, ctx, `!!document.querySelector('[data-testid="data-table"] .df-pager')`) {
		t.Fatal("the table is not paged")
	}
	if got := textOf(t, ctx, `[data-testid="download-full-csv"]`); got != "Download CSV (50,000 rows)" {
		t.Fatalf("download label %q", got)
	}
	if js[bool](t, ctx, `!!document.querySelector('.answer .artifact-chip')`) {
		t.Fatal("the CSV is listed as a file of the answer too")
	}
	csv, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const href = document.querySelector('[data-testid="download-full-csv"]').getAttribute('href');
		return await (await fetch(href)).text();
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(csv, "\n"), "\n")
	if len(lines) != 50_001 || lines[0] != ",n,half" || lines[50_000] != "49999,49999,24999.5" {
		t.Fatalf("the download has %d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}
	saveScreenshot(t, ctx)
}
