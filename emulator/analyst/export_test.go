package analyst

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoaderOutsideTheEngineRunsClean runs the loading cell and a result
// line with Python outside the workbench's kernel, as an exported notebook
// is run in Jupyter: the files load, and no engine marker (@@wb…) is
// printed.
func TestLoaderOutsideTheEngineRunsClean(t *testing.T) {
	// Debian's Python, with the data packages the sandbox runs too.
	const python = "/usr/bin/python3"
	if _, err := os.Stat(python); err != nil {
		t.Skip("no " + python)
	}
	dir := t.TempDir()
	csv := filepath.Join(dir, "prices.csv")
	if err := os.WriteFile(csv, []byte("Date,Close\n2024-01-01,10\n2024-01-02,12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code := "FILES = [" + pyStr(csv) + "]\n" + loaderPy + "\n_emit(\"size\", rows=len(frames[" + pyStr(csv) + "]))\nprint('rows', len(frames[" + pyStr(csv) + "]))\n"
	out, err := exec.Command(python, "-c", code).CombinedOutput()
	if err != nil {
		t.Fatalf("the loader fails outside the engine: %v\n%s", err, out)
	}
	if s := string(out); strings.Contains(s, "@@wb") || !strings.Contains(s, "rows 2") {
		t.Fatalf("outside the engine the cells print:\n%s", s)
	}
}
