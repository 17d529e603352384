package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// TestExportHTMLReportOffline asks the built-in analyst about a file,
// exports the conversation as an HTML report from the Export menu, and
// opens the saved file in a tab with the network off: it shows its charts
// and has no script. The menu and the steps page are checked on a phone
// too. With SCREENSHOTS_DIR set it saves the report, the menu and the
// steps page there (docs/export-report.png comes from it).
func TestExportHTMLReportOffline(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	csv := filepath.Join(t.TempDir(), "sales.csv")
	data := "date,region,revenue,units\n2026-01-05,North,1200.5,10\n2026-01-12,South,830,7\n2026-02-02,East,1530,12\n" +
		"2026-02-09,North,990,9\n2026-03-03,South,1410,11\n2026-03-16,East,760,6\n"
	if err := os.WriteFile(csv, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's profile", `(document.querySelector('.file-card')?.textContent || '').includes('6 rows')`)
	askAndWait(t, ctx, "total revenue by region as a bar chart", "Highest")
	askAndWait(t, ctx, "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\nsales = pd.read_csv(__import__('glob').glob('/mnt/data/*-sales.csv')[0], parse_dates=['date'])\n"+
		"monthly = sales.groupby(sales['date'].dt.strftime('%Y-%m'))['units'].sum()\n"+
		"print(monthly.reset_index())\nmonthly.plot(marker='o', title='Units per month')\nplt.savefig('/mnt/data/units per month.png')\n```", "units")
	conv := path(t, ctx)
	shots := os.Getenv("SCREENSHOTS_DIR")

	// The header's Export menu opens without script and offers the formats.
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="export-menu"]`)))
	waitFor(t, ctx, "the export menu", `!!document.querySelector('.export-menu[open] [data-testid="export-html"]')`)
	if shots != "" {
		shoot(t, ctx, filepath.Join(shots, "export-menu-desktop-light.png"))
	}
	do(t, ctx, chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "Esc to close the menu", `!document.querySelector('.export-menu[open]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="export-menu"]`)))
	waitFor(t, ctx, "the menu again", `!!document.querySelector('.export-menu[open]')`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#messages`)))
	waitFor(t, ctx, "a click outside to close the menu", `!document.querySelector('.export-menu[open]')`)
	href := js[string](t, ctx, `document.querySelector('[data-testid="export-html"]').getAttribute('href')`)
	if href != conv+"/export.html" {
		t.Fatalf("HTML report link %q", href)
	}
	page := await(t, ctx, `(async () => {
		const r = await fetch(document.querySelector('[data-testid="export-html"]').getAttribute('href'));
		return r.headers.get('content-type') + '\n' + await r.text();
	})()`)
	if !strings.HasPrefix(page, "text/html") {
		t.Fatalf("export.html served as %q", page[:min(len(page), 60)])
	}
	file := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(file, []byte(page[strings.Index(page, "\n")+1:]), 0o644); err != nil {
		t.Fatal(err)
	}

	// The saved report, opened from the disk with the network off.
	do(t, ctx, offline())
	do(t, ctx, chromedp.Navigate("file://"+file))
	waitLoaded(t, ctx)
	if js[bool](t, ctx, `navigator.onLine`) {
		t.Fatal("the tab is not offline")
	}
	if n := js[int](t, ctx, `document.querySelectorAll('script').length`); n != 0 {
		t.Fatalf("%d script elements in the report", n)
	}
	waitFor(t, ctx, "every chart drawn", `(() => { const imgs = [...document.querySelectorAll('figure.chart img')];
		return imgs.length === 2 && imgs.every(i => i.complete && i.naturalWidth > 100) })()`)
	for _, want := range []string{"Files loaded", "total revenue by region as a bar chart", "units per month.png", "Code"} {
		if !strings.Contains(js[string](t, ctx, `document.body.textContent`), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if n := js[int](t, ctx, `document.querySelectorAll('details.code:not([open])').length`); n < 2 {
		t.Errorf("%d folded code cells, want one per step", n)
	}
	if n := js[int](t, ctx, `document.querySelectorAll('.cell table tbody tr').length`); n < 3 {
		t.Errorf("the monthly table has %d rows, want 3", n)
	}
	for _, msg := range runAxe(t, ctx) {
		t.Errorf("the report: axe: %s", msg)
	}
	if shots != "" {
		do(t, ctx, emulate(shotDesktop, "light"))
		shoot(t, ctx, filepath.Join(shots, "export-report.png"))
	}
	// Read on a phone, as an e-mail often is: nothing wider than the screen.
	do(t, ctx, emulate(phone, "dark"))
	if w := js[int](t, ctx, `document.documentElement.scrollWidth`); w > int(phone.width) {
		t.Errorf("the report is %d px wide on a %d px phone", w, phone.width)
	}
	if shots != "" {
		shoot(t, ctx, filepath.Join(shots, "export-report-phone.png"))
	}
	do(t, ctx, online())

	// The steps page, on a phone: one box per step, the formats as buttons,
	// nothing wider than the screen.
	for _, scheme := range []string{"light", "dark"} {
		do(t, ctx, emulate(phone, scheme))
		do(t, ctx, chromedp.Navigate(srv.URL+conv+"/export"))
		waitLoaded(t, ctx)
		if n := js[int](t, ctx, `document.querySelectorAll('.export-step input[name="step"]:checked').length`); n != 2 {
			t.Fatalf("%d steps offered, want 2", n)
		}
		if w := js[int](t, ctx, `document.documentElement.scrollWidth`); w > int(phone.width) {
			t.Errorf("steps page is %d px wide on a %d px phone (%s)", w, phone.width, scheme)
		}
		for _, msg := range runAxe(t, ctx) {
			t.Errorf("steps page (%s): axe: %s", scheme, msg)
		}
		if shots != "" {
			shoot(t, ctx, filepath.Join(shots, "export-steps-phone-"+scheme+".png"))
		}
		do(t, ctx, chromedp.Navigate(srv.URL+conv))
		waitLoaded(t, ctx)
		do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="export-menu"]`)))
		waitFor(t, ctx, "the export menu on a phone", `!!document.querySelector('.export-menu[open] [data-testid="export-choose"]')`)
		r := js[[]float64](t, ctx, `(() => { const r = document.querySelector('.export-menu-panel').getBoundingClientRect(); return [r.left, r.right] })()`)
		if r[0] < 0 || r[1] > float64(phone.width) {
			t.Errorf("the export menu spans %v on a %d px phone (%s)", r, phone.width, scheme)
		}
		for _, msg := range runAxe(t, ctx) {
			if strings.Contains(msg, "export") { // the page's other parts have tests of their own
				t.Errorf("open export menu (%s): axe: %s", scheme, msg)
			}
		}
		if shots != "" {
			shoot(t, ctx, filepath.Join(shots, "export-menu-phone-"+scheme+".png"))
		}
	}

	// Choosing only the second step exports only it.
	do(t, ctx, emulate(desktop, "light"))
	do(t, ctx, chromedp.Navigate(srv.URL+conv+"/export"))
	waitLoaded(t, ctx)
	one := await(t, ctx, `(async () => {
		document.querySelector('.export-step input').checked = false;
		const f = document.querySelector('[data-testid="export-form"]');
		const q = new URLSearchParams(new FormData(f)).toString();
		return await (await fetch(document.querySelector('[data-testid="export-choose-html"]').getAttribute('formaction') + '?' + q)).text();
	})()`)
	if strings.Contains(one, "total revenue by region as a bar chart</p>") || !strings.Contains(one, "units per month.png") {
		t.Error("the report of the second step alone has the wrong steps")
	}
}

// offline cuts the tab off the network, as a reader without one would be.
func offline() chromedp.Action[chromedp.Void] { return networkState(true) }

// online undoes offline.
func online() chromedp.Action[chromedp.Void] { return networkState(false) }

func networkState(off bool) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Offline: off, DownloadThroughput: -1, UploadThroughput: -1}}}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, t, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: off, DownloadThroughput: -1, UploadThroughput: -1})
		return chromedp.Void{}, err
	}
}

// await evaluates an async expression and returns the string it resolves to.
func await(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}
