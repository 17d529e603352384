package e2e

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// do runs browser steps and fails the test at the first error.
func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("browser: %v", err)
	}
}

// js evaluates an expression in the page and returns its value.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds, for up to 60 s: a passing wait
// returns as soon as it holds, and a loaded 2-core machine may take that long for an answer.
func waitFor(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	waitUntil(t, ctx, 60*time.Second, what, cond)
}

// waitUntil polls a JavaScript condition until it holds, for up to limit.
func waitUntil(t *testing.T, ctx context.Context, limit time.Duration, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](cond))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s (%s); last error %v", what, cond, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// path is the path of the page the tab shows.
func path(t *testing.T, ctx context.Context) string {
	return js[string](t, ctx, "location.pathname + location.search")
}

// textOf is the trimmed text of the first element matching a CSS selector.
func textOf(t *testing.T, ctx context.Context, sel string) string {
	q, _ := json.Marshal(sel)
	return js[string](t, ctx, "(document.querySelector("+string(q)+")?.textContent || '').trim()")
}

// submitForm fills named fields of the form that holds the first field and
// submits it with its submit button, then waits for the next page.
func submitForm(t *testing.T, ctx context.Context, formSel string, fields map[string]string) {
	t.Helper()
	for name, value := range fields {
		do(t, ctx, chromedp.SetValue(chromedp.CSS(formSel+` [name="`+name+`"]`), value))
	}
	navigates(t, ctx, chromedp.Click(chromedp.CSS(formSel+` button[type="submit"]`)))
}

// navigates runs steps that leave the page (a click on a link or a form
// button) and waits until the next document has loaded. It marks the old
// document first, so it cannot mistake the old page for the new one.
func navigates(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	js[bool](t, ctx, "window.__e2eOld = true; true")
	do(t, ctx, steps...)
	waitFor(t, ctx, "the next page", "!window.__e2eOld && document.readyState === 'complete'")
}

// waitLoaded waits until the document after a navigation has loaded. It
// follows chromedp.Navigate or chromedp.Reload, which return once the new
// document fired its load event, so the old document cannot be mistaken for
// it; after a click that navigates, use navigates.
func waitLoaded(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, "page load", "document.readyState === 'complete'")
}

const adminPassword = "correct horse battery staple"
