package analyst

import (
	"context"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	gmtext "github.com/yuin/goldmark/text"
)

// TestFencedReplyKeepsOutputInOneBlock is issue 13 item 13: output with a
// run of backticks must stay inside the code block of the reply, not close
// it and turn the rest into markdown of the answer.
func TestFencedReplyKeepsOutputInOneBlock(t *testing.T) {
	for _, out := range []string{
		"plain",
		"```\n# Not a heading\n[link](https://evil.example)",
		"a ```` b\n`````",
		"```",
	} {
		turn := &Turn{Question: "```python\nprint(1)\n```", Cells: []Cell{{Code: "print(1)", Stdout: out}}}
		step, err := (&Rules{}).Next(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte(step.Text)
		doc := goldmark.New().Parser().Parse(gmtext.NewReader(src))
		var blocks []string
		ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if entering && (n.Kind() == ast.KindHeading || n.Kind() == ast.KindLink) {
				t.Errorf("output %q: a %s escaped the code block", out, n.Kind())
			}
			if cb, ok := n.(*ast.FencedCodeBlock); ok && entering {
				var b strings.Builder
				for i := 0; i < cb.Lines().Len(); i++ {
					seg := cb.Lines().At(i)
					b.Write(seg.Value(src))
				}
				blocks = append(blocks, b.String())
			}
			return ast.WalkContinue, nil
		})
		if len(blocks) != 1 || blocks[0] != out+"\n" {
			t.Errorf("output %q: code blocks %q, want exactly the output", out, blocks)
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
