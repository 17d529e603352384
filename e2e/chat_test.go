package e2e

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// signInNewConversation signs in as the scripted admin and opens a new
// conversation.
func signInNewConversation(t *testing.T, ctx context.Context, srv *server) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(srv.URL+"/login"))
	submitForm(t, ctx, `form[action="/login"]`, map[string]string{"username": "ops", "password": adminPassword})
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="new-conversation"]`)))
}

// ask types a question into the composer and sends it with Enter.
func ask(t *testing.T, ctx context.Context, question string) {
	t.Helper()
	do(t, ctx, chromedp.SetValue(chromedp.CSS("#composer-input"), question),
		chromedp.SendKeys(chromedp.CSS("#composer-input"), "\r"))
	waitFor(t, ctx, "the answer placeholder", `!!document.querySelector('#messages .answer[data-run-id]')`)
}

// TestChatTurnStreamsCodeOutputAndChart sends Python, watches the code,
// its output and the chart appear, and finds the same answer after a reload.
func TestChatTurnStreamsCodeOutputAndChart(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport hashlib\nimport matplotlib.pyplot as plt\nplt.bar(['a', 'b', 'c'], [3, 1, 2])\nplt.title('Counts')\nplt.savefig('/mnt/data/counts.png')\nprint('total', 3 + 1 + 2)\nprint('sha', hashlib.sha256(open('/mnt/data/counts.png', 'rb').read()).hexdigest())\n```")
	waitFor(t, ctx, "the stop button while the turn runs", `!!document.querySelector('[data-testid="stop"]') || !!document.querySelector('.answer[data-status]')`)
	waitFor(t, ctx, "the code cell with its output", `(document.querySelector('.cell .cell-output')?.textContent || '').includes('total 6')`)
	waitFor(t, ctx, "the chart", `(() => { const i = document.querySelector('.cell .chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
	// The first answer names the conversation after the chart its code made,
	// in the heading and the sidebar, without a reload.
	waitFor(t, ctx, "the title from the chart", `(document.querySelector('#conversation-title')?.textContent || '').includes('Python: counts.png') &&
		[...document.querySelectorAll('#conversation-list a')].some(a => a.textContent.includes('Python: counts.png'))`)
	if code := textOf(t, ctx, ".cell .cell-code"); !strings.Contains(code, "plt.bar(['a', 'b', 'c'], [3, 1, 2])") {
		t.Fatalf("code cell shows %q", code)
	}

	// The chart was copied out: the gallery shows it and its download has
	// exactly the bytes the code wrote.
	out := textOf(t, ctx, ".cell .cell-output")
	wantSHA := out[strings.Index(out, "sha ")+4:][:64]
	conversation := path(t, ctx)
	navigates(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="gallery-link"]`)))
	waitFor(t, ctx, "the chart in the gallery", `(() => { const i = document.querySelector('.gallery-item img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	if name := textOf(t, ctx, ".gallery-item .chart-name"); name != "counts.png" {
		t.Fatalf("gallery chart name %q", name)
	}
	gotSHA, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const href = document.querySelector('.gallery-item a[download]').getAttribute('href');
		const buf = await (await fetch(href)).arrayBuffer();
		const sum = await crypto.subtle.digest('SHA-256', buf);
		return [...new Uint8Array(sum)].map(b => b.toString(16).padStart(2, '0')).join('');
	})()`, chromedp.EvalAwaitPromise))
	if err != nil || gotSHA != wantSHA {
		t.Fatalf("downloaded chart sha256 %q (%v), want %q", gotSHA, err, wantSHA)
	}
	// The conversation exports as a notebook that Jupyter's validator accepts.
	ipynb, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => {
		const href = document.querySelector('[data-testid="export-notebook"]').getAttribute('href');
		return await (await fetch(href)).text();
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	validateNotebook(t, ipynb, "plt.bar", "total 6")

	do(t, ctx, chromedp.Navigate(srv.URL+conversation))
	waitLoaded(t, ctx)
	if out := textOf(t, ctx, ".cell .cell-output"); !strings.Contains(out, "total 6") {
		t.Fatalf("after reload the output is %q", out)
	}
	waitFor(t, ctx, "the chart after reload", `!!document.querySelector('.answer[data-status="completed"] .chart-card img')`)
	// The local engine's token counts are estimates: no usage line.
	if js[bool](t, ctx, `!!document.querySelector('[data-testid="usage"]')`) {
		t.Fatal("a usage line on the local engine")
	}
}

// TestChatResumesAfterReloadAndStops starts a slow cell, reloads the page
// while it runs (the run goes on and the page follows it again), then stops
// it with the Stop button.
func TestChatResumesAfterReloadAndStops(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	ask(t, ctx, "```python\nimport time\nprint('started', flush=True)\ntime.sleep(60)\nprint('never')\n```")
	waitFor(t, ctx, "the cell running", `!!document.querySelector('.cell-running')`)

	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	waitFor(t, ctx, "the live answer after reload", `!!document.querySelector('.answer[sse-connect] .cell-running')`)
	// htmx marks an element it has processed (its hx-post bound) with an
	// initHash: a click before that would do nothing.
	waitFor(t, ctx, "the stop button after reload, ready",
		`document.querySelector('[data-testid="stop"]')?.['htmx-internal-data']?.initHash != null`)

	do(t, ctx, chromedp.Click(chromedp.CSS(`[data-testid="stop"]`)))
	waitFor(t, ctx, "the stopped message", `(document.querySelector('.answer-error')?.textContent || '').includes('You stopped this answer')`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)

	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	if got := js[string](t, ctx, `document.querySelector('.answer')?.dataset.status || ''`); got != "cancelled" {
		t.Fatalf("after reload the run's status is %q, want cancelled", got)
	}
}

