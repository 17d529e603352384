package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The tests of this file follow an analyst's afternoon (issue 26): tables,
// files, charts, phones and the composer, each at desktop and phone width,
// light and dark.

// screens are the four ways the afternoon's tests look at a page.
var screens = []struct {
	v      viewport
	scheme string
}{
	{viewport{"desktop", 1280, 900, false}, "light"},
	{viewport{"desktop", 1280, 900, false}, "dark"},
	{phone, "light"},
	{phone, "dark"},
}

// waitLong is waitFor with a deadline for what waits on an answer: the
// machine running the tests may be busy.
func waitLong(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	waitUntil(t, ctx, 90*time.Second, what, cond)
}

// answered waits until the n-th answer of the page (from 1) has finished.
func answered(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	waitLong(t, ctx, fmt.Sprintf("answer %d to finish", n), fmt.Sprintf(
		`document.querySelectorAll('#messages .answer .answer-status[data-status]:not([data-status="running"])').length >= %d && !!document.querySelector('[data-testid="send"]')`, n))
}

// upload puts files into the conversation through the file input and waits
// for each one's card.
func upload(t *testing.T, ctx context.Context, files ...string) {
	t.Helper()
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), files))
	for _, f := range files {
		waitLong(t, ctx, "the card of "+f, fmt.Sprintf("!!document.querySelector(%q)", `.file-card[data-file-name="`+filepath.Base(f)+`"]`))
	}
}

// writeFile writes a test file into dir and returns its path.
func writeFile(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// stocksCSV is two symbols' weekly prices: 2 × 262 rows, AAPL from about
// 60 to 140, MSFT from about 80 to 160.
func stocksCSV() string {
	var b strings.Builder
	b.WriteString("Date,Symbol,Open,Close,Volume\n")
	day := time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 262 {
		d := day.AddDate(0, 0, 7*i).Format("2006-01-02")
		for j, s := range []string{"AAPL", "MSFT"} {
			base := 60 + 20*float64(j) + 0.3*float64(i)
			fmt.Fprintf(&b, "%s,%s,%.2f,%.2f,%d\n", d, s, base+float64(i%5), base+float64(i%7), 1000+37*i+j)
		}
	}
	return b.String()
}

// shot saves a screenshot of the tab to $SHOTS_DIR, when set, for a person
// to look at.
func shot(t *testing.T, ctx context.Context, name string) {
	dir := os.Getenv("SHOTS_DIR")
	if dir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err == nil {
		os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644)
	}
}

// pricesCSV is two symbols' daily closes over 1,600 days, rising from 50
// to about 210, and how many rows close above 100 and the highest close.
func pricesCSV() (body string, above100 int, highest float64) {
	var b strings.Builder
	b.WriteString("Date,Symbol,Open,Close,Volume\n")
	day := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 1600 {
		d := day.AddDate(0, 0, i).Format("2006-01-02")
		for j, s := range []string{"AAPL", "MSFT"} {
			c := 50 + 0.1*float64(i) + float64(j) + float64(i%3)/4
			fmt.Fprintf(&b, "%s,%s,%.2f,%.2f,%d\n", d, s, c-1, c, 1000+i+j)
			if c > 100 {
				above100++
			}
			highest = max(highest, c)
		}
	}
	return b.String(), above100, highest
}

// noSidewaysScroll fails the test when the page scrolls sideways at v.
func noSidewaysScroll(t *testing.T, ctx context.Context, v viewport, what string) {
	t.Helper()
	if msg := js[string](t, ctx, fmt.Sprintf("%s(%d)", overflowing, v.width)); msg != "" {
		t.Errorf("%s at %d px scrolls sideways: %s", what, v.width, msg)
	}
}

