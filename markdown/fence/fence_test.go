package fence

import "testing"

func TestWrap(t *testing.T) {
	for in, want := range map[string]string{
		"x":       "```\nx\n```",
		"a``b":    "```\na``b\n```",
		"```":     "````\n```\n````",
		"`````x`": "``````\n`````x`\n``````",
	} {
		if got := Wrap(in, ""); got != want {
			t.Errorf("Wrap(%q) = %q, want %q", in, got, want)
		}
	}
}
