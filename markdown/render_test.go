package markdown

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestRender_unsafe(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string // substrings of the output
		wantNot []string
	}{
		{"script block", "<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"<script"}},
		{"inline script", "a <script>alert(1)</script> b", []string{"a &lt;script&gt;"}, []string{"<script"}},
		{"img onerror", `<img src=x onerror=alert(1)>`, []string{"&lt;img src=x onerror=alert(1)&gt;"}, []string{"<img"}},
		{"svg onload", "text <svg onload=alert(1)>", nil, []string{"<svg"}},
		{"iframe", `<iframe src="https://evil.example"></iframe>`, nil, []string{"<iframe"}},
		{"style element", "<style>body{display:none}</style>", nil, []string{"<style"}},
		{"raw anchor", `<a href="javascript:alert(1)">x</a>`, nil, []string{"<a "}},
		{"javascript link", "[click](javascript:alert(1))", []string{"<p>click</p>"}, []string{"<a"}},
		{"mixed case scheme", "[click](JaVaScRiPt:alert(1))", []string{"click"}, []string{"<a"}},
		{"tab in scheme", "[click](java&#09;script:alert(1))", []string{"click"}, []string{"<a"}},
		{"vbscript link", "[click](vbscript:msgbox(1))", []string{"click"}, []string{"<a"}},
		{"file link", "[passwd](file:///etc/passwd)", []string{"passwd"}, []string{"<a"}},
		{"javascript autolink", "<javascript:alert(1)>", []string{"javascript:alert(1)"}, []string{"<a"}},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", []string{"<p>x</p>"}, []string{"<a", "data:"}},
		{"data image", "![a chart](data:image/png;base64,iVBORw0KGgo=)", []string{"a chart"}, []string{"<img", "data:"}},
		{"svg data image", "![x](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)", nil, []string{"<img", "data:"}},
		{"external image", "![pixel](https://evil.example/p.png?q=secret)", []string{`<a href="https://evil.example/p.png?q=secret"`, ">pixel</a>"}, []string{"<img"}},
		{"title breakout", `[x](https://a.example "\" onmouseover=\"alert(1)")`, []string{`<a href="https://a.example"`}, nil},
		{"entity in href", "[x](&#x6A;avascript:alert(1))", []string{"x"}, []string{"<a"}},
		{"html comment", "a <!-- secret --> b", nil, []string{"<!--"}},
		{"code span", "`<script>`", []string{"<code>&lt;script&gt;</code>"}, nil},
		{"script in code block", "```html\n<script>alert(1)</script>\n```", []string{"&lt;", "script"}, []string{"<script"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src)
			checkHTML(t, got)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Render(%q) = %q, want it to contain %q", tt.src, got, w)
				}
			}
			for _, w := range tt.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Render(%q) = %q, want no %q", tt.src, got, w)
				}
			}
		})
	}
}

func TestRender_links(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"external", "[docs](https://pandas.pydata.org/docs/)",
			`<p><a href="https://pandas.pydata.org/docs/" rel="nofollow noreferrer noopener" target="_blank">docs</a></p>`},
		{"empty destination", "[nothing]()", "<p>nothing</p>"},
		{"relative stays in the tab", "[home](/conversations)", `<p><a href="/conversations">home</a></p>`},
		{"bare URL", "see www.example.org now",
			`<p>see <a href="http://www.example.org" rel="nofollow noreferrer noopener" target="_blank">www.example.org</a> now</p>`},
		{"email", "mail a@example.org", `<p>mail <a href="mailto:a@example.org">a@example.org</a></p>`},
		{"br in text", "one<br>two<br/>three", "<p>one<br>two<br>three</p>"},
		{"GFM", "~~old~~ **new**", "<p><del>old</del> <strong>new</strong></p>"},
		{"single tildes are ranges", "5~10 and 20~30, ~5%", "<p>5~10 and 20~30, ~5%</p>"},
		{"three tildes are text", "a ~~~b~~~ c", "<p>a ~~~b~~~ c</p>"},
		{"task list", "- [x] done\n- [ ] todo",
			"<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n</ul>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.TrimSpace(Render(tt.src))
			if got != tt.want {
				t.Errorf("Render(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
			checkHTML(t, got)
		})
	}
}

