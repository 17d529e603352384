package analyst

import "testing"

// TestReadDocQuestion_TablesKeepTheirQuestions: with a table and documents attached, a
// question about the table's columns stays with the table even when a word of it also names a
// kind of document; one that names a document, or asks what only documents have, goes to them.
func TestReadDocQuestion_TablesKeepTheirQuestions(t *testing.T) {
	p := &Profile{
		Frames: []Frame{{Key: "sales.csv", File: "sales.csv", Rows: 3, Columns: []Column{
			{Name: "product code", Kind: "cat", Values: []string{"A1", "B2"}}, {Name: "sales", Kind: "num"}}}},
		Docs: []Doc{{Key: "etl.py", Kind: "code", Language: "Python", Lines: 16, Functions: []string{"clean"}},
			{Key: "report.pdf", Kind: "PDF", Pages: 2, Lines: 4}},
	}
	for q, doc := range map[string]bool{
		"which product code has the most sales?":  false,
		"average sales by product code":           false,
		"tell me about sales":                     false,
		"give me an overview":                     false,
		"how many pages does the pdf have?":       true,
		"which functions does the script define?": true,
		"what does report.pdf say about sales?":   true,
		"how many lines are in etl.py?":           true,
	} {
		if _, got := readDocQuestion(q, p); got != doc {
			t.Errorf("%q: read as about documents = %v, want %v", q, got, doc)
		}
	}
}
