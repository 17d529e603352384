package language

// joints are the phrases that open a new step of a question. Grammar, not vocabulary.
var joints = [][]string{
	{"and", "then"}, {"after", "that"}, {"and", "finally"}, {"then"}, {"afterwards"}, {"finally"},
	{"lastly"}, {"next", ","},
}

// splitParts cuts the tokens into steps at clause joints: the phrases above, a semicolon, the
// end of a sentence followed by another, and numbered items ("1." "2)").
func splitParts(toks []Token) []Part {
	var parts []Part
	cur := Part{Span: Span{0, 0}}
	i := 0
	if n := numberedMarker(toks, 0); n > 0 {
		cur.Joint = joinLower(toks[:n])
		i = n
		cur.Start = n
	}
	for i < len(toks) {
		n, joint := jointAt(toks, i)
		if n == 0 {
			i++
			continue
		}
		cur.End = i
		if cur.End > cur.Start {
			parts = append(parts, cur)
		} else if cur.Joint != "" {
			joint = cur.Joint + " " + joint // "? After that": one joint
		}
		cur = Part{Span: Span{i + n, i + n}, Joint: joint}
		i += n
	}
	cur.End = len(toks)
	if cur.End > cur.Start || len(parts) == 0 {
		parts = append(parts, cur)
	}
	return trimPunct(toks, parts)
}

// jointAt returns the length and text of a joint starting at token i, or 0.
func jointAt(toks []Token, i int) (int, string) {
	t := toks[i]
	if t.Kind == Punct && (t.Text == ";" || (t.Text == "." || t.Text == "?" || t.Text == "!") && i+1 < len(toks)) {
		n := 1
		if m := numberedMarker(toks, i+1); m > 0 {
			n += m
		}
		return n, joinLower(toks[i : i+n])
	}
	if i > 0 && (toks[i-1].Kind == Punct || toks[i-1].Lower == "and") && toks[i-1].Text != "(" {
		if m := numberedMarker(toks, i); m > 0 {
			return m, joinLower(toks[i : i+m])
		}
	}
	for _, j := range joints {
		if i+len(j) <= len(toks) && wordsOrPunctAt(toks, i, j) && !(j[0] == "then" && ifBefore(toks, i)) {
			return len(j), joinLower(toks[i : i+len(j)])
		}
	}
	return 0, ""
}

// ifBefore reports an "if" earlier in the clause: "if … then" is a condition, not a new step.
func ifBefore(toks []Token, i int) bool {
	for k := i - 1; k >= 0 && toks[k].Text != "." && toks[k].Text != ";"; k-- {
		if toks[k].Lower == "if" {
			return true
		}
	}
	return false
}

// numberedMarker returns the length of "1." "2)" "(3)" at i, or 0.
func numberedMarker(toks []Token, i int) int {
	if i+1 < len(toks) && toks[i].Text == "(" && toks[i+1].Kind == Number && i+2 < len(toks) && toks[i+2].Text == ")" {
		return 3
	}
	if i+1 < len(toks) && toks[i].Kind == Number && !toks[i].Percent && toks[i].Value >= 1 && toks[i].Value <= 20 &&
		toks[i].Value == float64(int(toks[i].Value)) && (toks[i+1].Text == "." || toks[i+1].Text == ")") {
		return 2
	}
	return 0
}

func wordsOrPunctAt(toks []Token, i int, words []string) bool {
	for k, w := range words {
		if toks[i+k].Lower != w {
			return false
		}
	}
	return true
}

func joinLower(toks []Token) string {
	s := ""
	for i, t := range toks {
		if i > 0 && t.Kind != Punct {
			s += " "
		}
		s += t.Lower
	}
	return s
}

// trimPunct drops leading commas and trailing sentence punctuation from each part.
func trimPunct(toks []Token, parts []Part) []Part {
	for k := range parts {
		p := &parts[k]
		for p.Start < p.End && toks[p.Start].Kind == Punct && toks[p.Start].Text == "," {
			p.Start++
		}
		for p.End > p.Start && toks[p.End-1].Kind == Punct && isClosing(toks[p.End-1].Text) {
			p.End--
		}
	}
	return parts
}

func isClosing(s string) bool { return s == "." || s == "?" || s == "!" || s == "," || s == ";" }