// TestTableHoldsTheWholeResult asks for the rows of a filter that match
// more rows than a table holds: the table says how many rows it shows of
// how many, its first sort covers every row (the one it ends with first is
// past the rows it showed), and its download holds the whole result under
// a name from the question.
func TestTableHoldsTheWholeResult(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 6*time.Minute)
	signInNewConversation(t, ctx, srv)
	body, n, highest := pricesCSV()
	upload(t, ctx, writeFile(t, t.TempDir(), "prices.csv", body))
	ask(t, ctx, "show all rows where Close is above 100")
	answered(t, ctx, 1)
	waitLong(t, ctx, "the whole result's download", `!!document.querySelector('.answer [data-testid="download-full-csv"]')`)
	const table = `.answer [data-testid="data-table"]`
	rows := fmt.Sprintf("%d,%03d rows", n/1000, n%1000)
	if got := textOf(t, ctx, table+" .df-shape"); !contains(got, rows+" × 5 columns", "showing the first 1,000") {
		t.Errorf("the table says %q, want %s × 5 columns, showing the first 1,000", got, rows)
	}
	if got := textOf(t, ctx, `[data-testid="download-full-csv"]`); got != "Download CSV ("+rows+")" {
		t.Errorf("download label %q", got)
	}
	if got := js[string](t, ctx, `document.querySelector('[data-testid="download-full-csv"]').getAttribute('download')`); got != "show_all_rows_where_close_is_above_100.csv" {
		t.Errorf("the download is named %q", got)
	}
	csv := await(t, ctx, `fetch(document.querySelector('[data-testid="download-full-csv"]').getAttribute('href')).then(r => r.text())`)
	if lines := strings.Count(csv, "\n"); lines != n+1 {
		t.Errorf("the download has %d lines, want %d", lines, n+1)
	}

	for _, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme), chromedp.Reload())
		waitLoaded(t, ctx)
		waitFor(t, ctx, "the table", `!!document.querySelector('`+table+`[data-ready] tbody tr')`)
		// Descending by Close: the highest close is in the last rows of the
		// file, well past the first 1,000 the table showed.
		close := `[...document.querySelectorAll('` + table + ` thead th')].find(th => th.textContent === 'Close')`
		js[bool](t, ctx, close+`.click(); true`)
		waitFor(t, ctx, "the ascending sort", close+`.getAttribute('aria-sort') === 'ascending'`)
		js[bool](t, ctx, close+`.click(); true`)
		waitLong(t, ctx, "the descending sort of every row", close+`.getAttribute('aria-sort') === 'descending' && !document.querySelector('`+table+` .df-sortnote:not([hidden])')`)
		col := js[int](t, ctx, `[...document.querySelectorAll('`+table+` thead th')].indexOf(`+close+`)`)
		top := js[string](t, ctx, fmt.Sprintf(`document.querySelector('%s tbody tr').cells[%d].dataset.v`, table, col))
		if top != fmt.Sprintf("%.2f", highest) && top != fmt.Sprintf("%g", highest) {
			t.Errorf("%s %s: sorted descending, the first close is %s, want %.2f", sc.v.name, sc.scheme, top, highest)
		}
		if got := textOf(t, ctx, table+" .df-page"); got != "Rows 1–50 of "+rows[:len(rows)-5] {
			t.Errorf("%s %s: the pager says %q", sc.v.name, sc.scheme, got)
		}
		if got := textOf(t, ctx, table+" .df-shape"); got != rows+" × 5 columns" {
			t.Errorf("%s %s: once whole, the table says %q", sc.v.name, sc.scheme, got)
		}
		noSidewaysScroll(t, ctx, sc.v, "the chat")
		js[bool](t, ctx, `document.querySelector('`+table+`').scrollIntoView({block: 'center'}); true`)
		shot(t, ctx, "table-"+sc.v.name+"-"+sc.scheme)
	}
}

// twoSeriesChart draws two series over the years 1970–2020 on an axis
// pandas would title after the first series, and writes its interactive
// twin as the built-in analyst's charts do.
const twoSeriesChart = "```python\nimport matplotlib.pyplot as plt\nyears = list(range(1970, 2021))\n" +
	"fig, ax = plt.subplots()\nax.plot(years, [50 + i for i in range(51)], label='AAPL')\n" +
	"ax.plot(years, [200 + 2 * i for i in range(51)], label='MSFT')\nax.set_ylabel('AAPL')\nax.set_xlabel('Year')\n" +
	"ax.legend()\nax.set_title('Closes by year')\nfig.savefig('/mnt/data/closes_by_year.png')\n" +
	"wb_vega_lite(fig, '/mnt/data/closes_by_year.png')\n```"

