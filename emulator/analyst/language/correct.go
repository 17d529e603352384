package language

import (
	"strings"
	"unicode"
)

// correctTags fixes the tagger where the lexicon is sure. The tagger was trained on newspaper
// text, where sentences rarely start with a verb and capitals mark names; questions to an
// analyst do both.
func correctTags(toks []Token, parts []Part, lx *Lexicon) {
	for _, p := range parts {
		start := p.Start
		for start < p.End && (toks[start].Lower == "please" || toks[start].Lower == "kindly" || toks[start].Text == ",") {
			start++
		}
		if start < p.End {
			commonCapital(&toks[start], lx)
			imperativeVerb(toks, start, p.End, lx)
		}
	}
	for i := range toks {
		grammarTag(toks, i)
		openClassFix(&toks[i], lx)
		nounAfterDeterminer(toks, i, lx)
		verbAfterSubject(toks, i, lx)
		superlativeTag(&toks[i], lx)
		comparativeTag(toks, i, lx)
		participleBeforeNoun(toks, i)
		adverbOfPlace(toks, i)
		capitalNoun(toks, i, lx)
		nounNotPronoun(&toks[i], lx)
	}
}

// personalPronouns is English's closed class of personal pronouns, the only words a PRP tag
// fits.
var personalPronouns = map[string]bool{
	"i": true, "me": true, "my": true, "mine": true, "myself": true, "you": true, "your": true, "yours": true,
	"yourself": true, "yourselves": true, "he": true, "him": true, "his": true, "himself": true, "she": true,
	"her": true, "hers": true, "herself": true, "it": true, "its": true, "itself": true, "we": true, "us": true,
	"our": true, "ours": true, "ourselves": true, "they": true, "them": true, "their": true, "theirs": true,
	"themselves": true, "one": true, "oneself": true, "thee": true, "thou": true, "y'all": true,
}

// nounNotPronoun retags a word the tagger called a personal pronoun, though it is none, as the
// noun WordNet has: "Which origin has the highest average mpg?" (origin/PRP).
func nounNotPronoun(t *Token, lx *Lexicon) {
	if t.Kind != Word || t.POS != "PRP" && t.POS != "PRP$" || personalPronouns[t.Lower] || !lx.POS(t.Lower).Has(Noun) {
		return
	}
	t.POS = "NN"
	t.Lemma = lx.Lemma(t.Lower, "NN")
}

// capitalNoun retags a capitalised word inside a sentence that the tagger put in a closed class
// (a preposition, a determiner) as the noun WordNet has: "the highest Openness the same as …"
// (Openness/IN). English capitalises no preposition mid-sentence; a column's name it does.
func capitalNoun(toks []Token, i int, lx *Lexicon) {
	t := &toks[i]
	if i == 0 || t.Kind != Word || t.POS != "IN" && t.POS != "DT" && t.POS != "RP" || t.Text == t.Lower || !lx.POS(t.Lower).Has(Noun) {
		return
	}
	t.POS = "NN"
	t.Lemma = lx.Lemma(t.Lower, "NN")
}

// adverbOfPlace retags "right", "just", "directly" and "immediately" before a preposition of
// order as the adverbs they are: in "the building right after Hotel Syracuse" "right" is no
// noun heading the phrase.
func adverbOfPlace(toks []Token, i int) {
	if i+1 < len(toks) && toks[i].Is("right", "just", "directly", "immediately") && toks[i+1].Is("after", "before", "above", "below") {
		toks[i].POS = "RB"
	}
}

// participleBeforeNoun retags a past tense between a determiner or an adjective and a noun as
// the participle it is there: "the top placed country" (placed/VBD) is one noun phrase, as
// "the most used word" is, and "the most commonly achieved educational level", where adverbs
// come between and an adjective before the noun.
func participleBeforeNoun(toks []Token, i int) {
	t := &toks[i]
	if t.POS != "VBD" || i == 0 || i+1 >= len(toks) {
		return
	}
	if next := toks[i+1]; !next.IsNoun() && !(next.IsAdjective() && i+2 < len(toks) && toks[i+2].IsNoun()) {
		return
	}
	k := i - 1
	for k > 0 && toks[k].POS == "RB" && !isNegation(toks[k]) {
		k--
	}
	if prev := toks[k]; isDeterminer(prev) || prev.POS == "RBS" || k == i-1 && prev.IsAdjective() {
		t.POS = "VBN"
	}
}

// superlativeTag retags an adjective in -est as the superlative it is when WordNet's
// morphology takes it to an adjective and WordNet has no adjective of that spelling: the
// tagger reads "the happiest" as JJ, "the unhappiest" as JJS; "honest" and "modest" stay.
func superlativeTag(t *Token, lx *Lexicon) {
	if t.POS != "JJ" || !strings.HasSuffix(t.Lower, "est") || lx.POS(t.Lower).Has(Adjective) {
		return
	}
	if base := lx.Lemma(t.Lower, "JJS"); base != t.Lower && lx.POS(base).Has(Adjective) {
		t.POS = "JJS"
	}
}

