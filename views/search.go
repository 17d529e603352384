package views

import (
	"strings"
	"time"
)

// SearchResult is one conversation that matched a search, with the passage
// that matched.
type SearchResult struct {
	ID        string
	Title     string
	UpdatedAt time.Time
	Active    bool
	// Anchor is the element of the conversation the passage is in, where
	// the link jumps; empty for a title.
	Anchor string
	// Where names the part that matched: "Title", "Question or answer",
	// "Code", "File".
	Where string
	// Snippet is the passage, split into plain and matching parts.
	Snippet []SnippetPart
}

// Href is the link to the conversation, at the passage.
func (r SearchResult) Href() string {
	if r.Anchor == "" {
		return "/conversations/" + r.ID
	}
	return "/conversations/" + r.ID + "#" + r.Anchor
}

// SnippetPart is a run of a snippet's text; Hit marks what matched.
type SnippetPart struct {
	Text string
	Hit  bool
}

// SplitSnippet cuts a snippet whose matches sit between start and end into
// parts, so that the template escapes the text and marks the hits. The
// answers' Markdown marks (**bold**, `code`) are dropped: a snippet is
// read as text, not as source.
func SplitSnippet(s, start, end string) []SnippetPart {
	var parts []SnippetPart
	for s != "" {
		before, rest, found := strings.Cut(s, start)
		if before = markdownMarks.Replace(before); before != "" {
			parts = append(parts, SnippetPart{Text: before})
		}
		if !found {
			break
		}
		hit, after, _ := strings.Cut(rest, end)
		parts = append(parts, SnippetPart{Text: markdownMarks.Replace(hit), Hit: true})
		s = after
	}
	return parts
}

// markdownMarks removes the emphasis and code marks of Markdown.
var markdownMarks = strings.NewReplacer("**", "", "__", "", "`", "")
