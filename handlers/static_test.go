package handlers_test

import (
	"os"
	"testing"

	"github.com/analyst-workbench/workbench/markdown"
)

// TestCodeCSSIsCurrent keeps static/css/code.css equal to what the markdown
// package generates for its highlighted code.
func TestCodeCSSIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../static/css/code.css")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != markdown.CodeCSS() {
		t.Fatal("static/css/code.css is stale: regenerate it with `make code-css`")
	}
}
