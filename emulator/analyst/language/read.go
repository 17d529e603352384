package language

// Read reads one question: it recognises the vocabulary's names, numbers, dates, quoted
// strings and operators, tags and lemmatises the words, splits the question into parts and
// chunks each part. v may be nil. The lexicon is loaded on first use.
func Read(question string, v *Vocabulary) *Sentence {
	lx := WordNet()
	toks := scan(question, v)
	toks = mergeOperators(question, toks)
	toks = mergeMonthDates(question, toks)
	s := &Sentence{Text: question, Tokens: toks}
	if len(toks) == 0 {
		s.Parts = []Part{{Form: Form{Kind: Statement, Word: -1, Focus: -1}}}
		return s
	}
	tagTokens(toks)
	s.Parts = splitParts(toks)
	correctTags(toks, s.Parts, lx)
	lemmatize(toks, lx)
	for k := range s.Parts {
		chunkPart(s, s.Parts[k].Span)
	}
	for k := range s.Parts {
		s.Parts[k].Form = readForm(s, s.Parts[k].Span)
	}
	return s
}
