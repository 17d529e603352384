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
// answered by the built-in analyst with what the file is — never "no data file to analyse" —
// and then a plain question about it, in the same conversation.
func TestEveryListedTypeThroughTheAPI(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.Planner = AnalystPlanner(&analyst.Rules{}) })
	ts.createAgent("analyst")
	dir := filepath.Join("analyst", "testdata", "docs")
	for _, tc := range []struct{ file, says, ask, answer string }{
		{"notes.md", "a Markdown file of", "what does it say about the budget?", "budget review is in June"},
		{"minutes.txt", "a text file of", "does it mention Leeds?", "**Yes**"},
		{"paper.tex", "a TeX file of", "how many sections are there?", "**3 headings**"},
		{"etl.py", "a Python source file", "which functions does it define?", "`clean`"},
		{"app.js", "a JavaScript source file", "what does it import?", "`fs/promises`"},
		{"app.ts", "a TypeScript source file", "how many lines are there?", "**7 lines**"},
		{"Main.java", "a Java source file", "list the classes", "`Main`"},
		{"stats.c", "a C source file", "what does it include?", "`stats.h`"},
		{"grid.cpp", "a C++ source file", "how many functions does it define?", "**3 functions**"},
		{"index.php", "a PHP source file", "what does it say about Ana?", "greet(\"Ana\")"},
		{"report.rb", "a Ruby source file", "show the first 3 lines", "require_relative 'helpers'"},
		{"style.css", "a CSS source file", "how many lines are there?", "**4 lines**"},
		{"page.html", "an HTML file", "what does it say about Leeds?", "budget was met in Leeds"},
		{"catalog.xml", "an XML file", "how many books are there?", "**3** rows"},
		{"policy.docx", "a Word document", "what does it say about trains?", "trips under four hours"},
		{"deck.pptx", "a PowerPoint deck", "what does it say about the budget?", "cut the budget for travel"},
		{"report.pdf", "a PDF document", "how many pages does it have?", "**2 pages**"},
		{"logo.png", "a PNG image", "how big is the image?", "**40 × 20 pixels**"},
		{"photo.jpg", "a JPEG image", "what are its main colours?", "(75%)"},
		{"spinner.gif", "a GIF image", "how big is it?", "**16 × 16 pixels**"},
		{"bundle.zip", "a ZIP archive", "how many rows are in bundle.zip/sales.csv?", "3 rows"},
		{"bundle.tar", "a TAR archive", "total sales", "35"},
		{"history.xls", "has 3 rows", "how many rows are in history.xls:2024?", "**3 rows**"},
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
		events = ts.stream(turnBody("analyst", map[string]any{"conversation": conv["id"], "input": tc.ask,
			"structured_inputs": map[string]any{"f1": id, "f2": ""}}))
		if reply := replyText(lastResponse(t, events)); !strings.Contains(reply, tc.answer) {
			t.Errorf("%s, %q: the reply does not say %q:\n%s", tc.file, tc.ask, tc.answer, reply)
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
