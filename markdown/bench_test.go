package markdown

import (
	"os"
	"testing"
)

// BenchmarkRender renders a realistic 4 KB answer: two tables, a Python code block, lists and
// sandbox links. The app re-renders a streaming answer at a throttled pace, so this is paid
// many times per answer.
func BenchmarkRender(b *testing.B) {
	src, err := os.ReadFile("testdata/answer.md")
	if err != nil {
		b.Fatal(err)
	}
	opts := Options{RewriteSandboxLink: func(name string) (string, bool) { return "/artifacts/" + name, true }}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		opts.Render(string(src))
	}
}