// comparativeTag is superlativeTag for -er: "is A or B taller" (taller/JJ) compares; "other",
// "former" and "eager", adjectives of their own spelling, stay, unless "than" follows: "higher
// than that of female passengers" (higher/JJ, an adjective of its own in "higher education").
func comparativeTag(toks []Token, i int, lx *Lexicon) {
	t := &toks[i]
	than := i+1 < len(toks) && toks[i+1].Is("than")
	if t.POS != "JJ" || !strings.HasSuffix(t.Lower, "er") || lx.POS(t.Lower).Has(Adjective) && !than {
		return
	}
	if base := lx.Lemma(t.Lower, "JJR"); base != t.Lower && lx.POS(base).Has(Adjective) {
		t.POS, t.Lemma = "JJR", base
	}
}

// nounAfterDeterminer retags a base verb right after a determiner as a noun, when WordNet has
// the noun: "which fare range" (fare/VBP), or its plural after a plural determiner.
func nounAfterDeterminer(toks []Token, i int, lx *Lexicon) {
	t := &toks[i]
	if i > 0 && t.Kind == Word && strings.HasPrefix(t.POS, "VB") && toks[i-1].Is("most", "many", "more", "few", "fewer", "several") {
		// "in which month do most storms occur" (storms/VB): a quantity takes a plural noun
		if base := lx.Lemma(t.Lower, "NNS"); base != t.Lower && lx.POS(base).Has(Noun) {
			t.POS, t.Lemma = "NNS", base
		}
		return
	}
	if i == 0 || t.Kind != Word || t.POS != "VB" && t.POS != "VBP" || isAuxiliary(t.Lower) || !isDeterminer(toks[i-1]) {
		return
	}
	switch {
	case lx.POS(t.Lower).Has(Noun):
		t.POS = "NN"
	case toks[i-1].Is("all", "some", "many", "few", "both", "most", "these", "those"):
		// "do all reviews come from …" (reviews/VB): a plural WordNet knows as a noun
		if base := lx.Lemma(t.Lower, "NNS"); base != t.Lower && lx.POS(base).Has(Noun) {
			t.POS, t.Lemma = "NNS", base
		}
	}
}

// verbAfterSubject retags the last noun of "do/does/did <subject> <noun>" as the base verb
// it is, when WordNet has the verb and nothing but punctuation or a preposition follows:
// "when did the last episode air?".
func verbAfterSubject(toks []Token, i int, lx *Lexicon) {
	t := &toks[i]
	if t.Kind != Word || t.POS != "NN" || i < 3 || !lx.POS(t.Lower).Has(Verb) {
		return
	}
	if i+1 < len(toks) && toks[i+1].Kind != Punct && toks[i+1].POS != "IN" {
		return
	}
	if !toks[i-1].IsNoun() {
		return // the subject must be a phrase of its own before the verb
	}
	for k := i - 1; k >= 0; k-- {
		u := toks[k]
		switch {
		case u.Kind == Word && (u.Lemma == "do" || u.Is("do", "does", "did")) && (u.IsVerb()):
			t.POS = "VB"
			return
		case u.IsNoun() || u.IsAdjective() || isDeterminer(u) || u.Kind == Number:
			continue
		default:
			return
		}
	}
}

// auxiliaryTags are the tags of the auxiliaries, which the tagger sometimes takes for names
// when they open a question ("Did …" as NNP).
var auxiliaryTags = map[string]string{
	"is": "VBZ", "are": "VBP", "was": "VBD", "were": "VBD", "am": "VBP", "do": "VBP", "does": "VBZ",
	"did": "VBD", "has": "VBZ", "have": "VBP", "had": "VBD", "can": "MD", "could": "MD",
	"will": "MD", "would": "MD", "should": "MD", "shall": "MD", "may": "MD", "might": "MD",
	"must": "MD",
}

// whTags are the tags of the question words.
var whTags = map[string]string{
	"what": "WP", "who": "WP", "whom": "WP", "whose": "WP$", "which": "WDT", "when": "WRB",
	"where": "WRB", "why": "WRB", "how": "WRB",
}

// prepositionVariants are the older spellings of prepositions the tagger's newspaper text
// rarely had, so it takes them for nouns: "the most common foot amongst players".
var prepositionVariants = map[string]bool{"amongst": true, "amidst": true, "whilst": true, "unto": true}