func TestRender_partial(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unclosed fence", "Code:\n\n```python\nx = 1\nprint(x", `<pre class="chroma"><code>`},
		{"fence marker only", "```", `<pre class="chroma"><code>`},
		{"half a fence marker", "``", "<p>``</p>"},
		{"header row only", "| a | b |", "<p>| a | b |</p>"},
		{"half a delimiter row", "| a | b |\n|---|-", "<table>"},
		{"short row", "| a | b |\n|---|---|\n| 1", "<td class=\"num\">1</td>"},
		{"unclosed emphasis", "**bold", "<p>**bold</p>"},
		{"unclosed link", "[chart](sandbox:/mnt/da", "<p>[chart](sandbox:/mnt/da</p>"},
		{"unclosed html", "<div>\n<p>", "&lt;div&gt;"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src)
			checkHTML(t, got)
			if !strings.Contains(got, tt.want) {
				t.Errorf("Render(%q) = %q, want it to contain %q", tt.src, got, tt.want)
			}
		})
	}
}

// TestRender_everyPrefix renders the sample answer as it would look at many points while it
// streams, each of which must be balanced, safe HTML.
func TestRender_everyPrefix(t *testing.T) {
	src := readAnswer(t)
	step := 5
	if testing.Short() {
		step = 97
	}
	for i := 0; i <= len(src); i += step {
		if err := htmlProblem(Render(src[:i])); err != nil {
			t.Fatalf("prefix of %d bytes: %v\n%s", i, err, src[:i])
		}
	}
}

func TestRender_longLines(t *testing.T) {
	line := strings.Repeat("df_long_column_name + ", 2000) // 44,000 bytes, no newline
	tests := []struct {
		name, src, want string
	}{
		{"paragraph", line, strings.TrimSpace(line)},
		{"code", "```python\n" + line + "\n```", "df_long_column_name"},
		{"table cell", "| a |\n|---|\n| " + line + " |", "<td>" + strings.TrimSpace(line) + "</td>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Render(tt.src)
			checkHTML(t, got)
			if !strings.Contains(got, tt.want) {
				t.Errorf("Render of a %d-byte line lost text", len(line))
			}
			if n := strings.Count(got, "df_long_column_name"); n != 2000 {
				t.Errorf("got %d copies of the name, want 2000", n)
			}
		})
	}
}

// TestRender_golden keeps the whole rendering of a sample answer under review; run with
// -update after an intended change and read the diff.
func TestRender_golden(t *testing.T) {
	got := artifactLinks.Render(readAnswer(t))
	checkHTML(t, got)
	compareGolden(t, "testdata/answer.html", got)
}

func TestRender_concurrent(t *testing.T) {
	// Each goroutine renders its own code, so lexing and the cache race too, not only
	// cache hits; run with -race.
	src := readAnswer(t)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 5 {
				own := fmt.Sprintf("%s\n```python\nx_%d_%d = %d\n```\n", src, g, i, i)
				got := artifactLinks.Render(own)
				if !strings.Contains(got, fmt.Sprintf(`<span class="n">x_%d_%d</span>`, g, i)) {
					t.Errorf("goroutine %d, round %d: own code block missing", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
}

// artifactLinks points every sandbox file at /artifacts/<name>.
var artifactLinks = Options{RewriteSandboxLink: func(name string) (string, bool) {
	return "/artifacts/" + name, true
}}

func readAnswer(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// compareGolden fails t if the file at path does not hold got, or rewrites it with -update.
func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./markdown -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s is out of date; run go test ./markdown -update and review the diff", path)
	}
}
