package markdown

import (
	"bytes"
	"html"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// nodeRenderer overrides goldmark's HTML for code blocks, which it highlights, and for raw
// HTML, which it shows as text.
type nodeRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (nodeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, renderCodeBlock)
	reg.Register(ast.KindCodeBlock, renderCodeBlock)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
}

// renderCodeBlock writes a fenced or indented code block as escaped text; Render swaps in
// the highlighted version once the page has been sanitized (see splice.go). An unclosed
// fence, as seen while an answer streams, holds the code so far and renders the same way.
func renderCodeBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	code, _ := codeOf(n, source)
	_, _ = w.WriteString(preOpen)
	_, _ = w.WriteString(html.EscapeString(code))
	_, _ = w.WriteString(preClose)
	_ = w.WriteByte('\n')
	return ast.WalkSkipChildren, nil
}

// codeOf returns the text and language of a code block.
func codeOf(n ast.Node, source []byte) (code, lang string) {
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(source))
	}
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(source))
	}
	return b.String(), lang
}

// renderHTMLBlock shows a block of raw HTML as the text it is. Passing it to the sanitizer
// instead would drop content without a trace, and half-streamed tags could leave the page's
// HTML unbalanced.
func renderHTMLBlock(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString("<p>")
	lines := b.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		writeLine(w, seg.Value(source), i < lines.Len()-1 || b.HasClosure())
	}
	if b.HasClosure() {
		writeLine(w, b.ClosureLine.Value(source), false)
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

// writeLine writes one line of an HTML block as escaped text, with a <br> if more follow.
func writeLine(w util.BufWriter, line []byte, more bool) {
	_, _ = w.WriteString(html.EscapeString(string(bytes.TrimRight(line, "\r\n"))))
	if more {
		_, _ = w.WriteString("<br>\n")
	}
}

// lineBreak matches the inline <br> models put in table cells, the one raw tag worth keeping.
var lineBreak = regexp.MustCompile(`(?i)^<br\s*/?>$`)

// renderRawHTML shows an inline tag as text, except <br>.
func renderRawHTML(w util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var raw bytes.Buffer
	segs := n.(*ast.RawHTML).Segments
	for i := range segs.Len() {
		seg := segs.At(i)
		raw.Write(seg.Value(source))
	}
	if lineBreak.Match(raw.Bytes()) {
		_, _ = w.WriteString("<br>")
	} else {
		_, _ = w.WriteString(html.EscapeString(raw.String()))
	}
	return ast.WalkSkipChildren, nil
}
