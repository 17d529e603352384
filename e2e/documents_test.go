package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDocumentsAreAnswered is issue 38 in the browser: an image and a Word document uploaded
// through the page are answered from their content (the picture shown in the answer, the
// lines that mention a word quoted), and a type the local engine keeps but cannot read is said
// at upload. With SCREENSHOTS=1 it saves the answers, desktop and phone.
func TestDocumentsAreAnswered(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	dir := t.TempDir()
	parquet := filepath.Join(dir, "table.parquet")
	os.WriteFile(parquet, []byte("PAR1\x15\x04\x15\x10PAR1"), 0o644)
	fixtures, err := filepath.Abs(filepath.Join("..", "emulator", "analyst", "testdata", "docs"))
	if err != nil {
		t.Fatal(err) // chromium takes absolute paths only
	}
	for i, f := range []string{filepath.Join(fixtures, "logo.png"), filepath.Join(fixtures, "policy.docx"), parquet} {
		do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{f}))
		waitFor(t, ctx, filepath.Base(f)+"'s card", fmt.Sprintf(`document.querySelectorAll('.file-card[data-file-name]').length === %d`, i+1))
	}
	waitFor(t, ctx, "the Parquet notice", `[...document.querySelectorAll('.toast-notice')].some(e => e.textContent.includes('no Parquet reader'))`)
	if os.Getenv("SCREENSHOTS") != "" {
		t.Run("notice", func(t *testing.T) { saveScreenshot(t, ctx) })
	}

	ask(t, ctx, "what is in logo.png?")
	waitFor(t, ctx, "the image's overview", `document.querySelector('.answer .answer-status[data-status="completed"]') !== null`)
	waitFor(t, ctx, "the picture in the answer", `(() => { const i = document.querySelector('.answer .chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	if text := textOf(t, ctx, ".answer"); !contains(text, "40 × 20 pixels") {
		t.Fatalf("the answer does not give the image's size:\n%s", text)
	}
	ask(t, ctx, "what does policy.docx say about the budget?")
	waitFor(t, ctx, "the quoted line", `[...document.querySelectorAll('.answer')].some(a => a.textContent.includes('The travel budget is reviewed every quarter'))`)
	// Issue 40: an unticked chip's tooltip offered to leave out a file already left out.
	chip := `[...document.querySelectorAll('#file-chips .chip')].find(c => c.textContent.includes('logo.png'))`
	do(t, ctx, chromedp.Click(chromedp.CSS(`#file-chips .chip input[type="checkbox"]`)))
	if title := js[string](t, ctx, chip+`.title`); !contains(title, "include this file") {
		t.Errorf("an unticked chip's tooltip says %q", title)
	}
	do(t, ctx, chromedp.Click(chromedp.CSS(`#file-chips .chip input[type="checkbox"]`)))
	if title := js[string](t, ctx, chip+`.title`); !contains(title, "leave this file out") {
		t.Errorf("a ticked chip's tooltip says %q", title)
	}
	if os.Getenv("SCREENSHOTS") != "" {
		for _, v := range []struct {
			name  string
			width int64
		}{{"desktop", 1280}, {"phone", 390}} {
			do(t, ctx, chromedp.EmulateViewport(v.width, 900), chromedp.Reload())
			waitLoaded(t, ctx)
			js[bool](t, ctx, `(document.querySelector('.answer:last-of-type')?.scrollIntoView({block: "end"}), true)`)
			t.Run(v.name, func(t *testing.T) { saveScreenshot(t, ctx) })
		}
	}
}
