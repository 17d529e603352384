package e2e

import (
	"context"
	_ "embed"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core, vendored for the tests only (testdata/axe-core):
// it is evaluated in the page through DevTools, never served by the app.
//
//go:embed testdata/axe-core/axe.min.js
var axeSource string

// viewport is a screen the pages must fit.
type viewport struct {
	name          string
	width, height int64
	mobile        bool
}

var (
	phone   = viewport{"phone", 390, 844, true}
	narrow  = viewport{"narrow-phone", 360, 740, true}
	desktop = viewport{"desktop", 1440, 900, false}
	// shotDesktop is the window of the README's screenshots: 1280 px, a
	// common laptop, where the three regions are tightest.
	shotDesktop = viewport{"desktop", 1280, 800, false}
)

// emulate sets the tab's screen and colour scheme ("light" or "dark").
func emulate(v viewport, scheme string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: v.width, Height: v.height, DeviceScaleFactor: 1, Mobile: v.mobile})
		if err != nil {
			return chromedp.Void{}, err
		}
		_, err = cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return chromedp.Void{}, err
	}
}

// overflowing names the elements wider than the screen when the page
// scrolls sideways, and is empty when it does not. A phone widens the
// layout viewport (innerWidth) to fit content that overflows, so both are
// held to the screen's width.
const overflowing = `((w) => {
	const d = document.documentElement;
	if (d.scrollWidth <= innerWidth && innerWidth <= w) return '';
	const clipped = e => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) { if (getComputedStyle(p).overflowX !== 'visible') return true; } return false; };
	const wide = [...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > w + 1 && !clipped(e))
		.map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.') + ' ' + Math.round(e.getBoundingClientRect().right));
	return 'scrollWidth ' + d.scrollWidth + ', innerWidth ' + innerWidth + ', screen ' + w + ': ' + wide.slice(0, 6).join(', ');
})`

// axeViolations runs axe-core's WCAG 2.1 A and AA rules on the page and
// lists the serious and critical violations with a few of their nodes.
const axeViolations = `(async () => {
	const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
	return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
		.map(v => v.id + ' (' + v.nodes.length + '): ' + v.nodes.slice(0, 4).map(n => n.target.join(' ')).join(' | '));
})()`

// layoutFixture signs in the scripted admin, makes a conversation with an
// uploaded file, a wide table, long code and a chart, and returns the paths
// of every page to check.
func layoutFixture(t *testing.T, ctx context.Context, srv *server) []string {
	t.Helper()
	signInNewConversation(t, ctx, srv)
	csv := t.TempDir() + "/quarterly_positions_with_a_long_file_name.csv"
	var b strings.Builder
	b.WriteString("region,settlement_px,a_rather_long_column_name,another_long_column_name,third_long_column_name\n")
	for i := range 5 {
		b.WriteString("North,1.5,2,3,")
		b.WriteString(strings.Repeat("x", 20+i))
		b.WriteString("\n")
	}
	if err := os.WriteFile(csv, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's profile", `(document.querySelector('.file-card')?.textContent || '').includes('5 rows')`)
	askAndWait(t, ctx, "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\n"+
		"df = pd.DataFrame({f'column_with_a_long_name_{i}': range(3) for i in range(12)})\n"+
		"print(df.to_string())  # a deliberately long comment that makes the line wider than any phone screen\n"+
		"plt.plot([1, 2, 3], [3, 1, 2])\nplt.title('Settlement')\nplt.savefig('/mnt/data/settlement.png')\n```", "column_with_a_long_name_11")
	waitFor(t, ctx, "the top bar to take the new title", `document.getElementById('topbar-title').textContent === document.querySelector('.conversation-title').textContent && document.querySelector('.conversation-title').textContent.startsWith('Python: settlement.png')`)
	conv := js[string](t, ctx, "location.pathname")
	return []string{"/", conv, conv + "/gallery", conv + "/gallery" + lightbox, "/?q=settlement", "/admin", "/admin/users", "/conversations/no-such-conversation"}
}

// lightbox marks a page of layoutFixture as the gallery with its first
// chart opened in the lightbox.
const lightbox = "#lightbox"

// open shows the page at path; the lightbox mark opens the first chart.
func open(t *testing.T, ctx context.Context, srv *server, path string) {
	t.Helper()
	page, box := strings.CutSuffix(path, lightbox)
	do(t, ctx, chromedp.Navigate(srv.URL+page))
	waitLoaded(t, ctx)
	if box {
		do(t, ctx, chromedp.Click(chromedp.CSS(".gallery-thumb")))
		waitFor(t, ctx, "the lightbox", `(() => { const i = document.querySelector('.lightbox.open img'); return !!i && i.complete && i.naturalWidth > 0 })()`)
	}
}

// TestPagesFitPhonesAndPassAxe opens every page at phone and desktop sizes:
// none scrolls sideways, and axe-core finds no serious or critical WCAG 2.1
// A/AA violation in the light or the dark theme.
func TestPagesFitPhonesAndPassAxe(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 5*time.Minute)
	pages := layoutFixture(t, ctx, srv)
	for _, v := range []viewport{phone, narrow, desktop} {
		for _, scheme := range []string{"light", "dark"} {
			do(t, ctx, emulate(v, scheme))
			for _, p := range pages {
				open(t, ctx, srv, p)
				if msg := js[string](t, ctx, fmt.Sprintf("%s(%d)", overflowing, v.width)); msg != "" {
					t.Errorf("%s %s %s scrolls sideways: %s", v.name, scheme, p, msg)
				}
				if v == narrow {
					continue // axe's rules do not depend on the width
				}
				for _, msg := range runAxe(t, ctx) {
					t.Errorf("%s %s %s: axe: %s", v.name, scheme, p, msg)
				}
			}
		}
	}
}

