package schema

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// fold lowercases and strips accents, so that "Pokémon" in a question meets "Pokemon" in a
// file or column name.
func fold(s string) string {
	s = strings.ToLower(s)
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// splitName breaks a column name into words at separators, punctuation and camelCase
// boundaries: "finalWorth" → final Worth, "Siblings_Spouses Aboard" → Siblings Spouses Aboard,
// "No. of cases_median" → No of cases median.
func splitName(name string) string {
	name = stripAnnotations(name)
	var b strings.Builder
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if i > 0 && (unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) || unicode.IsDigit(r) != unicode.IsDigit(rs[i-1])) {
				b.WriteByte(' ') // finalWorth, type1
			} else if i > 1 && unicode.IsUpper(r) && unicode.IsUpper(rs[i-1]) && unicode.IsUpper(rs[i-2]) && i+2 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsLower(rs[i+2]) {
				b.WriteByte(' ') // DOLocationID: an acronym, then a word
			}
			b.WriteRune(r)
		case r == '?' || r == '(' || r == ')' || r == ',':
			b.WriteRune(' ')
			b.WriteRune(r) // keep clause punctuation: column names that are questions
			b.WriteRune(' ')
		default:
			b.WriteByte(' ')
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// NameWords returns a column name's words as the linker splits them (splitName), in lowercase,
// without the clause punctuation splitName keeps: "finalWorth" → final, worth; "ZIP code\nLower"
// → zip, code, lower. Other packages that read column names by their words use it, so that a
// name is split one way everywhere.
func NameWords(name string) []string {
	var words []string
	for _, w := range strings.Fields(splitName(name)) {
		if w != "?" && w != "(" && w != ")" && w != "," {
			words = append(words, strings.ToLower(w))
		}
	}
	return words
}

// stripAnnotations drops type annotations written into a name: "retweets<gx:number>".
func stripAnnotations(name string) string {
	for {
		i := strings.IndexByte(name, '<')
		j := strings.IndexByte(name, '>')
		if i < 0 || j < i {
			return name
		}
		name = name[:i] + " " + name[j+1:]
	}
}

// normalise is the comparison form of a name: words split, lowercase, no accents, single
// spaces.
func normalise(name string) string { return fold(splitName(name)) }

// word is a content word of a column name or of a question, with the forms it matches by.
type word struct {
	low   string
	lemma string
	forms []string // the word and its lemmas as noun, verb and adjective
	// aside marks a word in parentheses, a unit or a gloss ("Calories (kcal)"), never the head.
	aside bool
	// acronym marks a word of two to four capitals in a column's name (BP of RestingBP, HR of
	// MaxHR), which questions spell out word by word ("blood pressure", "heart rate"); in a
	// question word, one made of such initials.
	acronym bool
}

// isAcronym reports two to four capital letters: "BP", "HR", "DO"; not "ID", which questions
// write as it is.
func isAcronym(text string) bool {
	if len(text) < 2 || len(text) > 4 || text == "ID" {
		return false
	}
	for _, r := range text {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

// formsOf returns a word's lowercase form and its lemmas in every open class, deduplicated.
func formsOf(low, lemma string, lx *language.Lexicon) []string {
	out := []string{low}
	if f := fold(low); f != low {
		out = append(out, f)
	}
	add := func(s string) {
		for _, f := range out {
			if f == s {
				return
			}
		}
		out = append(out, s)
	}
	add(lemma)
	for _, tag := range []string{"NNS", "VBD", "VBG", "JJR"} {
		if l := lx.Lemma(low, tag); lx.POS(l) != 0 {
			add(l)
		}
	}
	if len(out) == 1 && lx.POS(low) == 0 {
		for _, s := range regularStems(low) {
			add(s) // a word WordNet lacks, by the regular inflections: retweeted, retweets → retweet
		}
	}
	return out
}

// regularStems returns the stems a word would have if it were regularly inflected: "-ed",
// "-ing" and "-s" stripped, with or without a final "e" ("favorited" → favorite). Only for
// words WordNet lacks, whose inflection it cannot say.
func regularStems(w string) []string {
	var out []string
	for _, suffix := range []string{"ed", "ing", "es", "s"} {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 3 {
			continue
		}
		out = append(out, stem)
		if suffix == "ed" || suffix == "ing" {
			out = append(out, stem+"e")
		}
		break
	}
	return out
}

// contentWords reads a name with the language front end and keeps its content words: nouns,
// adjectives, verbs other than be/have/do, numbers. "What is your age?" → age.
func contentWords(name string, lx *language.Lexicon) []word {
	s := language.Read(splitName(name), nil)
	var out []word
	depth := 0
	for _, t := range s.Tokens {
		switch {
		case t.Text == "(":
			depth++
		case t.Text == ")":
			depth = max(depth-1, 0)
		case isContent(t) || isAcronym(t.Text): // DO of DOLocationID is no verb
			out = append(out, word{low: fold(t.Lower), lemma: t.Lemma, forms: formsOf(t.Lower, t.Lemma, lx), aside: depth > 0 || len(t.Lower) == 1, acronym: isAcronym(t.Text)})
		}
	}
	if len(out) == 0 {
		for _, t := range s.Tokens { // "No" alone, "ID": keep what there is
			if t.Kind == language.Word {
				out = append(out, word{low: fold(t.Lower), lemma: t.Lemma, forms: formsOf(t.Lower, t.Lemma, lx)})
			}
		}
	}
	return out
}

// isContent reports a token that can name something in a table.
func isContent(t language.Token) bool {
	switch t.Kind {
	case language.Name, language.Quoted:
		return true
	case language.Number, language.Word:
	default:
		return false
	}
	if t.Kind == language.Number {
		return false
	}
	switch language.TagPOS(t.POS) {
	case language.Noun, language.Adjective:
		return true
	case language.Verb:
		return t.POS != "MD" && t.Lemma != "be" && t.Lemma != "have" && t.Lemma != "do"
	}
	return false
}
