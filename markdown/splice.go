package markdown

import (
	"strings"

	"github.com/yuin/goldmark/ast"
)

// The renderer writes each code block between these, as plain escaped text.
const (
	preOpen  = `<pre class="chroma"><code>`
	preClose = `</code></pre>`
)

// A codeBlock is the source of one code block of an answer.
type codeBlock struct{ code, lang string }

// codeBlocks returns doc's code blocks in document order, the order the renderer writes them.
func codeBlocks(doc ast.Node, source []byte) []codeBlock {
	var blocks []codeBlock
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.Kind() {
		case ast.KindFencedCodeBlock, ast.KindCodeBlock:
			if entering {
				code, lang := codeOf(n, source)
				blocks = append(blocks, codeBlock{code, lang})
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return blocks
}

// splice replaces the plain code blocks of sanitized HTML by their highlighted versions.
//
// Highlighting after sanitizing keeps chroma's hundreds of spans out of the sanitizer, which
// would otherwise take most of Render's time checking markup that chroma builds from
// escaped text and a fixed set of class names. It lets nothing through that the policy
// would refuse: a test checks that the policy leaves Highlight's output unchanged. Only
// the renderer writes <pre> (raw HTML in the answer is escaped), so the n-th preOpen is the
// n-th code block; if the counts ever disagree, the blocks stay plain.
func splice(html string, blocks []codeBlock) string {
	if len(blocks) == 0 || strings.Count(html, preOpen) != len(blocks) {
		return html
	}
	var b strings.Builder
	b.Grow(len(html) * 2)
	rest := html
	for _, blk := range blocks {
		start := strings.Index(rest, preOpen)
		end := strings.Index(rest[start:], preClose)
		if end < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:start])
		b.WriteString(Highlight(blk.code, blk.lang))
		rest = rest[start+end+len(preClose):]
	}
	b.WriteString(rest)
	return b.String()
}
