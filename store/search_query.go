package store

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// matchLiteral quotes an FTS5 query (MatchQuery's) as an SQL string. A
// MATCH bound as a parameter makes SQLite prepare the statement a second
// time when it is run, its plan depending on the value; a search is one
// keystroke, and the second parse of its two statements was a tenth of
// its time. MatchQuery's terms hold only letters, digits, quotes and
// stars, and any single quote would be doubled all the same.
func matchLiteral(match string) string {
	return "'" + strings.ReplaceAll(match, "'", "''") + "'"
}

// MatchQuery turns what a person typed into an FTS5 query: every word must
// occur, each as a prefix. Words are split as the index's tokenizer splits
// them and quoted, so that no character of the input is FTS5 syntax. A word
// is searched once whatever its case, words shorter than MinSearchWordLen
// are left out, and only the first MaxSearchWords words count.
func MatchQuery(s string) string { return ftsMatch(searchWords(s)) }

// ftsMatch is FTS5's query for words: each quoted, as a prefix, all of them.
func ftsMatch(words []string) string {
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = `"` + w + `"*`
	}
	return strings.Join(terms, " ")
}

// tsMatch is PostgreSQL's tsquery for words: each a prefix (:*), all of
// them (&). The words hold letters and digits only, so quoting each keeps
// the input from being tsquery syntax.
func tsMatch(words []string) string {
	terms := make([]string, len(words))
	for i, w := range words {
		terms[i] = "'" + w + "':*"
	}
	return strings.Join(terms, " & ")
}

// searchWords splits s as both indexes split text (runs of letters and
// digits), in lower case and without diacritics, each word once, leaving out
// words shorter than MinSearchWordLen and keeping the first MaxSearchWords.
func searchWords(s string) []string {
	seen := make(map[string]bool, MaxSearchWords)
	var words []string
	for _, w := range strings.FieldsFunc(s, notWordRune) {
		w = foldWord(w)
		if utf8.RuneCountInString(w) < MinSearchWordLen || seen[w] {
			continue
		}
		seen[w] = true
		words = append(words, w)
		if len(words) == MaxSearchWords {
			break
		}
	}
	return words
}

func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) }

// foldWord is w in lower case without combining diacritics (U+0300 to
// U+036F after canonical decomposition, composed again after), as both
// indexes store words.
func foldWord(w string) string {
	return norm.NFC.String(strings.Map(func(r rune) rune {
		if r >= 0x300 && r <= 0x36f {
			return -1
		}
		return r
	}, norm.NFD.String(strings.ToLower(w))))
}
