package analyst

import (
	"context"
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/markdown/fence"
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

// TestFencedBlocks reads fences as CommonMark does: a longer fence holds
// code with ``` in it, a closing fence must be a line of its own, other
// languages do not run, and a fence typed at the end of the last line of
// an unclosed block is not code.
func TestFencedBlocks(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"```python\nprint(1)\n```", []string{"print(1)"}},
		{"Run this:\n\n```py\na = 1\n\nb = 2\n```\nthen\n```python3\nprint(a + b)\n```", []string{"a = 1\n\nb = 2", "print(a + b)"}},
		{"````python\nprint('```')\nx = \"```\"\n````", []string{"print('```')\nx = \"```\""}},
		{"```python\ns = '''\n```\n'''\n```", []string{"s = '''"}},
		{"```sql\nselect 1\n```\n```python\nprint(2)\n```", []string{"print(2)"}},
		{"```python\r\nprint(3)\r\n```", []string{"print(3)"}},
		{"```python\nprint(4)```", []string{"print(4)"}},
		{"```python\nprint(5)\n", []string{"print(5)\n"}},
		{"no code here", nil},
	} {
		if got := FencedBlocks(tc.text); !slices.Equal(got, tc.want) {
			t.Errorf("FencedBlocks(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
	code := "print('```')\nprint(\"````\")"
	if got := FencedBlocks(fence.Wrap(code, "python")); len(got) != 1 || got[0] != code {
		t.Errorf("a fence from markdown.Fence gave %q, want the code back", got)
	}
}
