package handlers

import (
	"strings"
	"unicode"
)

// maxSlugRunes keeps download names short enough to read in a file list.
const maxSlugRunes = 60

// slug turns a conversation title into a file name stem: lower case,
// letters and digits joined by single hyphens, cut at a word boundary, so
// that "Which fields had the largest increase in the…" downloads as
// "which-fields-had-the-largest-increase-in-the-charts.zip".
func slug(title string) string {
	words := strings.FieldsFunc(strings.ToLower(title), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	var b strings.Builder
	n := 0
	for _, w := range words {
		if k := len([]rune(w)); n > 0 && n+1+k > maxSlugRunes {
			break
		}
		if n > 0 {
			b.WriteByte('-')
			n++
		}
		r := []rune(w)
		if len(r) > maxSlugRunes {
			r = r[:maxSlugRunes]
		}
		b.WriteString(string(r))
		n += len(r)
	}
	if b.Len() == 0 {
		return "conversation"
	}
	return b.String()
}
