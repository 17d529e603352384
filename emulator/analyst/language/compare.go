package language

// degreeOps gives the comparison of the degree words, whose meaning is the comparison itself.
// Other comparatives ("older", "cheaper") compare on their own scale and give ">".
var degreeOps = map[string]string{
	"more": ">", "greater": ">", "higher": ">", "larger": ">", "bigger": ">", "over": ">",
	"above": ">", "exceeding": ">", "exceeds": ">", "exceed": ">", "exceeded": ">",
	"less": "<", "fewer": "<", "lower": "<", "smaller": "<", "under": "<", "below": "<",
	"beneath": "<",
	"after":   ">", "since": ">=", "before": "<", "until": "<=", "till": "<=",
}

// findComparisons finds the comparative conditions of a part.
func findComparisons(s *Sentence, p Span) {
	toks := s.Tokens
	for i := p.Start; i < p.End; i++ {
		t := toks[i]
		switch {
		case t.Kind == Operator && len(t.Lower) > 3 && t.Lower[:3] == "or ":
			if i > p.Start && toks[i-1].Kind == Number {
				s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i - 1, i + 1}, Op: t.Op, Adjective: -1, Value: Span{i - 1, i}})
			}
		case t.Kind == Operator:
			if v, ok := valueAt(s, i+1, p.End); ok {
				s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, v.End}, Op: t.Op, Adjective: -1, Value: v})
			}
		case t.Is("between"):
			betweenAt(s, i, p.End)
		case (t.POS == "JJR" || t.POS == "RBR") && i+1 < p.End && toks[i+1].Is("than"):
			if v, ok := valueAt(s, i+2, p.End); ok {
				s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, v.End}, Op: ComparativeOp(t), Adjective: i, Value: v})
			}
		case t.Is("more", "less") && i+2 < p.End && toks[i+1].IsAdjective() && toks[i+2].Is("than"):
			// "more expensive than 50": the adjective's scale, the degree word's direction
			if v, ok := valueAt(s, i+3, p.End); ok {
				s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, v.End}, Op: degreeOps[t.Lower], Adjective: i + 1, Value: v})
			}
		case (t.POS == "JJR" || t.POS == "RBR") && comparedNoun(toks, i, p.End) > 0:
			// "a greater overall score than their potential score", "more replies than
			// retweets": the scale is named between the comparative and "than"
			than := comparedNoun(toks, i, p.End)
			if v, ok := valueAt(s, than+1, p.End); ok {
				s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, v.End}, Op: ComparativeOp(t), Adjective: i, Value: v})
			}
		case degreeOps[t.Lower] != "" && t.POS != "JJR" && t.POS != "RBR" && i+4 < p.End+1 && i+4 <= len(toks) &&
			toks[i+1].Is("the") && toks[i+2].IsNoun() && toks[i+3].Is("of") && i+4 < p.End && toks[i+4].Kind == Number:
			// "under the age of 25", "above the height of 180": the noun names the scale
			s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, i + 5}, Op: degreeOps[t.Lower], Adjective: -1, Value: Span{i + 4, i + 5}})
		case degreeOps[t.Lower] != "" && t.POS != "JJR" && t.POS != "RBR" && i+1 < p.End && (toks[i+1].Kind == Number || toks[i+1].Kind == Date):
			// "over 30", "above 100", "after 2011", "exceeds 5"
			s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, i + 2}, Op: degreeOps[t.Lower], Adjective: -1, Value: Span{i + 1, i + 2}})
		}
	}
}

// comparedNoun returns the token of "than" after a comparative at i and one to three nouns
// and adjectives ending in a noun, "more replies than", "greater overall score than"; or 0.
func comparedNoun(toks []Token, i, end int) int {
	for j := i + 1; j < end && j <= i+4; j++ {
		switch t := toks[j]; {
		case t.Is("than"):
			if j > i+1 && toks[j-1].IsNoun() {
				return j
			}
			return 0
		case !t.IsNoun() && !t.IsAdjective():
			return 0
		}
	}
	return 0
}

// ComparativeOp is the comparison a comparative makes: "<" for the degree words of less
// (fewer, lower, smaller …), ">" for every other ("more", "older", "taller": on its own scale).
func ComparativeOp(t Token) string {
	if op := degreeOps[t.Lower]; op != "" {
		return op
	}
	return ">"
}

// betweenAt reads "between X and Y".
func betweenAt(s *Sentence, i, end int) {
	lo, ok := valueAt(s, i+1, end)
	if !ok || lo.End >= end || !s.Tokens[lo.End].Is("and") {
		return
	}
	hi, ok := valueAt(s, lo.End+1, end)
	if !ok {
		return
	}
	s.Comparisons = append(s.Comparisons, Comparison{Span: Span{i, hi.End}, Op: "between", Adjective: -1, Value: lo, Upper: hi})
}

