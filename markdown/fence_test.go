package markdown

import "testing"

func TestFence(t *testing.T) {
	for in, want := range map[string]string{
		"x":       "```\nx\n```",
		"a``b":    "```\na``b\n```",
		"```":     "````\n```\n````",
		"`````x`": "``````\n`````x`\n``````",
	} {
		if got := Fence(in, ""); got != want {
			t.Errorf("Fence(%q) = %q, want %q", in, got, want)
		}
	}
}
