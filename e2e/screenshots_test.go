package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreenshots saves the pages of layoutFixture at phone and desktop
// sizes, light and dark, to $SCREENSHOTS_DIR for people to look at (and
// for the README). Without SCREENSHOTS_DIR it is skipped.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		t.Skip("set SCREENSHOTS_DIR to save screenshots")
	}
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 5*time.Minute)
	pages := layoutFixture(t, ctx, srv)
	names := []string{"home", "conversation", "gallery", "lightbox", "search", "admin", "users", "not-found"}
	for _, v := range []viewport{phone, shotDesktop} {
		for _, scheme := range []string{"light", "dark"} {
			do(t, ctx, emulate(v, scheme))
			for i, p := range pages {
				open(t, ctx, srv, p)
				time.Sleep(300 * time.Millisecond)
				buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				name := strings.Join([]string{names[i], v.name, scheme}, "-") + ".png"
				if err := os.WriteFile(filepath.Join(dir, name), buf, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

// salesCSV is a small sales file for the README's screenshot.
const salesCSV = "date,region,product,units,revenue\n2024-01-05,North,Widget,12,1200.50\n2024-01-09,South,Gadget,7,1450.20\n" +
	"2024-02-11,East,Widget,9,930\n2024-02-14,North,Gizmo,,1100.75\n2024-03-02,West,Gadget,4,640\n2024-03-08,South,Widget,8,850.15\n" +
	"2024-03-20,East,Gizmo,5,600\n"

// TestREADMEScreenshot saves readme-hero.png to $SCREENSHOTS_DIR: a
// question about an uploaded file answered with its chart, at 1280 px, as
// the top of the README shows it. Without SCREENSHOTS_DIR it is skipped.
func TestREADMEScreenshot(t *testing.T) {
	dir := os.Getenv("SCREENSHOTS_DIR")
	if dir == "" {
		t.Skip("set SCREENSHOTS_DIR to save screenshots")
	}
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 3*time.Minute)
	do(t, ctx, emulate(shotDesktop, "light"))
	signInNewConversation(t, ctx, srv)
	upload(t, ctx, writeFile(t, t.TempDir(), "sales.csv", salesCSV))
	ask(t, ctx, "plot total revenue by region as a bar chart")
	answered(t, ctx, 1)
	waitLong(t, ctx, "the interactive chart", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready'`)
	// The chart and the answer under it, at the foot of the chat.
	js[bool](t, ctx, `(() => {
		let s = document.getElementById('messages');
		while (s && !(s.scrollHeight > s.clientHeight && /auto|scroll/.test(getComputedStyle(s).overflowY))) s = s.parentElement;
		s = s || document.scrollingElement;
		s.scrollTop = s.scrollHeight;
		return true })()`)
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "readme-hero.png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
