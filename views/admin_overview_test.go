package views

import (
	"context"
	"strings"
	"testing"
)

// TestSandboxCardNamesTheTemplate: with kernels forked from a template,
// the card says the template's memory counts once beside each kernel's, so
// that "in use" with no kernel running does not read as a leak.
func TestSandboxCardNamesTheTemplate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		template string
		want     []string
	}{
		{"141 MB", []string{"fork from a template", "141 MB, counted once", "a kernel takes about 6 MB more", "the budget holds about 40 at once"}},
		{"", []string{"A kernel takes about 6 MB,", "the budget holds about 40 at once"}},
	} {
		var b strings.Builder
		card := SandboxCard{Budget: "400 MB", Used: "160 MB", KernelSize: "6 MB", Template: tc.template, Capacity: 40}
		if err := sandboxCard(card).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(b.String()), " ")
		for _, w := range tc.want {
			if !strings.Contains(text, w) {
				t.Errorf("template %q: the card lacks %q:\n%s", tc.template, w, text)
			}
		}
		if tc.template == "" && strings.Contains(text, "template") {
			t.Errorf("no template, yet the card names one:\n%s", text)
		}
	}
}
