package markdown

import (
	"strings"
	"testing"
)

func TestHighlight(t *testing.T) {
	tests := []struct {
		name, code, lang string
		want             []string
		wantNot          []string
	}{
		{"python", "import pandas as pd\ndf = pd.read_csv(\"x.csv\")  # load\nprint(len(df))\n", "python",
			[]string{`<pre class="chroma"><code>`, `<span class="kn">import</span>`, `<span class="s2">`,
				`<span class="c1"># load</span>`, `<span class="nb">print</span>`}, nil},
		{"alias and case", "x = 1\n", "Py", []string{`<span class="mi">1</span>`}, nil},
		{"unknown language is plain", "x = 1\n", "no-such-language",
			[]string{`<pre class="chroma"><code>`, "x = 1"}, []string{`class="mi"`}},
		{"no language", "<b>&</b>\n", "", []string{"&lt;b&gt;&amp;&lt;/b&gt;"}, []string{"<b>"}},
		{"markup in code escaped", "s = \"</code></pre><script>alert(1)</script>\"\n", "python",
			[]string{"&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;"}, []string{"<script>"}},
		{"too long to colour", strings.Repeat("x = 1\n", maxHighlight/6+1), "python",
			[]string{`<pre class="chroma"><code>`, "x = 1"}, []string{`class="mi"`}},
		{"no inline styles", "def f():\n    return 1\n", "python", []string{`class="nf"`}, []string{"style="}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Highlight(tt.code, tt.lang)
			checkHTML(t, got)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Highlight(%q, %q) = %q, want it to contain %q", tt.code, tt.lang, got, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Highlight(%q, %q) = %q, want no %q", tt.code, tt.lang, got, w)
				}
			}
		})
	}
}

// TestHighlight_policy guards splice: Render inserts highlighted code after sanitizing, which
// is only sound while the policy would let that HTML through unchanged anyway.
func TestHighlight_policy(t *testing.T) {
	tests := []struct{ code, lang string }{
		{readAnswer(t), "markdown"},
		{"import numpy as np\n@dataclass\nclass A:\n    x: int = 0x1F  # c\n    s = f'{x!r}' r'\\d' b'\\x00'\n", "python"},
		{"<div onclick=\"x\" style='y'>&amp;</div><script>alert(1)</script>", "html"},
		{"SELECT a, COUNT(*) FROM t WHERE b <> 'x' -- c\n", "sql"},
		{"{\"a\": [1, 2.5, null, true]}", "json"},
		{"diff\n-old\n+new\n", "diff"},
		{"ls -la | grep \"$HOME\" && echo `date`", "bash"},
		{"\x00\r\n\t\u2028", "python"},
	}
	for _, tt := range tests {
		got := Highlight(tt.code, tt.lang)
		if safe := policy().Sanitize(got); safe != got {
			t.Errorf("the policy changes Highlight(…, %q):\n got %q\nsafe %q", tt.lang, got, safe)
		}
	}
}

func TestRender_codeBlocks(t *testing.T) {
	src := "Before\n\n```python\nimport os\n```\n\n- item\n\n  ```sql\n  SELECT 1\n  ```\n\nPara\n\n    indented = True\n\n```\nplain & <raw>\n```\n"
	got := Render(src)
	checkHTML(t, got)
	want := []string{
		"<p>Before</p>", `<span class="kn">import</span>`,
		`<li>`, `<span class="k">SELECT</span>`, `</li>`,
		`indented`, `plain &amp; &lt;raw&gt;`,
	}
	rest := got
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("Render =\n%s\nwant, in order, %q", got, w)
		}
		rest = rest[i+len(w):]
	}
	if n := strings.Count(got, `<pre class="chroma">`); n != 4 {
		t.Errorf("got %d code blocks, want 4", n)
	}
}

func TestSplice_mismatch(t *testing.T) {
	// If the blocks and the page ever disagree, the page keeps its plain, escaped code.
	page := preOpen + "x" + preClose
	blocks := []codeBlock{{"x", "python"}, {"y", "python"}}
	if got := splice(page, blocks); got != page {
		t.Errorf("splice = %q, want the page unchanged", got)
	}
}

func TestHighlightCache(t *testing.T) {
	c := newHighlightCache(100)
	c.put("a", strings.Repeat("x", 20))
	c.put("b", strings.Repeat("y", 20))
	if _, ok := c.get("a"); !ok {
		t.Fatal("a missing right after put")
	}
	for _, k := range strings.Fields("c d e f g h i j k l") {
		c.put(k, strings.Repeat("z", 20))
	}
	if _, ok := c.get("b"); ok {
		t.Error("b still cached after two generations of newer entries")
	}
	c.put("huge", strings.Repeat("h", 100))
	if _, ok := c.get("huge"); ok {
		t.Error("an entry bigger than a quarter of the cache was kept")
	}
}
