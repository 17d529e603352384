package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"
)

// TestMarkdownOfHostileNamesIsInert exports a conversation whose title,
// question, step author, answer (quoting CSV values) and error carry HTML
// and javascript: links, renders the Markdown as a viewer that trusts raw
// HTML would, and wants no tag of theirs and no javascript: link; the code
// in fences and spans is kept as written.
func TestMarkdownOfHostileNamesIsInert(t *testing.T) {
	const x = `<img src=x onerror=alert(1)>`
	r := Report{Title: "Sales " + x, Turns: []Turn{
		{Question: "Why <script>alert(1)</script>?\n[click](javascript:alert(1)) and [ok](https://example.com)\n\n[ref]: javascript:alert(2)\n\n[use][ref]",
			Answer: "Top customer: " + x + "\n\n| name |\n|---|\n| <b onmouseover=alert(1)>ACME</b> |\n\n" +
				"<div>\n<svg onload=alert(1)>\n</div>\n\n[see](JavaScript:alert(3)) ![i](javascript:alert(4)) <javascript:alert(5)>\n\n" +
				"`<kept>` and\n\n```html\n<kept2>\n```",
			Error: "failed on " + x},
		{Question: "```python\nprint(1)\n```", EditedBy: "eve " + x, Cells: []Cell{{Code: "print('<b>')"}}},
	}}
	md, _ := Markdown(r)
	var out bytes.Buffer
	viewer := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	if err := viewer.Convert([]byte(md), &out); err != nil {
		t.Fatal(err)
	}
	page := strings.ToLower(out.String())
	for _, live := range []string{"<img", "<script", "<b ", "<div", "<svg", `href="javascript:`, `src="javascript:`} {
		if strings.Contains(page, live) {
			t.Errorf("the rendered export holds %q:\n%s\n--- from ---\n%s", live, out.String(), md)
		}
	}
	for _, kept := range []string{"`<kept>`", "<kept2>", "print('<b>')", "[ok](https://example.com)"} {
		if !strings.Contains(md, kept) {
			t.Errorf("the export lost %q:\n%s", kept, md)
		}
	}
}
