package handlers

import (
	"net/url"
	"strings"
	"testing"
)

func TestSafeNext(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/", "/"},
		{"/conversations/abc", "/conversations/abc"},
		{"/conversations?q=a%20b&after=x", "/conversations?q=a%20b&after=x"},
		{"/admin/users#top", "/admin/users#top"},
		{"", "/"},
		{"conversations", "/"},
		{"//evil.example", "/"},
		{"///evil.example", "/"},
		{"/\\evil.example", "/"},
		{"/\t/evil.example/x", "/"},
		{"/\r\n/evil.example", "/"},
		{"/ /evil.example", "/"},
		{"/\u00a0/evil.example", "/"},
		{"/\x00", "/"},
		{"https://evil.example", "/"},
		{"https:evil.example", "/"},
		{"javascript:alert(1)", "/"},
		{"/%2F/evil.example", "/"},
		{"/%2f%2fevil.example", "/"},
		{"/%5Cevil.example", "/"},
		{"/" + strings.Repeat("a", maxNextLen), "/"},
	} {
		if got := safeNext(tc.in); got != tc.want {
			t.Errorf("safeNext(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzSafeNext checks that whatever safeNext lets through, a browser
// resolves on this site, even read as leniently as browsers read URLs:
// tabs and newlines dropped, backslashes taken for slashes.
func FuzzSafeNext(f *testing.F) {
	for _, s := range []string{"/", "/a?b=c#d", "//x", "/\\x", "/\t/x", "https:x", "/%2F/x", "/%09/x", "/..//x", "/\u3000x"} {
		f.Add(s)
	}
	base, _ := url.Parse("https://app.example/login")
	f.Fuzz(func(t *testing.T, next string) {
		got := safeNext(next)
		if got == "/" {
			return
		}
		if got != next {
			t.Fatalf("safeNext(%q) = %q: neither the input nor /", next, got)
		}
		lenient := strings.NewReplacer("\t", "", "\n", "", "\r", "", "\\", "/").Replace(strings.TrimSpace(got))
		for _, s := range []string{got, lenient} {
			u, err := url.Parse(s)
			if err != nil {
				t.Fatalf("safeNext let %q through, which does not parse: %v", s, err)
			}
			if r := base.ResolveReference(u); r.Host != base.Host || r.Scheme != base.Scheme {
				t.Fatalf("safeNext let %q through, which leads to %s", next, r)
			}
			if unescaped, err := url.PathUnescape(u.Path); err == nil && strings.HasPrefix(unescaped, "//") {
				t.Fatalf("safeNext let %q through, whose decoded path starts with //", next)
			}
		}
	})
}