// TestChartTellsTheTruthOnHover draws a two-series chart over years: a
// hover on an MSFT point names MSFT and no other series, the y axis is not
// titled after one series, years have no thousands separator, the wheel
// scrolls the page until the chart is clicked and zooms it after, and the
// chart's own download is named after its file.
func TestChartTellsTheTruthOnHover(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 6*time.Minute)
	signInNewConversation(t, ctx, srv)
	ask(t, ctx, twoSeriesChart)
	answered(t, ctx, 1)
	const fig = `document.querySelector('figure[data-vega-lite]')`
	for _, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme), chromedp.Reload())
		waitLoaded(t, ctx)
		waitLong(t, ctx, "the interactive chart", fig+`?.dataset.vegaState === 'ready' && !!`+fig+`.querySelector('svg .mark-symbol path')`)
		name := sc.v.name + " " + sc.scheme
		point := js[[]float64](t, ctx, `(() => {
			const p = [...`+fig+`.querySelectorAll('svg .mark-symbol path')].filter(p => p.__data__?.datum?.series === 'MSFT')[25];
			p.scrollIntoView({block: 'center'});
			const r = p.getBoundingClientRect();
			return [r.x + r.width / 2, r.y + r.height / 2];
		})()`)
		do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, point[0], point[1]))
		waitFor(t, ctx, "the tooltip", `document.querySelector('#vg-tooltip-element.visible')?.textContent.includes('MSFT')`)
		if tip := textOf(t, ctx, "#vg-tooltip-element.visible"); strings.Contains(tip, "AAPL") || !strings.Contains(tip, "1995") {
			t.Errorf("%s: the tooltip of MSFT in 1995 reads %q", name, tip)
		}
		titles := js[[]string](t, ctx, `[...`+fig+`.querySelectorAll('svg .role-axis-title text')].map(t => t.textContent)`)
		if slices.Contains(titles, "AAPL") {
			t.Errorf("%s: an axis of both series is titled AAPL: %q", name, titles)
		}
		if labels := js[[]string](t, ctx, `[...`+fig+`.querySelectorAll('svg .role-axis-label text')].map(t => t.textContent).filter(t => t.includes(','))`); len(labels) > 0 {
			t.Errorf("%s: axis labels with a thousands separator: %q", name, labels)
		}
		if got := js[[]string](t, ctx, `[...`+fig+`.querySelectorAll('.vega-actions a[download]')].map(a => a.getAttribute('download'))`); !slices.Contains(got, "closes_by_year.png") {
			t.Errorf("%s: the chart's own downloads are named %q, want closes_by_year.png", name, got)
		}
		wheelScrollsUntilClicked(t, ctx, fig, name)
		noSidewaysScroll(t, ctx, sc.v, "the chat")
		shot(t, ctx, "chart-"+sc.v.name+"-"+sc.scheme)
	}
}

