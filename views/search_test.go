package views_test

import (
	"reflect"
	"testing"

	"github.com/analyst-workbench/workbench/views"
)

// TestSplitSnippetDropsMarkdown reads a snippet of an answer written in
// Markdown as text: no ** or ` around the words, the hit still marked.
func TestSplitSnippetDropsMarkdown(t *testing.T) {
	got := views.SplitSnippet("the **largest** gain is in [[`Physics`]] (**12%**)", "[[", "]]")
	want := []views.SnippetPart{{Text: "the largest gain is in "}, {Text: "Physics", Hit: true}, {Text: " (12%)"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SplitSnippet = %#v, want %#v", got, want)
	}
}
