package e2e

import (
	"os"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestAdminScreenshots saves /admin after a question, desktop and phone, light and dark, for a
// person to look at: the agent, the sessions and the packages it now shows. SCREENSHOTS=1 only.
func TestAdminScreenshots(t *testing.T) {
	if os.Getenv("SCREENSHOTS") == "" {
		t.Skip("set SCREENSHOTS=1 to take them")
	}
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 3*time.Minute)
	signInNewConversation(t, ctx, srv)
	ask(t, ctx, "```python\nprint(6 * 7)\n```")
	waitFor(t, ctx, "the answer", `document.querySelector('.answer .answer-status[data-status="completed"]') !== null`)
	t.Run("conversation", func(t *testing.T) { saveScreenshot(t, ctx) })
	for _, v := range []struct {
		name   string
		width  int64
		scheme string
	}{{"desktop-light", 1280, "light"}, {"phone-dark", 390, "dark"}} {
		do(t, ctx, chromedp.EmulateViewport(v.width, 1400), colorScheme(v.scheme), chromedp.Navigate(srv.URL+"/admin"))
		waitLoaded(t, ctx)
		t.Run(v.name, func(t *testing.T) { saveScreenshot(t, ctx) })
	}
}
