package chat

import (
	"os"
	"testing"
)

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
	dir := t.TempDir()
	write := func(name, content string) string {
		p := dir + "/" + name
		if err := writeTestFile(p, content); err != nil {
			t.Fatal(err)
		}
		return p
	}
	png := write("a", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	fake := write("b", "<svg onload=alert(1)>")
	for _, tc := range []struct{ name, file, ct, kind string }{
		{"chart.png", png, "image/png", "image"},
		{"chart.png", fake, "application/octet-stream", "file"},
		{"drawing.svg", fake, "image/svg+xml", "file"},
		{"table.csv", fake, "text/csv", "file"},
	} {
		ct, kind := contentType(tc.name, tc.file)
		if ct != tc.ct || kind != tc.kind {
			t.Errorf("contentType(%s) = %s %s, want %s %s", tc.name, ct, kind, tc.ct, tc.kind)
		}
	}
}

func writeTestFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
