package language

import "strings"

// cliticLemmas are the dictionary forms of the treebank's split-off clitics and of the stems
// they leave ("ca" of "can't"): grammar, which WordNet does not list.
var cliticLemmas = map[string]string{
	"n't": "not", "n’t": "not", "'re": "be", "’re": "be", "'m": "be", "’m": "be", "'ll": "will",
	"’ll": "will", "'ve": "have", "’ve": "have", "'d": "would", "’d": "would", "ca": "can",
	"wo": "will", "sha": "shall",
}

// lemmatize sets each token's Lemma, and the values of spelled-out numbers.
func lemmatize(toks []Token, lx *Lexicon) {
	for i := range toks {
		t := &toks[i]
		switch t.Kind {
		case Name:
			t.Lemma = strings.ToLower(t.Entry)
		case Word:
			t.Lemma = wordLemma(*t, lx)
			numberWord(t, toks, i)
		default:
			t.Lemma = t.Lower
		}
	}
}

func wordLemma(t Token, lx *Lexicon) string {
	if l, ok := cliticLemmas[t.Lower]; ok {
		return l
	}
	if t.Lower == "'s" || t.Lower == "’s" {
		if t.POS == "POS" {
			return "'s"
		}
		return "be" // "what's"
	}
	if strings.HasPrefix(t.POS, "NNP") && t.POS != "NNPS" {
		return t.Lower // a proper name is its own dictionary form
	}
	return lx.Lemma(t.Lower, t.POS)
}

// numberWord turns a spelled-out number tagged CD into a Number ("five"), and gives ordinals
// their value while they stay words ("first class" is not a count). "one" stays a word unless
// a noun follows: "which one" is a pronoun. "zero" is a number whatever the tagger says: it
// reads "an amount of zero" as a noun.
func numberWord(t *Token, toks []Token, i int) {
	if v, ok := ordinalWords[t.Lower]; ok {
		t.Value, t.Ordinal = v, true
		return
	}
	v, ok := numberWords[t.Lower]
	if !ok || t.POS != "CD" && t.Lower != "zero" {
		return
	}
	if t.Lower == "one" && (i+1 >= len(toks) || !toks[i+1].IsNoun() && !toks[i+1].IsAdjective()) {
		return
	}
	t.Kind, t.Value = Number, v
}
