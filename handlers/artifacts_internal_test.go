package handlers

import (
	"mime"
	"strings"
	"testing"
)

// TestContentDisposition is issue 13 item 13: whatever the name, the
// header has one filename and one filename* at most, even to a parser that
// splits at every ";", and gives the exact name back.
func TestContentDisposition(t *testing.T) {
	for _, tc := range []struct{ name, fallback string }{
		{"chart.png", "chart.png"},
		{`a"; filename="evil.html`, `a__ filename=_evil.html`},
		{"résumé chart.png", "r_sum_ chart.png"},
		{`back\slash/and%25.csv`, "back_slash_and_25.csv"},
		{"tab\there.csv", "tab_here.csv"},
	} {
		header := contentDisposition(false, tc.name)
		var plain, ext []string
		for _, p := range strings.Split(header, ";") {
			p = strings.TrimSpace(p)
			if strings.HasPrefix(p, "filename=") {
				plain = append(plain, p)
			}
			if strings.HasPrefix(p, "filename*=") {
				ext = append(ext, p)
			}
		}
		if len(plain) != 1 || len(ext) > 1 {
			t.Errorf("%q: header %q splits into filename %q and filename* %q", tc.name, header, plain, ext)
		}
		kind, params, err := mime.ParseMediaType(header)
		if err != nil || kind != "attachment" || params["filename"] != tc.name {
			t.Errorf("%q: header %q parses as %q %q, %v", tc.name, header, kind, params, err)
		}
		withoutExt, _, _ := strings.Cut(header, "; filename*=")
		if _, params, _ := mime.ParseMediaType(withoutExt); params["filename"] != tc.fallback {
			t.Errorf("%q: fallback %q, want %q", tc.name, params["filename"], tc.fallback)
		}
	}
	if got := contentDisposition(true, "x.png"); got != `inline; filename=x.png` {
		t.Errorf("inline: %q", got)
	}
}
