package language

// openers are discourse words that may precede the question proper: grammar, not content.
var openers = map[string]bool{"please": true, "kindly": true, "now": true, "so": true, "also": true, "ok": true, "okay": true, "hey": true, "and": true}

// readForm decides how a part asks. The form is read at the part's first word, after a leading
// preposition ("In which year …"), or after a comma ("For each class, what is …", "Of those
// who survived, how many …").
func readForm(s *Sentence, p Span) Form {
	toks := s.Tokens
	start := p.Start
	for start < p.End && (toks[start].Kind == Punct || openers[toks[start].Lower]) {
		start++
	}
	if start >= p.End {
		return Form{Kind: Statement, Word: -1, Focus: -1}
	}
	if f, ok := denial(s, start, p); ok {
		return f
	}
	candidates := []int{start}
	if isPreposition(toks[start]) && start+1 < p.End {
		candidates = append(candidates, start+1)
	}
	for i := start; i < p.End; i++ {
		if toks[i].Text == "," && i+1 < p.End {
			candidates = append(candidates, i+1)
		}
	}
	for _, c := range candidates {
		if f, ok := formAt(s, c, p); ok {
			return f
		}
	}
	if toks[start].Is("any", "anyone", "anybody", "anything") && p.End < len(toks) && toks[p.End].Text == "?" {
		// "Any property with more than 10 bedrooms?": a yes/no question without its auxiliary
		return Form{Kind: YesNo, Word: start, Focus: firstPhraseFrom(s, start, p)}
	}
	return Form{Kind: Statement, Word: -1, Focus: firstPhraseFrom(s, start, p)}
}

// denial reads a statement that no row is so, as DataBench writes some of its yes/no
// questions: "There are no tornadoes that …", "There were no days when …", "No tornado has …".
func denial(s *Sentence, start int, p Span) (Form, bool) {
	toks := s.Tokens
	no := -1
	switch {
	case start+2 < p.End && toks[start].Is("there") && toks[start+1].Lemma == "be" && toks[start+2].Is("no"):
		no = start + 2
	case start+1 < p.End && toks[start].Is("no") && toks[start+1].IsNoun():
		no = start
	default:
		return Form{}, false
	}
	return Form{Kind: YesNo, Word: no, Focus: firstPhraseFrom(s, no, p), Denied: true}, true
}

// formAt reads the form at token i, if a question word, an auxiliary or an imperative verb
// stands there.
func formAt(s *Sentence, i int, p Span) (Form, bool) {
	toks := s.Tokens
	t := toks[i]
	if t.Kind != Word {
		return Form{}, false
	}
	switch {
	case t.Is("how"):
		kind, focusFrom := How, i+1
		if i+1 < p.End && toks[i+1].Is("many") {
			kind, focusFrom = HowMany, i+1
		} else if i+1 < p.End && toks[i+1].Is("much") {
			kind, focusFrom = HowMuch, i+1
		}
		return Form{Kind: kind, Word: i, Focus: focusAfter(s, focusFrom, p)}, true
	case isWhWord(t):
		return Form{Kind: Wh, Word: i, Focus: whFocus(s, i, p)}, true
	case isAuxiliary(t.Lower) && (t.IsVerb() || t.POS == "MD"):
		// "Can you list …", "Could you tell me …": a polite imperative.
		if i+2 < p.End && toks[i+1].Is("you") && toks[i+2].IsVerb() {
			return Form{Kind: Imperative, Word: i + 2, Focus: firstPhraseFrom(s, i+3, p)}, true
		}
		if w, ok := truthFrame(toks, i, p); ok {
			// "Is it true that the youngest participant has met their match?": the clause
			// after "that" is what is asked; Word is "true", the frame's one content word.
			return Form{Kind: YesNo, Word: w, Focus: firstPhraseFrom(s, w+2, p)}, true
		}
		return Form{Kind: YesNo, Word: i, Focus: partitive(s, firstPhraseFrom(s, i+1, p))}, true
	case t.POS == "VB":
		return Form{Kind: Imperative, Word: i, Focus: firstPhraseFrom(s, i+1, p)}, true
	}
	return Form{}, false
}

// truthFrame reads "is it true that" after the auxiliary at token i, and returns the token of
// "true".
func truthFrame(toks []Token, i int, p Span) (int, bool) {
	if i+3 < p.End && toks[i].Lemma == "be" && toks[i+1].Is("it") && toks[i+2].Is("true") && toks[i+3].Is("that") {
		return i + 2, true
	}
	return 0, false
}

// partitive returns the "of" object of a phrase naming a part of it, "the majority of
// respondents", "half of the listings": the rows asked about are the object's; else k.
func partitive(s *Sentence, k int) int {
	if k < 0 || !s.Tokens[s.Phrases[k].Head].Is("majority", "half", "most") {
		return k
	}
	for _, a := range s.Phrases[k].Attachments {
		if s.Tokens[a.Prep].Is("of") {
			return a.Object
		}
	}
	return k
}

func isWhWord(t Token) bool {
	switch t.POS {
	case "WDT", "WP", "WP$", "WRB":
		return true
	}
	return t.Is("which", "what", "who", "whom", "whose", "when", "where", "why")
}

// whFocus finds the phrase a wh-word asks about: the phrase it determines ("which country"),
// the phrase right after it ("what year"), or the subject after a copula ("what is the average
// fare", "who is the oldest").
func whFocus(s *Sentence, i int, p Span) int {
	for k, np := range s.Phrases {
		if np.Det == i || np.Start == i+1 && p.Contains(np.Start) {
			return k
		}
	}
	return focusAfter(s, i+1, p)
}

// focusAfter is the first phrase at or after token i, or the one containing i ("how many
// passengers": "many passengers" is one phrase).
func focusAfter(s *Sentence, i int, p Span) int {
	for k, np := range s.Phrases {
		if np.Contains(i) {
			return k
		}
	}
	return firstPhraseFrom(s, i, p)
}

func firstPhraseFrom(s *Sentence, i int, p Span) int {
	for k, np := range s.Phrases {
		if np.Start >= i && np.Start < p.End {
			return k
		}
	}
	return -1
}
