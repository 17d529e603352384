package markdown

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// allowedElements is every element Render may produce.
var allowedElements = []string{
	"p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li",
	"em", "strong", "del", "code", "pre", "span", "a", "img", "input",
	"table", "thead", "tbody", "tr", "th", "td",
}

// voidElements have no end tag.
var voidElements = []string{"br", "hr", "img", "input"}

// checkHTML fails t unless s is balanced HTML made only of allowed elements, without event
// handlers, style attributes or URLs of a scheme other than http, https and mailto.
func checkHTML(t *testing.T, s string) {
	t.Helper()
	if err := htmlProblem(s); err != nil {
		t.Errorf("%v in:\n%s", err, s)
	}
}

// htmlProblem returns what is wrong with s, or nil.
func htmlProblem(s string) error {
	z := html.NewTokenizer(strings.NewReader(s))
	var open []string
	for {
		switch z.Next() {
		case html.ErrorToken:
			if !errors.Is(z.Err(), io.EOF) {
				return z.Err()
			}
			if len(open) > 0 {
				return errors.New("unclosed <" + strings.Join(open, "> <") + ">")
			}
			return nil
		case html.CommentToken, html.DoctypeToken:
			return errors.New("comment or doctype")
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if err := tagProblem(tok); err != nil {
				return err
			}
			if !slices.Contains(voidElements, tok.Data) {
				open = append(open, tok.Data)
			}
		case html.EndTagToken:
			tok := z.Token()
			if len(open) == 0 || open[len(open)-1] != tok.Data {
				return errors.New("unbalanced </" + tok.Data + ">")
			}
			open = open[:len(open)-1]
		}
	}
}

// tagProblem returns what is wrong with one start tag, or nil.
func tagProblem(tok html.Token) error {
	if !slices.Contains(allowedElements, tok.Data) {
		return errors.New("element <" + tok.Data + ">")
	}
	for _, a := range tok.Attr {
		switch {
		case strings.HasPrefix(a.Key, "on"), a.Key == "style", a.Key == "id":
			return errors.New("attribute " + a.Key + " on <" + tok.Data + ">")
		case a.Key == "href" || a.Key == "src":
			switch scheme(a.Val) {
			case "", "http", "https", "mailto":
			default:
				return errors.New("URL " + a.Val)
			}
		}
	}
	return nil
}

func TestCheckHTML(t *testing.T) {
	// The checker must be able to fail, or the tests that lean on it prove nothing.
	bad := []string{
		`<p>`, `</p>`, `<p><em></p></em>`, `<script></script>`, `<p onclick="x"></p>`,
		`<p style="color:red"></p>`, `<a href="javascript:alert(1)">x</a>`, `<iframe></iframe>`,
		`<img src="data:image/png;base64,AAAA">`, `<!-- x -->`,
	}
	for _, s := range bad {
		if htmlProblem(s) == nil {
			t.Errorf("htmlProblem(%q) = nil, want a problem", s)
		}
	}
	good := `<p>a<br><a href="/artifacts/1">b</a> <img src="https://x/y.png" alt=""></p>`
	if err := htmlProblem(good); err != nil {
		t.Errorf("htmlProblem(%q) = %v, want nil", good, err)
	}
}
