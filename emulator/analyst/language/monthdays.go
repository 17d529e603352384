package language

// MonthDay is a month, or a day of a month, named without a year: "in February", "on
// September 17th", "the 17th of September", "3 March". A date with its year is one Date token.
type MonthDay struct {
	// Span covers the words, with the preposition that introduces them ("in", "on", "for").
	Span
	Month int // 1 to 12
	Day   int // 1 to 31, or 0 for the whole month
}

// MonthDays returns the months and days the question names without a year. A month word
// counts beside a day, or after a preposition: "may" the modal and "march" the verb stand
// alone.
func (s *Sentence) MonthDays() []MonthDay {
	var out []MonthDay
	toks := s.Tokens
	for i, t := range toks {
		month := t.Month()
		if month == 0 {
			continue
		}
		md := MonthDay{Span: Span{Start: i, End: i + 1}, Month: month}
		switch {
		case i+1 < len(toks) && isDay(toks[i+1]):
			md.Day, md.End = int(toks[i+1].Value), i+2 // "September 17th"
		case i >= 2 && toks[i-1].Is("of") && isDay(toks[i-2]):
			md.Day, md.Start = int(toks[i-2].Value), i-2 // "the 17th of September"
		case i >= 1 && isDay(toks[i-1]):
			md.Day, md.Start = int(toks[i-1].Value), i-1 // "17 September"
		case i >= 1 && toks[i-1].Is("in", "during", "of", "since", "until"):
			md.Start = i - 1 // "in February"
		default:
			continue
		}
		if md.Day > 0 && md.Start > 1 && toks[md.Start-1].Is("the") && toks[md.Start-2].Is("on", "for", "in") {
			md.Start -= 2 // "on the 3rd of March"
		} else if md.Day > 0 && md.Start > 0 && toks[md.Start-1].Is("on", "for", "in") {
			md.Start--
		}
		out = append(out, md)
	}
	return out
}