// grammarTag fixes the tags of closed-class words the tagger got wrong: question words,
// auxiliaries tagged as nouns and old spellings of prepositions. A wh-word before a noun
// determines it ("which country").
func grammarTag(toks []Token, i int) {
	t := &toks[i]
	if t.Kind != Word {
		return
	}
	if prepositionVariants[t.Lower] {
		t.POS = "IN"
		return
	}
	if tag, ok := whTags[t.Lower]; ok && !strings.HasPrefix(t.POS, "W") {
		if t.Lower == "what" && i+1 < len(toks) && toks[i+1].IsNoun() {
			tag = "WDT" // "what year"
		}
		t.POS = tag
	}
	tag, ok := auxiliaryTags[t.Lower]
	if !ok || t.IsVerb() || t.POS == "MD" {
		return
	}
	// Forms of be, do and have are verbs whatever the tagger says ("Were there …" as RB); a
	// modal is one when a subject follows it at the start of a clause ("Can the …"), since "can"
	// and "will" are nouns too.
	atStart := i == 0 || toks[i-1].Kind == Punct || strings.HasPrefix(toks[i-1].POS, "W")
	subject := i+1 < len(toks) && (oneOf(toks[i+1].POS, "DT", "PRP", "EX", "PDT") || toks[i+1].IsNoun())
	if tag != "MD" || atStart && subject {
		t.POS = tag
	}
}

// commonCapital retags a clause-initial capitalised word as a common noun when WordNet knows it
// in lowercase and it is not an acronym: "Passengers who survived" is not a name.
func commonCapital(t *Token, lx *Lexicon) {
	if t.Kind != Word || (t.POS != "NNP" && t.POS != "NNPS") || strings.ToUpper(t.Text) == t.Text {
		return
	}
	plural := t.POS == "NNPS"
	if lemma, known := lx.lemma(t.Lower, "NNS"); known && lemma != t.Lower {
		plural = true
	}
	if !lx.POS(t.Lower).Has(Noun) && !plural {
		return
	}
	t.POS = "NN"
	if plural {
		t.POS = "NNS"
	}
}

// imperativeVerb retags the first word of a clause as a base verb when WordNet knows it as a
// verb and what follows is the start of an object: "List the …", "Name 3 …", "Count all …",
// "Rank passengers by …".
func imperativeVerb(toks []Token, i, end int, lx *Lexicon) {
	t := &toks[i]
	if t.Kind != Word || t.POS == "VB" || !lx.POS(t.Lower).Has(Verb) || t.POS == "MD" || strings.HasPrefix(t.POS, "W") {
		return
	}
	if !unicode.IsLetter([]rune(t.Text)[0]) || isAuxiliary(t.Lower) {
		return
	}
	if i+1 >= end {
		return
	}
	next := toks[i+1]
	objectStart := next.Kind == Number || next.Kind == Name || next.Kind == Quoted ||
		oneOf(next.POS, "DT", "PDT", "PRP$", "PRP", "JJS", "RBS", "WRB", "WP", "WDT", "CD")
	if !objectStart && !noVerbIn(toks[i+1:end]) {
		return
	}
	if strings.HasPrefix(t.POS, "VB") && t.POS != "VBP" && t.POS != "VBZ" {
		return // "Survived passengers": a participle that starts a noun phrase
	}
	t.POS = "VB"
}

func oneOf(s string, list ...string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

func noVerbIn(toks []Token) bool {
	for _, t := range toks {
		if t.IsVerb() || t.POS == "MD" {
			return false
		}
	}
	return true
}

// auxiliaries are the verbs that open yes/no questions.
var auxiliaries = map[string]bool{
	"is": true, "are": true, "was": true, "were": true, "am": true, "be": true, "do": true,
	"does": true, "did": true, "has": true, "have": true, "had": true, "can": true, "could": true,
	"will": true, "would": true, "should": true, "shall": true, "may": true, "might": true,
	"must": true,
}

func isAuxiliary(w string) bool { return auxiliaries[w] }

// openClassFix moves a word to the one open class WordNet knows it in, when the tagger put it
// in another class where WordNet has no such word: "horsepower" guessed as a verb is a noun.
func openClassFix(t *Token, lx *Lexicon) {
	pos := TagPOS(t.POS)
	if t.Kind != Word || pos == 0 || t.POS == "MD" || strings.HasPrefix(t.POS, "NNP") || isAuxiliary(t.Lower) {
		return
	}
	if _, known := lx.lemma(t.Lower, t.POS); known {
		return
	}
	var only PartOfSpeech
	for _, p := range []PartOfSpeech{Noun, Verb, Adjective, Adverb} {
		if _, known := lx.lemma(t.Lower, defaultTag(p, t.Lower, lx)); known {
			if only != 0 {
				return // known in two other classes: the tagger's context decides
			}
			only = p
		}
	}
	if only != 0 {
		t.POS = defaultTag(only, t.Lower, lx)
	}
}

// defaultTag is the Penn tag for a word of part of speech p: plural nouns and base verbs are
// told apart by WordNet's morphology.
func defaultTag(p PartOfSpeech, w string, lx *Lexicon) string {
	switch p {
	case Noun:
		if !lx.POS(w).Has(Noun) {
			return "NNS"
		}
		return "NN"
	case Verb:
		if !lx.POS(w).Has(Verb) {
			return "VBD"
		}
		return "VB"
	case Adjective:
		return "JJ"
	}
	return "RB"
}