// valueAt returns the compared value starting at token i: a number, date, quoted string or
// name (with a following "%" or unit noun left out), or a whole noun phrase ("the average").
func valueAt(s *Sentence, i, end int) (Span, bool) {
	if i >= end {
		return Span{}, false
	}
	switch s.Tokens[i].Kind {
	case Number, Date, Quoted:
		return Span{i, i + 1}, true
	}
	for _, np := range s.Phrases {
		if np.Start == i {
			return np.Span, true
		}
	}
	if s.Tokens[i].Kind == Name {
		return Span{i, i + 1}, true
	}
	return Span{}, false
}

// findSuperlatives finds the superlatives of a part: -est adjectives, most/least with an
// adjective or a noun, and top/bottom.
func findSuperlatives(s *Sentence, p Span, firstPhrase int) {
	toks := s.Tokens
	lx := WordNet()
	for i := p.Start; i < p.End; i++ {
		t := toks[i]
		if t.Kind != Word {
			continue
		}
		sup := Superlative{Span: Span{i, i + 1}, Word: i, Adjective: i, Phrase: -1}
		switch {
		case t.Is("most", "least") && i+1 < p.End && (toks[i+1].IsAdjective() || toks[i+1].POS == "RB"):
			sup.Adjective, sup.End = i+1, i+2
			sup.Lemma = toks[i+1].Lemma
			sup.Least = t.Is("least")
		case t.Is("top", "bottom") && (i+1 < p.End && toks[i+1].Kind == Number || i > p.Start && toks[i-1].Is("the")):
			sup.Adjective, sup.Lemma, sup.Least = -1, "", t.Is("bottom")
		case t.Is("most", "least", "fewest"):
			// a quantity: "the most billionaires", "the least number of employees"
			sup.Lemma, sup.Least = "many", !t.Is("most")
		case t.POS == "JJS" || t.POS == "RBS":
			sup.Lemma = lx.Lemma(t.Lower, "JJS")
		case (t.POS == "JJR" || t.POS == "RBR") && i > p.Start && toks[i-1].Is("the") && !(i+1 < p.End && toks[i+1].Is("than")):
			// "which lunch type has the higher average score": the higher of the two, the
			// superlative of a comparison between two
			sup.Lemma = lx.Lemma(t.Lower, "JJR")
			if t.Is("more", "less", "fewer") {
				sup.Lemma, sup.Least = "many", !t.Is("more")
			}
		default:
			continue
		}
		countOf(&sup, toks, p)
		sup.Phrase = phraseContaining(s, firstPhrase, sup.Word)
		s.Superlatives = append(s.Superlatives, sup)
		i = sup.End - 1
	}
}

// countOf sets how many the superlative asks for: a whole number just before it ("the 3
// cheapest") or just after it ("top 5").
func countOf(sup *Superlative, toks []Token, p Span) {
	isCount := func(k int) bool {
		return k >= p.Start && k < p.End && toks[k].Kind == Number && !toks[k].Percent &&
			toks[k].Value >= 1 && toks[k].Value < 1000 && toks[k].Value == float64(int(toks[k].Value))
	}
	switch {
	case isCount(sup.Start - 1):
		sup.N, sup.Start = int(toks[sup.Start-1].Value), sup.Start-1
	case isCount(sup.End):
		sup.N, sup.End = int(toks[sup.End].Value), sup.End+1
	}
}

func phraseContaining(s *Sentence, first, tok int) int {
	for k := first; k < len(s.Phrases); k++ {
		if s.Phrases[k].Contains(tok) {
			return k
		}
	}
	return -1
}

// DifferenceAsked returns the comparative of "how much larger … than the …" or "how many more
// … than in …": the question asks by how much one value exceeds another. It returns -1 when
// the question does not, or compares with a number ("how many more than 10" is a condition).
func (s *Sentence) DifferenceAsked() int {
	f := s.Form()
	if f.Kind != HowMuch && f.Kind != HowMany {
		return -1
	}
	c := f.Word + 2 // how much larger
	if c >= len(s.Tokens) || s.Tokens[c].POS != "JJR" && s.Tokens[c].POS != "RBR" {
		return -1
	}
	for j := c + 1; j+1 < len(s.Tokens); j++ {
		if s.Tokens[j].Is("than") {
			if s.Tokens[j+1].Kind == Number {
				return -1
			}
			return c
		}
	}
	return -1
}
