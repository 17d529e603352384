package markdown

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// strikethrough is GFM strikethrough with two tildes only. GFM also strikes text between
// single tildes, but models write tildes for ranges and approximations ("5~10 and 20~30"),
// which would come out struck through.
type strikethrough struct{}

// Extend implements goldmark.Extender, as extension.Strikethrough does but with the
// parser wrapped.
func (strikethrough) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(parser.WithInlineParsers(
		util.Prioritized(doubleTilde{extension.NewStrikethroughParser()}, 500),
	))
	m.Renderer().AddOptions(renderer.WithNodeRenderers(
		util.Prioritized(extension.NewStrikethroughHTMLRenderer(), 500),
	))
}

// doubleTilde passes exactly two tildes on to the strikethrough parser; any other run of
// tildes stays text.
type doubleTilde struct{ parser.InlineParser }

// Parse implements parser.InlineParser.
func (p doubleTilde) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("~~")) || bytes.HasPrefix(line, []byte("~~~")) {
		return nil
	}
	return p.InlineParser.Parse(parent, block, pc)
}