// runAxe injects axe-core into the page if needed and runs it.
func runAxe(t *testing.T, ctx context.Context) []string {
	t.Helper()
	if !js[bool](t, ctx, "typeof axe !== 'undefined'") {
		if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](axeSource+";true")); err != nil {
			t.Fatalf("inject axe-core: %v", err)
		}
	}
	out, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](axeViolations, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe: %v", err)
	}
	return out
}

// TestFilesDrawerOnPhone uploads a file on a phone: the Files count follows
// without a reload, the drawer opens on screen with a Close that is the
// element under its own centre, Esc closes it too, and removing the file
// brings the count back to 0.
func TestFilesDrawerOnPhone(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	do(t, ctx, emulate(phone, "light"), chromedp.Reload())
	waitLoaded(t, ctx)
	csv := t.TempDir() + "/prices.csv"
	if err := os.WriteFile(csv, []byte("day,price\n1,2\n2,3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the count to follow the upload", `document.getElementById('files-count')?.textContent === 'Files (1)'`)

	const drawerOpen = `getComputedStyle(document.getElementById('files-panel')).display !== 'none'`
	do(t, ctx, chromedp.Click(chromedp.CSS(".files-open")))
	waitFor(t, ctx, "the drawer", drawerOpen)
	closeReachable := `(() => {
		const b = document.querySelector('.files-close').getBoundingClientRect();
		const p = document.getElementById('files-panel').getBoundingClientRect();
		const x = b.left + b.width / 2, y = b.top + b.height / 2;
		return p.left >= 0 && p.right <= innerWidth + 1 && b.right <= innerWidth && b.top >= 0 &&
			document.elementFromPoint(x, y)?.closest('.files-close') !== null;
	})()`
	if !js[bool](t, ctx, closeReachable) {
		t.Fatal("the drawer's Close is off screen or covered")
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(".files-close")))
	waitFor(t, ctx, "the drawer to close", "!("+drawerOpen+")")

	do(t, ctx, chromedp.Click(chromedp.CSS(".files-open")))
	waitFor(t, ctx, "the drawer again", drawerOpen)
	do(t, ctx, chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "Esc to close the drawer", "!("+drawerOpen+")")

	do(t, ctx, chromedp.Click(chromedp.CSS(".files-open")))
	js[bool](t, ctx, "window.confirm = () => true; true")
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="remove-file"]`)))
	waitFor(t, ctx, "the count to follow the removal", `document.getElementById('files-count')?.textContent === 'Files (0)' && !document.querySelector('.file-card')`)
	if js[int](t, ctx, `document.querySelectorAll('#file-chips input[name="file_id"]').length`) != 0 {
		t.Fatal("the removed file is still offered for the next question")
	}
}

// TestKeyboard opens a conversation with the composer focused, reaches the
// search with "/", and cancels a rename with Esc.
func TestKeyboard(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	waitFor(t, ctx, "the composer focused on open", `document.activeElement?.id === 'composer-input'`)

	// The key is dispatched in the page: DevTools' key events type the
	// character in a separate event that the page's preventDefault on
	// keydown cannot cancel, unlike a real keyboard.
	js[bool](t, ctx, `document.activeElement.blur(); document.body.dispatchEvent(new KeyboardEvent('keydown', {key: '/', bubbles: true, cancelable: true})); true`)
	waitFor(t, ctx, "/ to focus the search", `document.activeElement?.id === 'conversation-search'`)

	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="rename-conversation"]`)))
	waitFor(t, ctx, "the rename form", `document.activeElement?.id === 'title-input'`)
	do(t, ctx, chromedp.SendKeys(chromedp.CSS("#title-input"), " changed"), chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "Esc to cancel the rename", `!document.getElementById('title-input') && document.querySelector('.conversation-title')?.textContent === 'New conversation'`)
}
