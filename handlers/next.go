package handlers

import (
	"net/url"
	"strings"
)

// maxNextLen bounds the return address kept through the sign-in form.
const maxNextLen = 2048

// safeNext returns next if it is a path on this site, and "/" otherwise, so
// the sign-in form cannot send people elsewhere (an open redirect).
func safeNext(next string) string {
	if !isLocalPath(next) {
		return "/"
	}
	return next
}

// isLocalPath reports whether p is an absolute path on this site and
// nothing a browser could read as another site. Browsers forgive a lot in
// a URL: they drop tabs and newlines ("/\t/evil" becomes "//evil"), read a
// backslash as a slash ("/\evil"), and take "//host" as a host. So only
// printable ASCII is accepted (the app's own return addresses are escaped
// request URIs, which are), a single leading slash, and a URL with neither
// scheme nor host, even once its path is decoded.
func isLocalPath(p string) bool {
	if len(p) == 0 || len(p) > maxNextLen || p[0] != '/' || strings.HasPrefix(p, "//") {
		return false
	}
	for i := 0; i < len(p); i++ {
		if b := p[i]; b <= ' ' || b >= 0x7f || b == '\\' {
			return false
		}
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" {
		return false
	}
	// "/%2F/evil" is harmless to a browser, but a proxy that decodes
	// before redirecting would make it "//evil".
	return !strings.HasPrefix(u.Path, "//") && !strings.Contains(u.Path, "\\")
}
