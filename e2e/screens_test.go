package e2e

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestNotebookScreenshots saves screenshots of a conversation with a
// loader, a chart and a table, light and dark, desktop and phone, for a
// person to look at. It runs only with SCREENSHOTS=1.
func TestNotebookScreenshots(t *testing.T) {
	if os.Getenv("SCREENSHOTS") == "" {
		t.Skip("set SCREENSHOTS=1 to take them")
	}
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 8*time.Minute)
	signInNewConversation(t, ctx, srv)
	var b strings.Builder
	b.WriteString("# Data source: a test\nDate,Open,Close,Volume\n")
	for i := 1; i <= 28; i++ {
		fmt.Fprintf(&b, "2024-02-%02d,%d.5,%d.25,%d\n", i, 100+i, 101+i+i%5, 1000*i)
	}
	csv := t.TempDir() + "/stocks.csv"
	os.WriteFile(csv, []byte(b.String()), 0o644)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's card", `!!document.querySelector('.file-card[data-file-name="stocks.csv"]')`)
	do(t, ctx, chromedp.EmulateViewport(1280, 800))
	ask(t, ctx, "```python\nimport time\nfor step in range(1, 400):\n    print(f'epoch {step}: loss {1 / step:.4f}', flush=True)\n    time.sleep(0.05)\n```")
	waitFor(t, ctx, "a live cell", `(document.querySelector('.cell-running [data-testid="cell-output"]')?.textContent || '').includes('epoch')`)
	time.Sleep(2 * time.Second)
	t.Logf("live output %v", js[[]float64](t, ctx, `(() => { const o = document.querySelector('.cell-running [data-testid="cell-output"]'); return [o.scrollTop, o.scrollHeight, o.clientHeight] })()`))
	t.Run("live", func(t *testing.T) { saveScreenshot(t, ctx) })
	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	waitFor(t, ctx, "the send button", `!!document.querySelector('[data-testid="send"]')`)
	ask(t, ctx, "plot Close over time as a line chart")
	waitFor(t, ctx, "the chart", `document.querySelectorAll('.answer .answer-status[data-status="completed"]').length === 1`)
	waitFor(t, ctx, "the interactive chart", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready'`)
	ask(t, ctx, "```python\nframes['stocks.csv'].describe()\n```")
	waitFor(t, ctx, "the table", `document.querySelectorAll('.answer .answer-status[data-status="completed"]').length === 2`)
	for _, v := range []struct {
		name   string
		width  int64
		scheme string
	}{{"desktop-light", 1280, "light"}, {"desktop-dark", 1280, "dark"}, {"phone-light", 390, "light"}, {"phone-dark", 390, "dark"}} {
		do(t, ctx, chromedp.EmulateViewport(v.width, 900), colorScheme(v.scheme))
		time.Sleep(700 * time.Millisecond) // the chart is drawn again in the new theme, colours ease over
		waitFor(t, ctx, "the interactive chart", `document.querySelector('figure[data-vega-lite]')?.dataset.vegaState === 'ready'`)
		for i, sel := range []string{".answer .chart-card", ".answer [data-testid=\"data-table\"]"} {
			js[bool](t, ctx, `(document.querySelector('`+sel+`').scrollIntoView({block: "center"}), true)`)
			t.Run(fmt.Sprintf("%s-%d", v.name, i), func(t *testing.T) { saveScreenshot(t, ctx) })
		}
	}
}

// colorScheme makes the page see prefers-color-scheme as scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}
