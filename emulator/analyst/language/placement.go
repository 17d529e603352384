package language

// Placement is a phrase that places a row by the rows around it: "listed before the midwest",
// "the round after round 3", "previous to squad # 7", "directly after papulova".
type Placement struct {
	// Span covers the preposition and its object: "after the london lions".
	Span
	// Object is the phrase naming the reference row: "the london lions", "round 3".
	Object Span
	// After is set for the rows that follow the reference ("after", "below"), unset for
	// those that precede it ("before", "previous to", "above").
	After bool
	// Weak marks "above" or "below" before a word the vocabulary does not know as a name
	// ("above cl"): a placement only if the word is a value's name, which the linker decides,
	// and a comparison ("above the average") otherwise.
	Weak bool
	// Marks are the tokens that only say the placement: the preposition, "next",
	// "previous", "directly", "right after", and a verb of listing or of the event that
	// orders the rows just before it ("listed", "came", "finished").
	Marks []int
}

// rowPlacement returns the first token after a preposition of order at i ("before", "after",
// "above", "below", "previous to", "prior to"), or -1, and whether it looks forward.
func (s *Sentence) rowPlacement(i int) (int, bool) {
	t := s.Tokens[i]
	switch {
	case t.Is("after") && t.POS == "IN", t.Is("below"):
		return i + 1, true
	case t.Is("before") && t.POS == "IN", t.Is("above"):
		return i + 1, false
	case t.Is("previous", "prior") && i+1 < len(s.Tokens) && s.Tokens[i+1].Is("to"):
		return i + 2, false
	}
	return -1, false
}

// RowOrderAsked returns the span of a phrase that places a row by the rows around it (see
// RowPlacement); ok is false when there is none.
func (s *Sentence) RowOrderAsked() (Span, bool) {
	p, ok := s.RowPlacement()
	return p.Span, ok && !p.Weak
}

// RowPlacement returns the phrase that places a row by the rows around it, "before the
// midwest", "after the london lions", "previous to squad # 7", "above CL": a preposition of
// order whose object is a name or a noun phrase, not a number or a date ("after 2011" compares
// years); "above" and "below" before a value's name or after a verb of placing ("listed below
// Braund"), or weakly before a noun ending the question ("which code is above cl"), since
// "above the average" compares. ok is false when there is none.
func (s *Sentence) RowPlacement() (Placement, bool) {
	toks := s.Tokens
	for i := range toks {
		j, after := s.rowPlacement(i)
		if j < 0 {
			continue
		}
		for j < len(toks) && (toks[j].Is("the", "a", "an") || toks[j].POS == "DT") {
			j++
		}
		if j == len(toks) || toks[j].Kind == Number || toks[j].Kind == Date || toks[j].IsVerb() {
			continue
		}
		if toks[j].Kind != Name && !toks[j].IsNoun() && !toks[j].IsAdjective() {
			continue
		}
		weak := toks[i].Is("above", "below") && toks[j].Kind != Name && !(i > 0 && toks[i-1].Is("listed", "placed", "located", "directly", "right", "immediately", "just"))
		if weak && (!toks[j].IsNoun() || j+1 < len(toks) && toks[j+1].Kind != Punct) {
			continue // "above the average age" compares; "listed above Braund", "above CL" place a row
		}
		end := j + 1
		for end < len(toks) && (toks[end].Kind == Name || toks[end].IsNoun()) {
			end++
		}
		p := Placement{Span: Span{i, end}, Object: Span{j, s.objectEnd(i, end)}, After: after, Weak: weak}
		p.Marks = s.placementMarks(i, j)
		return p, true
	}
	return Placement{}, false
}

// objectEnd extends a placement's object over a number that completes its name ("round 3",
// "squad # 7", "hardcore tv #14"), a prepositional phrase that attaches to it ("nate boyle for
// the united states", "the olympic games in 1996") and, when the question's own verb came
// before "after" or "before", over the clause they introduce ("which team picked after the
// detroit lions chose gary steele"); a verb with none before it is the question's own ("what
// artist previous to july made blue").
func (s *Sentence) objectEnd(prep, end int) int {
	toks := s.Tokens
	if end < len(toks) && toks[end].Is("#") {
		end++
	}
	if end < len(toks) && toks[end].Kind == Number {
		end++
	}
	if end+1 < len(toks) && toks[end].POS == "IN" && !toks[end].Is("than", "after", "before", "as", "because", "while", "if") {
		k := end + 1
		for k < len(toks) && (toks[k].Is("the", "a", "an") || toks[k].IsAdjective() || toks[k].IsNoun() || toks[k].Kind == Name || toks[k].Kind == Number || toks[k].Kind == Date) {
			k++
		}
		if k > end+1 {
			end = k
		}
	}
	if end < len(toks) && toks[end].IsVerb() && toks[prep].Is("after", "before") && s.verbBefore(prep) {
		for end < len(toks) && toks[end].Kind != Punct && !toks[end].Is("and", "but") {
			end++
		}
	}
	return end
}

// verbBefore reports a verb other than a form of "be" or "do" before token i.
func (s *Sentence) verbBefore(i int) bool {
	for k := range i {
		if t := s.Tokens[k]; t.IsVerb() && t.Lemma != "be" && t.Lemma != "do" {
			return true
		}
	}
	return false
}

// placementMarks returns the tokens that say a placement and nothing else: those of the
// preposition up to its object, the adverbs before it ("directly", "right", "just"), a verb
// right before them ("listed", "came", "finished") and "next" or "previous" anywhere before it
// ("the next album after kitty wells", "the previous loan before jacob butterfield").
func (s *Sentence) placementMarks(prep, object int) []int {
	toks := s.Tokens
	var marks []int
	for k := prep; k < object; k++ {
		marks = append(marks, k)
	}
	k := prep - 1
	for k >= 0 && toks[k].Is("directly", "right", "immediately", "just", "shortly", "soon", "next") {
		marks = append(marks, k)
		k--
	}
	switch {
	case k >= 1 && toks[k].Is("place") && toks[k-1].Is("took", "take", "takes", "taking"):
		marks = append(marks, k-1, k)
	case k >= 0 && toks[k].IsVerb() && toks[k].Lemma != "be":
		marks = append(marks, k)
	}
	for k := range prep {
		if toks[k].Is("next", "previous", "preceding", "following", "prior") {
			marks = append(marks, k)
		}
	}
	return marks
}
