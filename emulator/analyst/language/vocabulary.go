package language

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Vocabulary holds the caller's multi-word names — column names such as "No. of cases_median"
// or "Siblings_Spouses Aboard", category values such as "United States" — so that Read
// recognises each as one Name token before it splits words. Matching ignores case and treats
// any run of spaces, underscores and hyphens as equal, so "siblings spouses aboard" matches too.
// The zero value is empty and ready to use; a nil *Vocabulary has no entries.
type Vocabulary struct {
	byFirst map[rune][]string // entries by their first letter, lowercase, longest first
}

// NewVocabulary returns a vocabulary holding names.
func NewVocabulary(names ...string) *Vocabulary {
	v := &Vocabulary{}
	for _, n := range names {
		v.Add(n)
	}
	return v
}

// Add registers a name. Names shorter than two characters are ignored: they would match inside
// ordinary words' neighbourhoods too often to be useful.
func (v *Vocabulary) Add(name string) {
	name = strings.TrimSpace(name)
	if utf8.RuneCountInString(name) < 2 {
		return
	}
	if v.byFirst == nil {
		v.byFirst = map[rune][]string{}
	}
	r, _ := utf8.DecodeRuneInString(name)
	k := unicode.ToLower(r)
	list := v.byFirst[k]
	for _, e := range list {
		if e == name {
			return
		}
	}
	// Longest first, so "No. of cases_median" wins over "No. of cases".
	i := 0
	for i < len(list) && len(list[i]) >= len(name) {
		i++
	}
	list = append(list, "")
	copy(list[i+1:], list[i:])
	list[i] = name
	v.byFirst[k] = list
}

// match returns the longest entry that starts at byte i of s and ends at a word boundary, with
// the end offset.
func (v *Vocabulary) match(s string, i int) (entry string, end int) {
	if v == nil || v.byFirst == nil {
		return "", 0
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	for _, e := range v.byFirst[unicode.ToLower(r)] {
		if j, ok := matchName(s, i, e); ok {
			return e, j
		}
	}
	return "", 0
}

// isSeparator reports the characters that names and questions use interchangeably between
// words.
func isSeparator(r rune) bool { return r == ' ' || r == '_' || r == '-' || r == '\t' }

// matchName matches name against s from byte i: letters ignoring case, a run of separators in
// the name against a run in s, anything else exactly. The match must end at a word boundary.
func matchName(s string, i int, name string) (int, bool) {
	j, k := i, 0
	for k < len(name) {
		nr, nw := utf8.DecodeRuneInString(name[k:])
		if j >= len(s) {
			return 0, false
		}
		sr, sw := utf8.DecodeRuneInString(s[j:])
		switch {
		case isSeparator(nr):
			if !isSeparator(sr) {
				return 0, false
			}
			k = skipSeparators(name, k)
			j = skipSeparators(s, j)
		case unicode.ToLower(nr) == unicode.ToLower(sr):
			k += nw
			j += sw
		default:
			return 0, false
		}
	}
	if j < len(s) {
		next, _ := utf8.DecodeRuneInString(s[j:])
		last, _ := utf8.DecodeLastRuneInString(name)
		if isWordRune(next) && isWordRune(last) {
			return 0, false // "Age" must not match the start of "Agency"
		}
	}
	return j, true
}

func skipSeparators(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isSeparator(r) {
			break
		}
		i += w
	}
	return i
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }
