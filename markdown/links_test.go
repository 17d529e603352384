package markdown

import (
	"strings"
	"testing"
)

func TestOptions_Render_sandbox(t *testing.T) {
	known := map[string]string{
		"chart.png":       "/artifacts/7",
		"my report.xlsx":  "/artifacts/8",
		"out/summary.csv": "/artifacts/9",
	}
	var asked []string
	opts := Options{RewriteSandboxLink: func(name string) (string, bool) {
		asked = append(asked, name)
		href, ok := known[name]
		return href, ok
	}}
	tests := []struct {
		name    string
		src     string
		want    string
		wantAsk string // the name the hook must have been asked about, if any
	}{
		{"known link", "[chart](sandbox:/mnt/data/chart.png)",
			`<p><a href="/artifacts/7">chart</a></p>`, "chart.png"},
		{"unknown link is text", "Download [the data](sandbox:/mnt/data/gone.csv).",
			"<p>Download the data.</p>", "gone.csv"},
		{"percent-encoded name", "[report](sandbox:/mnt/data/my%20report.xlsx)",
			`<p><a href="/artifacts/8">report</a></p>`, "my report.xlsx"},
		{"bracketed name with a space", "[report](<sandbox:/mnt/data/my report.xlsx>)",
			`<p><a href="/artifacts/8">report</a></p>`, "my report.xlsx"},
		{"raw name with a space", "[my report.xlsx](sandbox:/mnt/data/my report.xlsx)",
			`<p><a href="/artifacts/8">my report.xlsx</a></p>`, "my report.xlsx"},
		{"raw unknown image with a space", "![a chart](sandbox:/mnt/data/units per month.png)",
			"<p>a chart</p>", "units per month.png"},
		{"subdirectory", "[s](sandbox:/mnt/data/out/summary.csv)",
			`<p><a href="/artifacts/9">s</a></p>`, "out/summary.csv"},
		{"known image", "![Revenue by region](sandbox:/mnt/data/chart.png)",
			`<p><img src="/artifacts/7" alt="Revenue by region"></p>`, "chart.png"},
		{"unknown image is its alt text", "![Revenue by region](sandbox:/mnt/data/old.png)",
			"<p>Revenue by region</p>", "old.png"},
		{"known autolink", "<sandbox:/mnt/data/chart.png>",
			`<p><a href="/artifacts/7">chart.png</a></p>`, "chart.png"},
		{"unknown autolink", "<sandbox:/mnt/data/old.png>", "<p>old.png</p>", "old.png"},
		{"outside /mnt/data", "[x](sandbox:/etc/passwd)", "<p>x</p>", ""},
		{"bare /mnt/data path", "[chart](/mnt/data/chart.png)", `<p><a href="/artifacts/7">chart</a></p>`, "chart.png"},
		{"bare unknown path", "![old](/mnt/data/old.png)", "<p>old</p>", "old.png"},
		{"upper-case scheme", "[c](SANDBOX:/mnt/data/chart.png)", `<p><a href="/artifacts/7">c</a></p>`, "chart.png"},
		{"formatted label kept", "[**the** chart](sandbox:/mnt/data/none.png)",
			"<p><strong>the</strong> chart</p>", "none.png"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked = nil
			got := strings.TrimSpace(opts.Render(tt.src))
			if got != tt.want {
				t.Errorf("Render(%q)\n got %q\nwant %q", tt.src, got, tt.want)
			}
			checkHTML(t, got)
			switch {
			case tt.wantAsk == "" && len(asked) > 0:
				t.Errorf("hook asked about %q, want no call", asked)
			case tt.wantAsk != "" && (len(asked) != 1 || asked[0] != tt.wantAsk):
				t.Errorf("hook asked about %q, want [%s]", asked, tt.wantAsk)
			}
		})
	}
}

func TestRender_sandboxWithoutHook(t *testing.T) {
	got := strings.TrimSpace(Render("See [chart.png](sandbox:/mnt/data/chart.png) and ![c](sandbox:/mnt/data/c.png)"))
	want := "<p>See chart.png and c</p>"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestScheme(t *testing.T) {
	tests := []struct{ url, want string }{
		{"https://example.org", "https"},
		{"HTTP://example.org", "http"},
		{"/artifacts/1", ""},
		{"artifacts/1:2", ""},
		{"#top", ""},
		{"?q=a:b", ""},
		{"javascript:alert(1)", "javascript"},
		{" \tjava\nscript:alert(1)", "javascript"},
		{"sandbox:/mnt/data/x", "sandbox"},
		{"1abc:x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := scheme(tt.url); got != tt.want {
			t.Errorf("scheme(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}