// wheelScrollsUntilClicked turns the wheel over the chart: the page
// scrolls and the chart keeps its scale; once the chart was clicked the
// wheel zooms it, the page stays, and y fits the years left in view.
func wheelScrollsUntilClicked(t *testing.T, ctx context.Context, fig, name string) {
	t.Helper()
	const scroller = `(() => { let e = document.querySelector('figure[data-vega-lite]'); while (e && !(e.scrollHeight > e.clientHeight && /auto|scroll/.test(getComputedStyle(e).overflowY))) e = e.parentElement; return e || document.scrollingElement; })()`
	const domain = `JSON.stringify(document.querySelector('figure[data-vega-lite]')._vega.view.scale('x').domain())`
	center := js[[]float64](t, ctx, `(() => { const r = `+fig+`.querySelector('svg').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	before, top := js[string](t, ctx, domain), js[float64](t, ctx, scroller+`.scrollTop`)
	wheel := func() {
		do(t, ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, center[0], center[1], func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 0.01, -120 }))
	}
	wheel()
	waitFor(t, ctx, "the page to scroll", scroller+`.scrollTop !== `+fmt.Sprint(top))
	if got := js[string](t, ctx, domain); got != before {
		t.Errorf("%s: the wheel zoomed a chart no one clicked: %s, was %s", name, got, before)
	}
	js[bool](t, ctx, fig+`.scrollIntoView({block: 'center'}); true`)
	center = js[[]float64](t, ctx, `(() => { const r = `+fig+`.querySelector('svg').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	do(t, ctx, chromedp.MouseClickXY(center[0], center[1]))
	waitFor(t, ctx, "the chart to take the wheel", fig+`.classList.contains('chart-active')`)
	top = js[float64](t, ctx, scroller+`.scrollTop`)
	wheel()
	waitFor(t, ctx, "the chart to zoom", domain+` !== `+quote(before))
	if got := js[float64](t, ctx, scroller+`.scrollTop`); got != top {
		t.Errorf("%s: the wheel zoomed the clicked chart and scrolled the page too (%v, was %v)", name, got, top)
	}
	// More turns leave only the middle decades in view, where both series
	// keep off the lowest and the highest values of the whole chart: y's
	// range shrinks at both ends. (One turn hides in y's rounding to nice
	// ticks.)
	const yDomain = `document.querySelector('figure[data-vega-lite]')._vega.view.scale('y').domain()`
	whole := js[[]float64](t, ctx, yDomain)
	for range 8 {
		wheel()
	}
	waitFor(t, ctx, "y to fit the zoomed years", fmt.Sprintf(`%s[0] > %v && %s[1] < %v`, yDomain, whole[0], yDomain, whole[1]))
	do(t, ctx, chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "Esc to give the wheel back", `!`+fig+`.classList.contains('chart-active')`)
}

// TestUntickedFileStaysOut asks about two files, unticks one and asks
// again: the second question's loading step and code name only the ticked
// file, and an upload after that leaves the unticked chip unticked.
func TestUntickedFileStaysOut(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 6*time.Minute)
	signInNewConversation(t, ctx, srv)
	dir := t.TempDir()
	upload(t, ctx, writeFile(t, dir, "stocks.csv", stocksCSV()), writeFile(t, dir, "msft.csv", "Date,Close\n2024-01-01,10\n2024-01-02,12\n"))
	ask(t, ctx, "how many rows are there")
	answered(t, ctx, 1)
	if got := textOf(t, ctx, "#messages .answer"); !strings.Contains(got, "msft.csv") {
		t.Fatalf("with both files ticked the first answer does not read msft.csv: %q", got)
	}
	js[bool](t, ctx, `[...document.querySelectorAll('#file-chips label')].find(l => l.textContent.includes('msft.csv')).querySelector('input').click(); true`)
	for i, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme))
		if i > 0 {
			// A reload ticks every chip again, as a new page does.
			do(t, ctx, chromedp.Reload())
			waitLoaded(t, ctx)
			js[bool](t, ctx, `[...document.querySelectorAll('#file-chips label')].find(l => l.textContent.includes('msft.csv')).querySelector('input').click(); true`)
		}
		ask(t, ctx, "how many rows are there")
		answered(t, ctx, i+2)
		last := `[...document.querySelectorAll('#messages .answer')].pop()`
		if got := js[string](t, ctx, last+`.textContent`); strings.Contains(got, "msft.csv") || !strings.Contains(got, "stocks.csv") {
			t.Errorf("%s %s: msft.csv was left out, and the answer reads %q", sc.v.name, sc.scheme, got)
		}
		noSidewaysScroll(t, ctx, sc.v, "the chat")
		shot(t, ctx, "unticked-"+sc.v.name+"-"+sc.scheme)
	}
	upload(t, ctx, writeFile(t, dir, "later.csv", "a,b\n1,2\n"))
	if js[bool](t, ctx, `[...document.querySelectorAll('#file-chips label')].find(l => l.textContent.includes('msft.csv')).querySelector('input').checked`) {
		t.Error("an upload ticked the chip of msft.csv again")
	}
}

