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
	for _, v := range []viewport{phone, desktop} {
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
