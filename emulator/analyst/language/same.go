package language

// SameAs is "the same <noun phrase> as <reference>": the rows whose value of what the noun
// phrase names equals the reference's ("which other album has the same length as Topeng").
type SameAs struct {
	// Span covers the construction from "same" to the reference's end.
	Span
	Same int // token: "same"
	// What is the noun phrase after "same" (a phrase index), or -1 when none ("the same as
	// what other year").
	What int
	As   int  // token: "as"
	Ref  Span // the reference: the words after "as", to the next clause or the end
}

// SameAs returns the question's "the same … as …", if it has one.
func (s *Sentence) SameAs() (SameAs, bool) {
	toks := s.Tokens
	for i, t := range toks {
		if !t.Is("same") {
			continue
		}
		sa := SameAs{Same: i, What: -1, As: -1}
		for k, np := range s.Phrases {
			if np.Contains(i) && np.Head != i || np.Start == i+1 {
				sa.What = k
			}
		}
		from := i + 1
		if sa.What >= 0 {
			from = s.Phrases[sa.What].End
		}
		for j := from; j < len(toks) && j <= from+1; j++ {
			if toks[j].Is("as") {
				sa.As = j
				break
			}
		}
		if sa.As < 0 {
			continue
		}
		end := sa.As + 1
		for end < len(toks) && toks[end].Kind != Punct && !toks[end].Is("and", "but") && !(end > sa.As+1 && toks[end].IsVerb()) {
			end++
		}
		if end == sa.As+2 && toks[sa.As+1].Is("before", "above", "previously", "earlier", "last") {
			continue // "the same chart as before" refers to the conversation, not to a row
		}
		sa.Ref = Span{Start: sa.As + 1, End: end}
		sa.Span = Span{Start: i, End: end}
		return sa, true
	}
	return SameAs{}, false
}
