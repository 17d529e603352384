package language

// findCoordinations joins adjacent noun phrases linked by "and" or "or", with commas between
// earlier items: "age, fare and class".
func findCoordinations(s *Sentence, first int) {
	toks := s.Tokens
	for k := first; k+1 < len(s.Phrases); k++ {
		items, conj := []int{k}, -1
		for n := k; n+1 < len(s.Phrases); n++ {
			gap := Span{s.Phrases[n].End, s.Phrases[n+1].Start}
			c, ok := conjunction(toks, gap)
			if !ok || insideBetween(s, gap.Start) {
				break
			}
			items = append(items, n+1)
			if c >= 0 {
				conj = c
				break // the conjunction closes the list
			}
		}
		if conj >= 0 && len(items) > 1 {
			s.Coordinations = append(s.Coordinations, Coordination{Conj: conj, Items: items})
			k = items[len(items)-1]
		}
	}
}

// conjunction reads the gap between two phrases: "and", "or", ",", ", and"; it returns the
// conjunction's token (-1 for a bare comma) and whether the gap joins them at all.
func conjunction(toks []Token, gap Span) (int, bool) {
	switch gap.Len() {
	case 1:
		t := toks[gap.Start]
		if t.Is("and", "or") {
			return gap.Start, true
		}
		return -1, t.Text == ","
	case 2:
		if toks[gap.Start].Text == "," && toks[gap.Start+1].Is("and", "or") {
			return gap.Start + 1, true
		}
	}
	return -1, false
}

func insideBetween(s *Sentence, tok int) bool {
	for _, c := range s.Comparisons {
		if c.Op == "between" && c.Contains(tok) {
			return true
		}
	}
	return false
}

// findRelatives finds relative clauses on the part's noun phrases: a relative pronoun and a
// verb group ("passengers who survived"), "whose" and a phrase ("players whose team won"), or a
// participle right after the phrase ("the fare paid by …", "passengers aged over 30").
func findRelatives(s *Sentence, firstPhrase, firstVerb int, p Span) {
	toks := s.Tokens
	for k := firstPhrase; k < len(s.Phrases); k++ {
		e := s.Phrases[k].End
		if e >= p.End {
			continue
		}
		rc := RelativeClause{Span: Span{e, e}, Antecedent: k, Pronoun: -1, Verb: -1}
		switch t := toks[e]; {
		case t.Is("who", "which", "that", "whom") && (t.POS == "WP" || t.POS == "WDT" || t.POS == "IN"):
			rc.Pronoun, rc.Verb = e, verbStartingAt(s, firstVerb, e+1)
			if rc.Verb < 0 && k+1 < len(s.Phrases) && s.Phrases[k+1].Start == e+1 {
				rc.Verb = verbStartingAt(s, firstVerb, s.Phrases[k+1].End) // "that they hired"
			}
		case k+1 < len(s.Phrases) && s.Phrases[k+1].Start == e && s.Phrases[k+1].Det == e && t.Is("whose"):
			// "players whose preferred foot is left": whose determines the next phrase
			rc.Pronoun, rc.Verb = e, verbStartingAt(s, firstVerb, phraseEnd(s, k+1))
		case t.POS == "VBN" || t.POS == "VBG":
			rc.Verb = verbStartingAt(s, firstVerb, e)
		}
		if rc.Verb < 0 {
			continue
		}
		rc.End = clauseEnd(s, s.Verbs[rc.Verb].End, p.End)
		s.Relatives = append(s.Relatives, rc)
	}
}

func verbStartingAt(s *Sentence, first, tok int) int {
	for v := first; v < len(s.Verbs); v++ {
		if s.Verbs[v].Start == tok {
			return v
		}
	}
	return -1
}

// clauseEnd extends a relative clause over what its verb takes: an object phrase with its
// attachments, a comparison ("aged over 30"), a prepositional phrase ("paid by them").
func clauseEnd(s *Sentence, at, end int) int {
	for at < end {
		next := at
		for _, c := range s.Comparisons {
			if c.Start == at {
				next = max(next, c.End)
			}
		}
		for k, np := range s.Phrases {
			if np.Start == at || np.Start == at+1 && isPreposition(s.Tokens[at]) {
				next = max(next, phraseEnd(s, k))
			}
		}
		if at+1 < end && isPreposition(s.Tokens[at]) && (s.Tokens[at+1].Kind == Number || s.Tokens[at+1].Kind == Date) {
			next = max(next, at+2) // "hired in 2019"
		}
		for next < end && (isNegation(s.Tokens[next]) || s.Tokens[next].IsAdjective() || s.Tokens[next].POS == "RB") && !startsPhrase(s, next) && !startsComparison(s, next) {
			next++ // a predicate: "who are not self-made", "used regularly"
		}
		if next == at {
			return at
		}
		at = next
	}
	return at
}

// phraseEnd is the end of a phrase with its attachments, followed down the chain.
func phraseEnd(s *Sentence, k int) int {
	end := s.Phrases[k].End
	for _, a := range s.Phrases[k].Attachments {
		end = max(end, phraseEnd(s, a.Object))
	}
	return end
}

func startsPhrase(s *Sentence, tok int) bool {
	for _, np := range s.Phrases {
		if np.Start == tok {
			return true
		}
	}
	return false
}

func startsComparison(s *Sentence, tok int) bool {
	for _, c := range s.Comparisons {
		if c.Start == tok {
			return true
		}
	}
	return false
}
