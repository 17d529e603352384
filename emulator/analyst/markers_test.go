package analyst

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// emittedKind finds the marker kinds the generated Python prints: _emit("kind", …) in the Go
// that writes cells (quoted for a format string) and in the loader.
var emittedKind = regexp.MustCompile(`_emit\(\\?"([a-z0-9_]+)\\?"(?:, step=\\?"([a-z0-9_]+))?`)

// TestEveryEmittedMarkerHasItsSentence pins the contract between the Go that writes Python
// and the Go that writes the reply: a kind the cells print but no sentence knows would be
// dropped from the answer without a word.
func TestEveryEmittedMarkerHasItsSentence(t *testing.T) {
	t.Parallel()
	sources, _ := filepath.Glob("*.go")
	sources = append(sources, "loader.py")
	kinds := map[[2]string]string{} // kind and, for a preparation, its step
	for _, f := range sources {
		if filepath.Ext(f) == ".go" && len(f) > 8 && f[len(f)-8:] == "_test.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range emittedKind.FindAllStringSubmatch(string(b), -1) {
			kinds[[2]string{m[1], m[2]}] = f
		}
	}
	if len(kinds) < 30 {
		t.Fatalf("found only %d marker kinds; has the way cells emit them changed?", len(kinds))
	}
	for k, f := range kinds {
		m := marker{"kind": k[0]}
		if k[1] != "" {
			m["step"] = k[1]
		}
		if sentence(m) == "" {
			t.Errorf("%s emits marker kind %q (step %q), but no sentence says it", f, k[0], k[1])
		}
	}
	if sentence(marker{"kind": "no-such-kind"}) != "" {
		t.Error("an unknown kind has a sentence: the test above proves nothing")
	}
}
