package markdown

import (
	"bytes"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Options change how Render treats an answer. The zero value is ready to use.
type Options struct {
	// RewriteSandboxLink maps the name of a file cited as sandbox:/mnt/data/<name> to the URL
	// the app serves it at, such as /artifacts/{id}. name is percent-decoded and may contain
	// slashes. If the func is nil or reports false, the link (or image) becomes its text, so
	// a reader never meets a link that leads nowhere. Render may call it from several
	// goroutines at once if the Options value is shared.
	RewriteSandboxLink func(name string) (href string, ok bool)
}

// Render renders markdown to sanitized HTML with the zero Options: every sandbox link
// becomes plain text. The result is safe to write into a page unescaped (templ.Raw).
func Render(src string) string {
	return Options{}.Render(src)
}

// Render renders markdown to sanitized HTML, rewriting sandbox links with o. Partial
// markdown, as seen while an answer streams, still gives balanced HTML.
func (o Options) Render(src string) string {
	source := []byte(bracketSpacedSandboxLinks(src))
	pc := parser.NewContext()
	pc.Set(optionsKey, o)
	doc := converter().Parser().Parse(text.NewReader(source), parser.WithContext(pc))

	var buf bytes.Buffer
	buf.Grow(len(src) * 2)
	// The renderer writes to a bytes.Buffer, which cannot fail, and our node renderers
	// return no errors, so there is nothing to report.
	_ = converter().Renderer().Render(&buf, source, doc)
	return splice(policy().SanitizeReader(&buf).String(), codeBlocks(doc, source))
}

// optionsKey carries the caller's Options from Render to the AST transformers, so that one
// goldmark instance serves every conversation.
var optionsKey = parser.NewContextKey()

// converter builds the goldmark instance once: building it costs more than rendering a
// typical answer, and goldmark instances are safe for concurrent use.
var converter = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			strikethrough{},
			extension.Linkify,
			extension.TaskList,
		),
		goldmark.WithParserOptions(parser.WithASTTransformers(
			util.Prioritized(linkTransformer{}, 100),
			util.Prioritized(numberTransformer{}, 200),
		)),
		// Lower numbers win, and goldmark's own HTML renderer sits at 1000.
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(
			util.Prioritized(nodeRenderer{}, 100),
		)),
	)
})
