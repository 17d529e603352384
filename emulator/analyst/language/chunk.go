package language

// chunkPart finds the chunks of one part of a sentence: noun phrases and verb groups first,
// then what relates them.
func chunkPart(s *Sentence, p Span) {
	firstPhrase, firstVerb := len(s.Phrases), len(s.Verbs)
	for i := p.Start; i < p.End; {
		if np, ok := nounPhraseAt(s.Tokens, i, p.End); ok {
			s.Phrases = append(s.Phrases, np)
			i = np.End
			continue
		}
		if vg, ok := verbGroupAt(s.Tokens, i, p.End); ok {
			s.Verbs = append(s.Verbs, vg)
			i = vg.End
			continue
		}
		i++
	}
	attachPrepositions(s, firstPhrase)
	findComparisons(s, p)
	findSuperlatives(s, p, firstPhrase)
	findCoordinations(s, firstPhrase)
	findRelatives(s, firstPhrase, firstVerb, p)
}

// isDeterminer reports the tokens that open a noun phrase.
func isDeterminer(t Token) bool {
	return t.Kind == Word && (t.POS == "DT" || t.POS == "PDT" || t.POS == "PRP$" || t.POS == "WDT" || t.POS == "WP$")
}

// inNominal reports whether token j can stand inside a noun phrase before or as its head.
func inNominal(toks []Token, j, end int) bool {
	t := toks[j]
	switch t.Kind {
	case Name, Quoted, Number:
		return true
	case Date, Operator:
		return false
	case Punct:
		return false
	}
	switch t.POS {
	case "VBN", "VBG":
		// "agencies handling complaints", "coasters designed by …": after a plural noun a
		// participle opens a reduced relative clause; before a noun it modifies ("the
		// handling fee").
		return j == 0 || toks[j-1].POS != "NNS" && toks[j-1].POS != "NNPS"
	case "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "CD", "POS":
		return true
	case "RBS", "RBR":
		// "the most expensive", "the most billionaires"
		return j+1 < end && (toks[j+1].IsAdjective() || toks[j+1].IsNoun() || toks[j+1].POS == "RB" && inNominal(toks, j+1, end))
	case "RB":
		// "the most frequently occurring districts", "the highly rated films": an adverb
		// of the participle or adjective that modifies the head.
		return !isNegation(t) && j+2 < end && (toks[j+1].POS == "VBN" || toks[j+1].POS == "VBG" || toks[j+1].IsAdjective()) &&
			(toks[j+2].IsNoun() || toks[j+2].IsAdjective())
	case "CC":
		// "male and female passengers": adjectives coordinated before one head.
		return j > 0 && j+1 < end && toks[j-1].IsAdjective() && toks[j+1].IsAdjective()
	}
	return false
}

// nounPhraseAt reads a noun phrase starting at token i: a determiner, then numbers, adjectives
// and nouns, ending at the last noun. Without a noun, a determiner and a superlative make an
// elliptical phrase ("the highest"); a personal pronoun is a phrase of its own.
func nounPhraseAt(toks []Token, i, end int) (NounPhrase, bool) {
	np := NounPhrase{Span: Span{i, i}, Det: -1, Head: -1}
	if toks[i].Kind == Word && toks[i].POS == "PRP" {
		np.Head, np.End = i, i+1
		return np, true
	}
	j := i
	if isDeterminer(toks[i]) {
		np.Det = i
		j++
	}
	run := j
	for run < end && inNominal(toks, run, end) {
		run++
	}
	for k := run - 1; k >= j; k-- {
		if toks[k].IsNoun() {
			np.Head = k
			break
		}
	}
	if np.Head < 0 {
		np.Head = ellipticalHead(toks, j, run, np.Det >= 0)
	}
	if np.Head < 0 {
		return NounPhrase{}, false
	}
	np.End = np.Head + 1
	for k := j; k < np.Head; k++ {
		switch {
		case toks[k].Kind == Number || toks[k].POS == "CD":
			np.Numbers = append(np.Numbers, k)
		case toks[k].POS != "POS" && toks[k].POS != "CC":
			np.Modifiers = append(np.Modifiers, k)
		}
	}
	return np, true
}

// ellipticalHead returns the adjective that heads a phrase with no noun, "the highest",
// "the 3 cheapest", "the top 5", or -1.
func ellipticalHead(toks []Token, from, to int, hasDet bool) int {
	if !hasDet {
		return -1
	}
	for k := to - 1; k >= from; k-- {
		if toks[k].POS == "JJS" || toks[k].IsAdjective() && k > from && toks[k-1].POS == "RBS" || toks[k].Is("top", "bottom") {
			return k
		}
	}
	return -1
}

// verbGroupAt reads modals, auxiliaries, negation and a main verb, with a particle after it.
func verbGroupAt(toks []Token, i, end int) (VerbGroup, bool) {
	if !isVerbal(toks[i]) {
		return VerbGroup{}, false
	}
	vg := VerbGroup{Span: Span{i, i + 1}, Main: i, Particle: -1}
	for j := i + 1; j < end && (isVerbal(toks[j]) || isNegation(toks[j])); j++ {
		if isVerbal(toks[j]) && !isAuxiliaryVerb(toks[vg.End-1]) {
			break // "who survived paid": two verbs of two clauses, not one group
		}
		if isVerbal(toks[j]) {
			vg.End = j + 1 // a trailing "not" stays out: "is not null" negates what follows too
		}
	}
	for j := i; j < vg.End; j++ {
		switch {
		case isNegation(toks[j]):
			vg.Negated = true
		case j != vg.End-1:
			vg.Aux = append(vg.Aux, j)
		}
	}
	vg.Main = vg.End - 1
	if vg.End < end && toks[vg.End].POS == "RP" {
		vg.Particle = vg.End
		vg.End++
	}
	return vg, true
}

// isAuxiliaryVerb reports a verb that another verb may follow in one group: a form of be,
// have, do or get, or a modal.
func isAuxiliaryVerb(t Token) bool {
	return t.POS == "MD" || t.Lemma == "be" || t.Lemma == "have" || t.Lemma == "do" || t.Lemma == "get" || isAuxiliary(t.Lower)
}

func isVerbal(t Token) bool { return t.Kind == Word && (t.IsVerb() || t.POS == "MD") }

func isNegation(t Token) bool { return t.Kind == Word && t.Is("not", "n't", "n’t", "never") }

// attachPrepositions attaches each prepositional phrase to the noun phrase just before it:
// low attachment, right for most questions ("the average fare of passengers in first class").
func attachPrepositions(s *Sentence, first int) {
	for k := first; k+1 < len(s.Phrases); k++ {
		np := &s.Phrases[k]
		prep := np.End
		if prep >= len(s.Tokens) || s.Phrases[k+1].Start != prep+1 || !isPreposition(s.Tokens[prep]) {
			continue
		}
		np.Attachments = append(np.Attachments, Attachment{Prep: prep, Object: k + 1})
	}
}

// isPreposition reports a preposition that introduces an attached phrase ("than" and
// "between" introduce comparisons instead).
func isPreposition(t Token) bool {
	return t.Kind == Word && (t.POS == "IN" || t.POS == "TO") && !t.Is("than", "between", "that", "if", "whether", "because")
}
