package analyst

import (
	"regexp"
	"strconv"
	"strings"
)

// The clause reader works on the question as typed, before it is tokenized for the intent:
// a constraint ("round to two decimals", "use Pearson", "drop rows with missing values
// first", "answer in this format: @mean_fare[value]") or a derived column ("FamilySize =
// SibSp + Parch", "bin ages into four groups") is found by its words, read into typed fields,
// and cut out of the question (a derived column is replaced by its name), so that the words of
// the constraints never choose the intent and the rest of the parse sees the question proper.

// cword is one word of the question as typed, with its byte span.
type cword struct {
	s, low   string
	at, end  int
	num      bool
	quoted   bool
	operator bool
}

// clauseWord matches quoted names, numbers, words (hyphens and apostrophes inside), the
// placeholders of an answer format, and single symbols.
var clauseWord = regexp.MustCompile("@\\w+\\[[^\\]]*\\]|'[^']*'|\"[^\"]*\"|`[^`]*`|\\d+(?:\\.\\d+)?|[A-Za-z_][\\w]*(?:['-][A-Za-z0-9]\\w*)*|[^\\s\\w]")

// scanClauseWords splits text into words with their positions.
func scanClauseWords(text string) []cword {
	var out []cword
	for _, span := range clauseWord.FindAllStringIndex(text, -1) {
		s := text[span[0]:span[1]]
		w := cword{s: s, low: strings.ToLower(s), at: span[0], end: span[1]}
		switch {
		case s[0] >= '0' && s[0] <= '9':
			w.num = true
		case len(s) >= 2 && strings.ContainsRune("'\"`", rune(s[0])) && s[len(s)-1] == s[0]:
			w.quoted = true
			w.s = s[1 : len(s)-1]
		case strings.Contains("+-*/()=", s):
			w.operator = true
		}
		out = append(out, w)
	}
	return out
}

// clauseEdit replaces text[at:end] with repl.
type clauseEdit struct {
	at, end int
	repl    string
}

// clauseReader walks the words of one question, collecting edits and what they meant.
type clauseReader struct {
	text  string
	ws    []cword
	p     *Profile
	ref   *refinements
	edits []clauseEdit
	names map[string]string // normName of each column -> its name, built on first use
}

// word returns the lowercased word at i, or "" past the end.
func (r *clauseReader) word(i int) string {
	if i < 0 || i >= len(r.ws) {
		return ""
	}
	return r.ws[i].low
}

// is reports whether the word at i is one of the given words.
func (r *clauseReader) is(i int, words ...string) bool {
	w := r.word(i)
	for _, x := range words {
		if w == x {
			return true
		}
	}
	return false
}

// skip moves past the words of the set from i, returning the first index not in it.
func (r *clauseReader) skip(i int, set map[string]bool) int {
	for i < len(r.ws) && set[r.ws[i].low] {
		i++
	}
	return i
}

// edit records that words [from, to) become repl.
func (r *clauseReader) edit(from, to int, repl string) {
	if from >= to {
		return
	}
	r.edits = append(r.edits, clauseEdit{r.ws[from].at, r.ws[to-1].end, repl})
}

// applyEdits rewrites text with non-overlapping edits in order of position.
func applyEdits(text string, edits []clauseEdit) string {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		if e.at < last {
			continue
		}
		b.WriteString(text[last:e.at])
		if e.repl != "" {
			b.WriteString(" " + e.repl + " ")
		}
		last = e.end
	}
	b.WriteString(text[last:])
	return tidyQuestion(b.String())
}

// connectors are left hanging where a clause was cut out ("…, then compute the mean").
var connectors = setOf("then", "and", "also", "next", "finally", "afterwards", "first", "firstly", "so", ",", ";", ":", ".", "please")

// tidyQuestion drops connectors and punctuation left at the start or the end by a cut, and
// collapses the spaces.
func tidyQuestion(s string) string {
	ws := scanClauseWords(s)
	start, end := 0, len(ws)
	for start < end && connectors[ws[start].low] {
		start++
	}
	for end > start && connectors[ws[end-1].low] {
		end--
	}
	if start == end {
		return ""
	}
	return strings.Join(strings.Fields(s[ws[start].at:ws[end-1].end]), " ")
}

// numberWords reads small numbers written as words ("two decimals", "four groups").
var numberWords = map[string]int{"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "twelve": 12}

// smallNumber reads the word at i as a whole number, in digits or words.
func (r *clauseReader) smallNumber(i int) (int, bool) {
	w := r.word(i)
	if n, ok := numberWords[w]; ok {
		return n, true
	}
	if i < len(r.ws) && r.ws[i].num && !strings.Contains(w, ".") {
		n, err := strconv.Atoi(w)
		return n, err == nil
	}
	return 0, false
}