// TestUploadThenAskAboutTheFile uploads a CSV through the files panel,
// sees its profile, and runs code that reads it from /mnt/data.
func TestUploadThenAskAboutTheFile(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	csv := t.TempDir() + "/regions.csv"
	if err := os.WriteFile(csv, []byte("region;revenue\nNorth;1.200,50\nSouth;980,25\nEast;1.530,00\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's profile", `(document.querySelector('.file-card[data-file-name="regions.csv"]')?.textContent || '').includes('3 rows × 2 columns')`)
	waitFor(t, ctx, "the file's chip in the composer", `!!document.querySelector('#file-chips input[name="file_id"]:checked')`)

	// A file over the limit is refused by the page before a byte is sent
	// (a sparse file: the browser knows its size without reading it).
	huge := t.TempDir() + "/huge.csv"
	if f, err := os.Create(huge); err != nil || f.Truncate(600<<20) != nil || f.Close() != nil {
		t.Fatalf("sparse file: %v", err)
	}
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{huge}))
	waitFor(t, ctx, "the refusal", `(document.querySelector('#toasts')?.textContent || '').includes('huge.csv was not uploaded: it is 600 MB, and a file can be at most 512 MB')`)
	if js[bool](t, ctx, `!!document.querySelector('.upload-row') || !!document.querySelector('.file-card[data-file-name="huge.csv"]')`) {
		t.Fatal("the file over the limit was sent")
	}
	if os.Getenv("SCREENSHOTS") != "" {
		saveScreenshot(t, ctx)
	}

	ask(t, ctx, "```python\nimport pandas as pd\ndf = pd.read_csv(__import__('glob').glob('/mnt/data/*-regions.csv')[0], sep=';', thousands='.', decimal=',')\nprint('sum', df.revenue.sum())\n```")
	waitFor(t, ctx, "the computed sum", `(document.querySelector('.cell .cell-output')?.textContent || '').includes('sum 3710.75')`)
}

// TestPlainQuestionIsAnsweredByTheBuiltInAnalyst asks in plain words: the
// local engine's analyst writes the code, the chart appears, and the answer
// states the numbers the code computed.
func TestPlainQuestionIsAnsweredByTheBuiltInAnalyst(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)

	csv := t.TempDir() + "/sales.csv"
	os.WriteFile(csv, []byte("date,region,revenue\n2026-01-05,North,1200.5\n2026-01-12,South,980.25\n2026-01-19,North,300\n2026-01-26,East,640\n"), 0o644)
	do(t, ctx, chromedp.SetUploadFiles(chromedp.CSS(`[data-testid="file-input"]`), []string{csv}))
	waitFor(t, ctx, "the file's profile", `!!document.querySelector('.file-card[data-file-name="sales.csv"]')`)

	ask(t, ctx, "plot total revenue by region as a bar chart")
	waitFor(t, ctx, "the answer to finish", `!!document.querySelector('.answer .answer-status[data-status="completed"]')`)
	waitFor(t, ctx, "the chart", `(() => { const i = document.querySelector('.answer .chart-card img'); return !!i && i.complete && i.naturalWidth > 100 })()`)
	text := textOf(t, ctx, ".answer .answer-text")
	if !strings.Contains(text, "North") || !strings.Contains(text, "1,500.5") {
		t.Fatalf("answer text %q lacks the computed total for North", text)
	}
	if logs := js[string](t, ctx, `[...document.querySelectorAll('.answer .cell-output')].map(e => e.textContent).join('\n')`); strings.Contains(logs, "@@wb") {
		t.Fatal("the analyst's result markers are shown to the user")
	}
}

// validateNotebook checks a notebook with Debian's python3-nbformat, that it
// holds the given texts, and that it runs top to bottom in a Jupyter kernel.
func validateNotebook(t *testing.T, ipynb string, contains ...string) {
	t.Helper()
	path := t.TempDir() + "/export.ipynb"
	if err := os.WriteFile(path, []byte(ipynb), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", "-c",
		"import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4)); print('valid')", path).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "valid") {
		t.Fatalf("the exported notebook does not validate: %v\n%s", err, out)
	}
	for _, want := range contains {
		if !strings.Contains(ipynb, want) {
			t.Fatalf("the notebook lacks %q", want)
		}
	}
	// Run All in a Jupyter kernel: every cell runs (issue 40).
	run := exec.Command("/usr/bin/python3", "../notebook/testdata/run_notebook.py", path)
	run.Env = append(os.Environ(), "MPLBACKEND=Agg", "PYDEVD_DISABLE_FILE_VALIDATION=1")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("the exported notebook stops at a cell: %v\n%s", err, out)
	}
}
