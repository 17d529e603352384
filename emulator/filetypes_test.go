package emulator

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst"
)

// TestEveryListedTypeThroughTheAPI is issue 38 item 2 on the user's path: each type the Code
// Interpreter article lists (and .xls) is uploaded through POST /files, attached to a turn, and
// answered by the built-in analyst with what the file is — never "no data file to analyse".
// The analyst's own tests ask a plain question of each (emulator/analyst/docs_sandbox_test.go).
func TestEveryListedTypeThroughTheAPI(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.Planner = AnalystPlanner(&analyst.Rules{}) })
	ts.createAgent("analyst")
	dir := filepath.Join("analyst", "testdata", "docs")
	for _, tc := range []struct{ file, says string }{
		{"notes.md", "a Markdown file of"}, {"minutes.txt", "a text file of"}, {"paper.tex", "a TeX file of"},
		{"etl.py", "a Python source file"}, {"app.js", "a JavaScript source file"}, {"app.ts", "a TypeScript source file"},
		{"Main.java", "a Java source file"}, {"stats.c", "a C source file"}, {"grid.cpp", "a C++ source file"},
		{"index.php", "a PHP source file"}, {"report.rb", "a Ruby source file"}, {"style.css", "a CSS source file"},
		{"page.html", "an HTML file"}, {"catalog.xml", "an XML file"}, {"policy.docx", "a Word document"},
		{"deck.pptx", "a PowerPoint deck"}, {"report.pdf", "a PDF document"}, {"logo.png", "a PNG image"},
		{"photo.jpg", "a JPEG image"}, {"spinner.gif", "a GIF image"}, {"bundle.zip", "a ZIP archive"},
		{"bundle.tar", "a TAR archive"}, {"history.xls", "has 3 rows"},
	} {
		content, err := os.ReadFile(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		id := ts.upload(tc.file, string(content))
		conv := ts.json("POST", "/openai/v1/conversations", map[string]any{}, http.StatusOK)
		events := ts.stream(turnBody("analyst", map[string]any{"conversation": conv["id"], "input": "what is in " + tc.file + "?",
			"structured_inputs": map[string]any{"f1": id, "f2": ""}}))
		reply := replyText(lastResponse(t, events))
		if !strings.Contains(reply, tc.says) || strings.Contains(reply, "no data file") {
			t.Errorf("%s: the reply does not say %q:\n%s", tc.file, tc.says, reply)
		}
	}
}

// replyText is the text of a response's last message.
func replyText(resp map[string]any) string {
	out, _ := resp["output"].([]any)
	for i := len(out) - 1; i >= 0; i-- {
		if get(out[i], "type") == "message" {
			text, _ := get(out[i], "content", 0, "text").(string)
			return text
		}
	}
	return ""
}
