package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestEditAndRerunAStep is issue 17's "Edit and re-run a step" in the
// browser: Edit on a code cell opens an editor with its code, Tab indents,
// Ctrl+Enter runs the edited code as a new step "edited by" the user with
// its output; a question then uses the variable the step defined; "Run
// again" runs a step as it was; the steps stay steps after a reload; empty
// code is refused in the page, with the editor kept open.
func TestEditAndRerunAStep(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowserFor(t, 3*time.Minute)
	signInNewConversation(t, ctx, srv)
	askAndWait(t, ctx, "```python\nx = 20\nprint('x is', x)\n```", "x is 20")

	do(t, ctx, chromedp.Click(chromedp.CSS(`.cell [data-testid="edit-step"]`)))
	waitFor(t, ctx, "the editor with the cell's code", `document.querySelector('[data-testid="step-input"]')?.value === "x = 20\nprint('x is', x)"`)
	if !js[bool](t, ctx, `document.activeElement === document.querySelector('[data-testid="step-input"]')`) {
		t.Fatal("the editor does not have the focus")
	}
	// Retype the code: Tab indents by four spaces inside the editor.
	do(t, ctx, chromedp.SetValue(chromedp.CSS(`[data-testid="step-input"]`), "x = 21\ny = x * 2\nfor _ in range(1):\n"),
		chromedp.Click(chromedp.CSS(`[data-testid="step-input"]`)),
		chromedp.KeyEvent("\t"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid="step-input"]`), "print('y is', y)"))
	want := "x = 21\ny = x * 2\nfor _ in range(1):\n    print('y is', y)"
	if got := js[string](t, ctx, `document.querySelector('[data-testid="step-input"]').value`); got != want {
		t.Fatalf("the editor holds %q, want %q", got, want)
	}
	do(t, ctx, chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitFor(t, ctx, "the step, edited by ops", `[...document.querySelectorAll('#messages .turn')].pop()?.querySelector('[data-testid="step-head"]')?.textContent.includes('Edited by ops')`)
	waitFor(t, ctx, "the step's output", `[...document.querySelectorAll('#messages .answer')].pop().textContent.includes('y is 42')`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
	if n := js[int](t, ctx, `document.querySelectorAll('.step-editor').length`); n != 0 {
		t.Fatalf("%d editors still open after the run", n)
	}
	stepCode := js[string](t, ctx, `[...document.querySelectorAll('#messages .answer')].pop().querySelector('.cell [data-copy]').dataset.copy`)
	if stepCode != want {
		t.Fatalf("the step ran %q, want %q", stepCode, want)
	}

	// The next question uses the variable the step defined, in words and in code.
	askNext(t, ctx, "show y", "42")
	askNext(t, ctx, "```python\nprint('twice', y * 2)\n```", "twice 84")

	// Run again: the step's code as it was, as a new step.
	clickJS(t, ctx, `.turn-step .cell [data-testid="run-again"]`)
	waitFor(t, ctx, "a second step", `document.querySelectorAll('[data-testid="step-head"]').length === 2`)
	waitFor(t, ctx, "its output", `[...document.querySelectorAll('#messages .answer')].pop().textContent.includes('y is 42')`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)

	// Empty code is refused in the page; the editor stays open; Esc closes it.
	clickJS(t, ctx, `.turn-step .cell [data-testid="edit-step"]`)
	waitFor(t, ctx, "the editor", `!!document.querySelector('[data-testid="step-input"]')`)
	js[bool](t, ctx, `document.querySelector('[data-testid="step-input"]').value = '  \n', true`)
	clickJS(t, ctx, `[data-testid="step-run"]`)
	waitFor(t, ctx, "the refusal", `document.getElementById('toasts').textContent.includes('Write some code before running it.')`)
	if n := js[int](t, ctx, `document.querySelectorAll('[data-testid="step-head"]').length`); n != 2 {
		t.Fatalf("%d steps after an empty one was refused, want 2", n)
	}
	js[bool](t, ctx, `document.querySelector('[data-testid="step-input"]').focus(), true`)
	do(t, ctx, chromedp.KeyEvent("\x1b"))
	waitFor(t, ctx, "the editor closed by Esc", `!document.querySelector('.step-editor')`)

	if dir := os.Getenv("E2E_SCREENSHOTS"); dir != "" {
		shootEditor(t, ctx, filepath.Join(dir, "step-edit.png"))
	}

	do(t, ctx, chromedp.Reload())
	waitLoaded(t, ctx)
	if got := js[int](t, ctx, `document.querySelectorAll('[data-testid="step-head"]').length`); got != 2 {
		t.Fatalf("%d steps after a reload, want 2", got)
	}
	if got := textOf(t, ctx, `[data-testid="step-head"] .step-by`); !strings.Contains(got, "Edited by ops") {
		t.Fatalf("after a reload the step says %q", got)
	}
}

// shootEditor opens the editor on the first step with an edit under way
// and saves the window, for the README (file), then the same at phone
// width and in the dark, beside it, for people to look at.
func shootEditor(t *testing.T, ctx context.Context, file string) {
	t.Helper()
	clickJS(t, ctx, `.turn-step .cell [data-testid="edit-step"]`)
	js[bool](t, ctx, `document.querySelector('[data-testid="step-input"]').value = "x = 21\ny = x * 2\nfor _ in range(3):\n    y += 1\n    print('y is', y)", true`)
	js[bool](t, ctx, `document.getElementById('toasts').replaceChildren(), true`)
	for _, v := range []struct {
		suffix string
		view   viewport
		scheme string
	}{{"", shotDesktop, "light"}, {"-phone-dark", phone, "dark"}, {"-desktop-dark", shotDesktop, "dark"}, {"-phone-light", phone, "light"}} {
		do(t, ctx, emulate(v.view, v.scheme))
		// The step's head at the top of the chat, under the top bar.
		js[bool](t, ctx, `(() => {
			const head = document.querySelector('.turn-step');
			head.scrollIntoView({block: 'start'});
			let s = head.parentElement;
			while (s && !(s.scrollHeight > s.clientHeight && /auto|scroll/.test(getComputedStyle(s).overflowY))) s = s.parentElement;
			(s || document.scrollingElement).scrollTop -= 72;
			return true })()`)
		time.Sleep(300 * time.Millisecond)
		buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(strings.TrimSuffix(file, ".png")+v.suffix+".png", buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The code as sent, unfolded, at desktop width.
	do(t, ctx, emulate(shotDesktop, "light"))
	clickJS(t, ctx, `[data-step-cancel]`)
	js[bool](t, ctx, `document.querySelector('.step-sent').open = true, document.querySelector('.turn-step').scrollIntoView({block: 'center'}), true`)
	time.Sleep(300 * time.Millisecond)
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(file, ".png")+"-sent.png", buf, 0o644); err != nil {
		t.Fatal(err)
	}
	js[bool](t, ctx, `document.querySelector('.step-sent').open = false, true`)
}

// askNext asks a question and waits for its own answer (not an earlier
// one) to finish with want in it.
func askNext(t *testing.T, ctx context.Context, question, want string) {
	t.Helper()
	n := js[int](t, ctx, `document.querySelectorAll('#messages .answer').length`)
	ask(t, ctx, question)
	waitFor(t, ctx, "the answer to "+question, fmt.Sprintf(`document.querySelectorAll('#messages .answer').length === %d`, n+1))
	waitFor(t, ctx, "the output "+want, `[...document.querySelectorAll('#messages .answer')].pop().textContent.includes(`+quote(want)+`)`)
	waitFor(t, ctx, "the send button back", `!!document.querySelector('[data-testid="send"]')`)
}

// clickJS clicks the first element a selector matches, as a script would:
// the page's handlers run, wherever the element is scrolled.
func clickJS(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	if !js[bool](t, ctx, `(() => { const el = document.querySelector(`+quote(sel)+`); if (!el) return false; el.click(); return true })()`) {
		t.Fatalf("nothing to click at %s", sel)
	}
}