// TestEveryUploadedFileShows uploads two files at once, 52 times at
// desktop and phone widths, light and dark: each time both cards and both
// chips show without a reload.
func TestEveryUploadedFileShows(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 12*time.Minute)
	signInNewConversation(t, ctx, srv)
	dir := t.TempDir()
	n := 0
	for _, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme))
		for range 13 {
			n++
			a := writeFile(t, dir, fmt.Sprintf("left_%02d.csv", n), fmt.Sprintf("day,price\n1,%d\n2,3\n", n))
			b := writeFile(t, dir, fmt.Sprintf("right_%02d.csv", n), fmt.Sprintf("day,volume\n1,%d\n2,5\n", n))
			do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{a, b}))
			waitLong(t, ctx, fmt.Sprintf("both files of upload %d", n), fmt.Sprintf(`(() => {
				const cards = document.querySelectorAll('.file-card').length, chips = document.querySelectorAll('#file-chips input[name="file_id"]').length;
				return cards === %d && chips === %d && !document.querySelector('.upload-row') &&
					!!document.querySelector('.file-card[data-file-name="left_%02d.csv"]') && !!document.querySelector('.file-card[data-file-name="right_%02d.csv"]');
			})()`, 2*n, 2*n, n, n))
		}
		if got := textOf(t, ctx, "#files-count"); got != fmt.Sprintf("Files (%d)", 2*n) {
			t.Errorf("%s %s: the count says %q after %d files", sc.v.name, sc.scheme, got, 2*n)
		}
		noSidewaysScroll(t, ctx, sc.v, "the chat")
		shot(t, ctx, "uploads-"+sc.v.name+"-"+sc.scheme)
	}
	if toast := textOf(t, ctx, "#toasts"); toast != "" {
		t.Errorf("an upload was refused: %q", toast)
	}
}

// TestPhoneTablesKeepNumbersWhole asks for rows whose answer quotes a
// table of dates and numbers: at every width each cell is one line (a wide
// table scrolls in its own box, the page does not), and so in the HTML
// report, whose tables fit the paper when printed.
func TestPhoneTablesKeepNumbersWhole(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 6*time.Minute)
	signInNewConversation(t, ctx, srv)
	upload(t, ctx, writeFile(t, t.TempDir(), "stocks.csv", stocksCSV()))
	ask(t, ctx, "show all rows where Close is above 100")
	answered(t, ctx, 1)
	conv := path(t, ctx)
	report := filepath.Join(t.TempDir(), "report.html")
	html := await(t, ctx, `fetch('`+conv+`/export.html').then(r => r.text())`)
	if err := os.WriteFile(report, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	// wrapped lists the cells of the tables under sel drawn on more than
	// one line.
	wrapped := func(sel string) string {
		return `[...document.querySelectorAll('` + sel + `')].filter(c => { const r = document.createRange(); r.selectNodeContents(c);
			return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1; }).slice(0, 5).map(c => c.textContent)`
	}
	for _, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme))
		for _, page := range []struct{ path, cells string }{
			// The answer's tables: the step's table of the rows (the reply points to
			// it rather than repeating it as Markdown) and any table in the reply.
			{srv.URL + conv, ".answer .df-table td, .answer .prose td"},
			{"file://" + report, ".answer td, .table-wrap td"},
		} {
			do(t, ctx, chromedp.Navigate(page.path))
			waitLoaded(t, ctx)
			if js[int](t, ctx, `document.querySelectorAll('`+page.cells+`').length`) == 0 {
				t.Fatalf("%s has no table cells %s", page.path, page.cells)
			}
			if cells := js[[]string](t, ctx, wrapped(page.cells)); len(cells) > 0 {
				t.Errorf("%s %s %s: cells broken over lines: %q", sc.v.name, sc.scheme, page.path, cells)
			}
			noSidewaysScroll(t, ctx, sc.v, page.path)
			shot(t, ctx, "phone-tables-"+sc.v.name+"-"+sc.scheme+"-"+filepath.Base(page.path))
		}
	}
	do(t, ctx, emulate(phone, "light"), emulatePrint())
	if got := js[string](t, ctx, `[...document.querySelectorAll('table')].filter(t => t.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(t => Math.round(t.getBoundingClientRect().right)).join(' ')`); got != "" {
		t.Errorf("printed, the report's tables are wider than the page: %s", got)
	}
}

// emulatePrint makes the tab lay the page out for paper.
func emulatePrint() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	})
}

