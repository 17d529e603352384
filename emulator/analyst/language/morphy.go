package language

import "strings"

// suffixRule is one of WordNet's detachment rules: an inflected ending and its base ending.
type suffixRule struct{ from, to string }

// morphRules are WordNet's morphy rules (morph.c), per part of speech.
var morphRules = map[PartOfSpeech][]suffixRule{
	Noun: {{"s", ""}, {"ses", "s"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
		{"men", "man"}, {"ies", "y"}},
	Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""},
		{"ing", "e"}, {"ing", ""}},
	Adjective: {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
}

// TagPOS maps a Penn Treebank tag to WordNet's part of speech; 0 for closed classes.
func TagPOS(tag string) PartOfSpeech {
	switch {
	case strings.HasPrefix(tag, "NN"):
		return Noun
	case strings.HasPrefix(tag, "VB"), tag == "MD":
		return Verb
	case strings.HasPrefix(tag, "JJ"):
		return Adjective
	case strings.HasPrefix(tag, "RB"):
		return Adverb
	}
	return 0
}

// inflected reports whether a Penn tag marks an inflected form: plural, past, participle,
// third person, comparative or superlative. Its lemma is then preferably a different word.
func inflected(tag string) bool {
	switch tag {
	case "NNS", "NNPS", "VBD", "VBN", "VBG", "VBZ", "JJR", "JJS", "RBR", "RBS":
		return true
	}
	return false
}

// Lemma returns the dictionary form of a word used with a Penn Treebank tag: "paid"/VBD → pay,
// "teeth"/NNS → tooth, "worst"/JJS → bad, "survivors"/NNS → survivor. It follows WordNet's
// morphy: the exception lists, then the suffix rules, keeping only results WordNet lists. A word
// WordNet does not know keeps its lowercase form, except regular plurals ("billionaires" would
// become "billionaire" even if WordNet lacked it). Closed-class words are returned lowercased.
func (lx *Lexicon) Lemma(word, tag string) string {
	lemma, _ := lx.lemma(strings.ToLower(word), tag)
	return lemma
}

// lemma is Lemma on a lowercase word; known reports whether WordNet lists the result in the
// tag's part of speech.
func (lx *Lexicon) lemma(w, tag string) (lemma string, known bool) {
	pos := TagPOS(tag)
	if pos == 0 {
		if base := lx.exception(w, Verb); base != "" && tag == "MD" {
			return base, false
		}
		return w, false
	}
	self := lx.POS(w).Has(pos)
	if self && !inflected(tag) {
		return w, true // "gas"/NN stays gas, though "ga" is a lemma too
	}
	if base := lx.exception(w, pos); base != "" {
		return base, true // "teeth"/NNS → tooth, though "teeth" is a lemma too
	}
	for _, r := range morphRules[pos] {
		if strings.HasSuffix(w, r.from) && len(w) > len(r.from) {
			if base := w[:len(w)-len(r.from)] + r.to; lx.POS(base).Has(pos) {
				return base, true
			}
		}
	}
	if self {
		return w, true
	}
	if pos == Noun && inflected(tag) {
		return regularSingular(w), false
	}
	return w, false
}

// exception returns the first base form of an irregular inflection, or "".
func (lx *Lexicon) exception(w string, pos PartOfSpeech) string {
	if bases := lx.t.Exceptions[pos.slot()][w]; len(bases) > 0 {
		return bases[0]
	}
	return ""
}

// regularSingular strips a regular plural ending from a noun WordNet does not know.
func regularSingular(w string) string {
	switch {
	case len(w) <= 3 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}
