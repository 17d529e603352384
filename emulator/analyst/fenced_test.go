package analyst

import (
	"context"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	gmtext "github.com/yuin/goldmark/text"
)

// TestFencedReplyKeepsOutputOutOfTheMarkdown is issue 13 item 13: output
// with backticks, a heading or a link must never become markdown of the
// answer. The reply quotes only a one-line output without backticks, as
// inline code; the rest it points at (the page shows it under the cell).
func TestFencedReplyKeepsOutputOutOfTheMarkdown(t *testing.T) {
	for out, quoted := range map[string]bool{
		"plain": true,
		"```\n# Not a heading\n[link](https://evil.example)": false,
		"a ```` b\n`````":              false,
		"```":                          false,
		"# heading":                    true,
		"[link](https://evil.example)": true,
	} {
		turn := &Turn{Question: "```python\nprint(1)\n```", Cells: []Cell{{Code: "print(1)", Stdout: out}}}
		step, err := (&Rules{}).Next(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte(step.Text)
		doc := goldmark.New().Parser().Parse(gmtext.NewReader(src))
		var spans []string
		ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && (n.Kind() == ast.KindHeading || n.Kind() == ast.KindLink || n.Kind() == ast.KindFencedCodeBlock) {
				t.Errorf("output %q: a %s escaped into the reply %q", out, n.Kind(), step.Text)
			}
			if entering && n.Kind() == ast.KindCodeSpan {
				spans = append(spans, string(n.Text(src)))
			}
			return ast.WalkContinue, nil
		})
		if got := len(spans) == 1 && spans[0] == out; got != quoted {
			t.Errorf("output %q: quoted as %q in %q, want quoted=%v", out, spans, step.Text, quoted)
		}
	}
}

func TestFence(t *testing.T) {
	for in, want := range map[string]string{
		"x":       "```\nx\n```",
		"a``b":    "```\na``b\n```",
		"```":     "````\n```\n````",
		"`````x`": "``````\n`````x`\n``````",
	} {
		if got := Fence(in); got != want {
			t.Errorf("Fence(%q) = %q, want %q", in, got, want)
		}
	}
}