// TestEnterQueuesBehindARunningTurn presses Enter while a turn runs and
// right after Stop: the question is not lost as a new line, the hint says
// it is queued, and it is sent once the turn has ended.
func TestEnterQueuesBehindARunningTurn(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 8*time.Minute)
	signInNewConversation(t, ctx, srv)
	const slow = "```python\nimport time\nfor i in range(600):\n    print('tick', i, flush=True)\n    time.sleep(0.1)\n```"
	for i, sc := range screens {
		do(t, ctx, emulate(sc.v, sc.scheme))
		name := sc.v.name + " " + sc.scheme
		ask(t, ctx, slow)
		waitLong(t, ctx, "the running cell", `!!document.querySelector('[data-testid="stop"]') && [...document.querySelectorAll('#messages .answer')].pop().textContent.includes('tick')`)
		question := fmt.Sprintf("```python\nprint('queued %d')\n```", i)
		do(t, ctx, chromedp.SetValue(chromedp.CSS("#composer-input"), question))
		if i%2 == 1 {
			// Stop first, then Enter at once, while the turn is stopping.
			do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
		}
		// The key is dispatched in the page (see TestKeyboard): a newline
		// is typed unless the page cancels the key.
		// What the key did, read at once: the turn may end any moment.
		// Once Stop has done its work Send is back, and Enter sends; until
		// then it queues.
		got := js[[]string](t, ctx, `(() => { const sendable = !!document.querySelector('[data-testid="send"]');
			const e = new KeyboardEvent('keydown', {key: 'Enter', bubbles: true, cancelable: true});
			document.getElementById('composer-input').dispatchEvent(e);
			return [String(e.defaultPrevented), String(sendable), document.querySelector('.composer-hint').textContent]; })()`)
		if got[0] != "true" {
			t.Errorf("%s: Enter while the turn runs adds a new line", name)
		}
		if got[1] == "false" && !strings.Contains(got[2], "Queued") {
			t.Errorf("%s: after Enter behind a running turn the hint says %q", name, got[2])
		}
		shot(t, ctx, "queued-"+sc.v.name+"-"+sc.scheme)
		if i%2 == 0 {
			do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
		}
		waitLong(t, ctx, "the queued question to be answered", fmt.Sprintf(`[...document.querySelectorAll('#messages .answer')].pop().textContent.includes('queued %d') && !!document.querySelector('[data-testid="send"]')`, i))
		if got := textOf(t, ctx, ".composer-hint"); got != "Enter sends · Shift+Enter adds a line" {
			t.Errorf("%s: once sent, the hint says %q", name, got)
		}
		noSidewaysScroll(t, ctx, sc.v, "the chat")
	}
}

// TestSecondTabFollowsTheConversation opens a conversation in two tabs: a
// question asked in one shows, live, in the other.
func TestSecondTabFollowsTheConversation(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 6*time.Minute)
	signInNewConversation(t, ctx, srv)
	conv := path(t, ctx)
	other, cancel := chromedp.NewContext(ctx)
	defer cancel()
	for i, sc := range screens {
		do(t, other, emulate(sc.v, sc.scheme), chromedp.Navigate(srv.URL+conv))
		waitLoaded(t, other)
		ask(t, ctx, fmt.Sprintf("```python\nimport time\nfor i in range(30):\n    print('from the first tab %d', i, flush=True)\n    time.sleep(0.1)\n```", i))
		waitLong(t, other, "the question from the first tab", fmt.Sprintf(`document.querySelectorAll('#messages .turn').length === %d && [...document.querySelectorAll('#messages .answer')].pop().textContent.includes('from the first tab %d')`, i+1, i))
		waitLong(t, other, "the answer to finish in the second tab", `!!document.querySelector('[data-testid="send"]') && [...document.querySelectorAll('#messages .answer')].pop().textContent.includes('29')`)
		noSidewaysScroll(t, other, sc.v, "the second tab")
		shot(t, other, "second-tab-"+sc.v.name+"-"+sc.scheme)
		answered(t, ctx, i+1)
	}
}

// TestMenuAndSearchKeys: Esc closes the Share menu, and a real "/" key
// press focuses the search with nothing typed into it.
func TestMenuAndSearchKeys(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="share-button"]`)))
	waitFor(t, ctx, "the Share menu", `document.getElementById('share-menu').open`)
	do(t, ctx, chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "Esc to close the Share menu", `!document.getElementById('share-menu').open`)

	js[bool](t, ctx, `document.activeElement.blur(); true`)
	do(t, ctx, chromedp.KeyEvent("/"))
	waitFor(t, ctx, "/ to focus the search", `document.activeElement?.id === 'conversation-search'`)
	if got := js[string](t, ctx, `document.getElementById('conversation-search').value`); got != "" {
		t.Errorf("/ typed %q into the search", got)
	}

}
