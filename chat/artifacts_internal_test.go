package chat

import "testing"

func TestSafeNameKeepsOnlyTheLastElement(t *testing.T) {
	for in, want := range map[string]string{
		"chart.png":                 "chart.png",
		"/mnt/data/out/chart.png":   "chart.png",
		"../../etc/passwd":          "passwd",
		`..\..\windows\system.ini`:  "system.ini",
		"..":                        "cfile_1",
		"/":                         "cfile_1",
		"   ":                       "cfile_1",
		"résumé – données.xlsx":     "résumé – données.xlsx",
		"link-to-secret -> /etc/sh": "sh",
	} {
		if got := safeName(in, "cfile_1"); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestContentTypeTrustsOnlyRealImages(t *testing.T) {
	png, fake := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "<svg onload=alert(1)>"
	for _, tc := range []struct{ name, head, ct, kind string }{
		{"chart.png", png, "image/png", "image"},
		{"chart.png", fake, "application/octet-stream", "file"},
		{"drawing.svg", fake, "image/svg+xml", "file"},
		{"table.csv", fake, "text/csv", "file"},
	} {
		ct, kind := contentType(tc.name, []byte(tc.head))
		if ct != tc.ct || kind != tc.kind {
			t.Errorf("contentType(%s) = %s %s, want %s %s", tc.name, ct, kind, tc.ct, tc.kind)
		}
	}
}
