package analyst

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// replyCase is a question and what its reply must hold: want opens the reply (or, with
// anywhere, appears in it), and not must not appear.
type replyCase struct {
	q, want, not string
	anywhere     bool
}

// askEach loads one CSV file into a fresh sandbox kernel and asks each case in turn.
func askEach(t *testing.T, file, csv string, cases []replyCase) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{file}
	k := newKernelFrom(t, dir, files)
	k.exec(profileCode(files, ""))
	for _, c := range cases {
		reply, _, failed := k.ask(c.q, nil, files)
		holds := strings.HasPrefix(reply, c.want)
		if c.anywhere {
			holds = strings.Contains(reply, c.want)
		}
		if failed != "" || !holds || c.not != "" && strings.Contains(reply, c.not) {
			t.Errorf("%q:\n got %s %s\nwant %s (not %q)", c.q, reply, failed, c.want, c.not)
		}
	}
}
