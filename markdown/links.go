package markdown

import (
	"net/url"
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// dataDir is where the code interpreter keeps the files it writes; answers cite them as
// sandbox:/mnt/data/<name>, and now and then as a bare /mnt/data/<name>.
const dataDir = "/mnt/data/"

// spacedSandboxLink matches a link to a sandbox file whose name has a space,
// written raw: [units per month.png](sandbox:/mnt/data/units per month.png).
// CommonMark wants such a destination in <...>, and models (and the local
// engine) do not always write it so (UNCONFIRMED how the hosted service's
// models write it).
var spacedSandboxLink = regexp.MustCompile(`\]\((sandbox:/mnt/data/[^()<>\n]*? [^()<>\n]*?)\)`)

// bracketSpacedSandboxLinks puts such destinations in <...>, so that they
// become links like any other rather than stay as raw markdown.
func bracketSpacedSandboxLinks(src string) string {
	if !strings.Contains(src, "](sandbox:") {
		return src
	}
	return spacedSandboxLink.ReplaceAllString(src, "](<$1>)")
}

// linkTransformer decides, in the AST, what every link and image becomes. Doing it here
// rather than leaving it to the sanitizer means a refused link turns into its text instead
// of an <a> without an href.
type linkTransformer struct{}

// Transform implements parser.ASTTransformer.
func (linkTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	opts, _ := pc.Get(optionsKey).(Options)
	source := reader.Source()
	// Collect first: replacing nodes while ast.Walk is visiting them skips siblings.
	var nodes []ast.Node
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n.Kind() {
		case ast.KindLink, ast.KindImage, ast.KindAutoLink:
			if entering {
				nodes = append(nodes, n)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range nodes {
		switch n := n.(type) {
		case *ast.Link:
			if href, ok := opts.href(string(n.Destination)); ok {
				n.Destination = []byte(href)
			} else {
				unwrap(n)
			}
		case *ast.Image:
			opts.image(n)
		case *ast.AutoLink:
			opts.autoLink(n, source)
		}
	}
}

// href returns where a link to dest may point, or false if it should not be a link. Only
// web, mail and relative links are kept. data: is refused with the rest: a data:text/html
// link is a page of the answer's making, and the app serves real files itself.
func (o Options) href(dest string) (string, bool) {
	if name, ok := sandboxName(dest); ok {
		if name == "" || o.RewriteSandboxLink == nil {
			return "", false
		}
		return o.RewriteSandboxLink(name)
	}
	if strings.TrimSpace(dest) == "" {
		return "", false // [text]() leads nowhere
	}
	switch scheme(dest) {
	case "", "http", "https", "mailto":
		return dest, true
	}
	return "", false
}

// image keeps an image only when it is one of the app's own files. A web image is fetched
// the moment the answer shows, which would let a prompt-injected answer send data to a URL
// of its choosing (or track the reader), so it becomes a link the reader may follow. A
// data: image is dropped for its alt text too: the code interpreter's charts arrive as
// sandbox files, inline images would swell every streamed re-render, and refusing them
// keeps SVG (which can carry script) out without sniffing MIME types.
func (o Options) image(n *ast.Image) {
	dest := string(n.Destination)
	if name, ok := sandboxName(dest); ok && name != "" && o.RewriteSandboxLink != nil {
		if href, ok := o.RewriteSandboxLink(name); ok {
			n.Destination = []byte(href)
			return
		}
	}
	switch scheme(dest) {
	case "http", "https":
		link := ast.NewLink()
		link.Destination, link.Title = n.Destination, n.Title
		moveChildren(link, n)
		n.Parent().ReplaceChild(n.Parent(), n, link)
	default:
		unwrap(n)
	}
}

// autoLink handles <sandbox:/mnt/data/x> and <javascript:…>: CommonMark accepts any scheme
// between angle brackets.
func (o Options) autoLink(n *ast.AutoLink, source []byte) {
	if n.AutoLinkType == ast.AutoLinkEmail {
		return
	}
	dest := string(n.URL(source))
	name, isSandbox := sandboxName(dest)
	href, ok := o.href(dest)
	label := dest
	if isSandbox && name != "" {
		label = name
	}
	var repl ast.Node = ast.NewString([]byte(label))
	if ok {
		if !isSandbox {
			return
		}
		link := ast.NewLink()
		link.Destination = []byte(href)
		link.AppendChild(link, repl)
		repl = link
	}
	n.Parent().ReplaceChild(n.Parent(), n, repl)
}

// sandboxName returns the file name dest cites in the container, "" if it names no file
// under /mnt/data, and false if dest does not point into the container at all. A bare
// /mnt/data path counts: left alone it would be a relative link to nothing in the app.
func sandboxName(dest string) (string, bool) {
	var path string
	switch {
	case strings.HasPrefix(dest, dataDir):
		path = dest
	case scheme(dest) == "sandbox":
		_, path, _ = strings.Cut(dest, ":")
	default:
		return "", false
	}
	name, ok := strings.CutPrefix(path, dataDir)
	if !ok {
		return "", true
	}
	// Models write both my%20file.csv and <my file.csv>; the app's names are unescaped.
	if unescaped, err := url.PathUnescape(name); err == nil {
		name = unescaped
	}
	return name, true
}

// scheme returns the lower-cased scheme of a URL, or "" for a relative one. Browsers ignore
// tabs, newlines and leading control characters in URLs ("java\tscript:"), so this does too.
func scheme(dest string) string {
	var b strings.Builder
	for i := 0; i < len(dest); i++ {
		c := dest[i]
		switch {
		case c <= ' ':
			continue
		case c == ':':
			return strings.ToLower(b.String())
		case c == '/' || c == '?' || c == '#':
			return ""
		case b.Len() == 0 && !isAlpha(c):
			return ""
		case !isAlpha(c) && !isDigit(c) && c != '+' && c != '-' && c != '.':
			return ""
		}
		b.WriteByte(c)
	}
	return ""
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unwrap replaces n by its children, keeping the text of a refused link or image.
func unwrap(n ast.Node) {
	parent := n.Parent()
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		parent.InsertBefore(parent, n, c)
		c = next
	}
	parent.RemoveChild(parent, n)
}

// moveChildren moves every child of from to the end of to.
func moveChildren(to, from ast.Node) {
	for c := from.FirstChild(); c != nil; {
		next := c.NextSibling()
		to.AppendChild(to, c)
		c = next
	}
}
