package analyst

import (
	"strings"
)

// SuggestionHref is the link target of a suggested question in a reply: the app's chat page
// turns a click on such a link into the question in the composer, ready to send or edit. A
// fragment keeps it harmless anywhere else the markdown is shown.
const SuggestionHref = "#ask"

// maxSuggestions bounds the readings offered when asking back; more is a wall, not a choice.
const maxSuggestions = 4

// suggestionList renders questions as a markdown list of suggestion links.
func suggestionList(questions []string) string {
	var b strings.Builder
	for _, q := range questions {
		b.WriteString("\n- [" + escapeLinkText(q) + "](" + SuggestionHref + ")")
	}
	return b.String()
}

// escapeLinkText keeps a question's brackets and emphasis characters from ending or styling
// the link; the click handler reads the rendered text, so the question comes back as typed.
func escapeLinkText(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\[]*_`<>", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// readings rewrites the question once per candidate column: the ambiguous word replaced by
// the column's name when the question contains it, the column added otherwise.
func readings(question, word string, cands []string) []string {
	question = strings.TrimRight(strings.TrimSpace(question), "?!. ")
	var out []string
	for _, c := range cands {
		if c == "…" || len(out) == maxSuggestions {
			break
		}
		out = append(out, reading(question, word, c))
	}
	return out
}

func reading(question, word, col string) string {
	if word != "" {
		if i := strings.Index(strings.ToLower(question), strings.ToLower(word)); i >= 0 {
			return question[:i] + col + question[i+len(word):]
		}
	}
	return question + " of " + col
}
