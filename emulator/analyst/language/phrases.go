package language

import (
	"maps"
	"slices"
	"strings"
)

// operatorPhrases are the comparison phrases of English grammar, longest first within each
// first word. "or more" and "or less" follow their number ("3 or more").
var operatorPhrases = []struct {
	words []string
	op    string
}{
	{strings.Fields("greater than or equal to"), ">="},
	{strings.Fields("more than or equal to"), ">="},
	{strings.Fields("less than or equal to"), "<="},
	{strings.Fields("not more than"), "<="},
	{strings.Fields("not less than"), ">="},
	{strings.Fields("not equal to"), "!="},
	{strings.Fields("no more than"), "<="},
	{strings.Fields("no less than"), ">="},
	{strings.Fields("no fewer than"), ">="},
	{strings.Fields("more than"), ">"},
	{strings.Fields("greater than"), ">"},
	{strings.Fields("less than"), "<"},
	{strings.Fields("fewer than"), "<"},
	{strings.Fields("at least"), ">="},
	{strings.Fields("at most"), "<="},
	{strings.Fields("equal to"), "="},
	{strings.Fields("equals"), "="},
	{strings.Fields("up to"), "<="},
	{strings.Fields("or more"), ">="},
	{strings.Fields("or greater"), ">="},
	{strings.Fields("or higher"), ">="},
	{strings.Fields("or above"), ">="},
	{strings.Fields("or less"), "<="},
	{strings.Fields("or fewer"), "<="},
	{strings.Fields("or lower"), "<="},
	{strings.Fields("or below"), "<="},
}

// mergeOperators joins the words of an operator phrase into one Operator token. "up to" and
// the postfix "or more" count only next to a number, where they cannot mean anything else.
func mergeOperators(s string, toks []Token) []Token {
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		if n, op := operatorAt(toks, i); n > 0 {
			out = append(out, Token{Text: s[toks[i].Start:toks[i+n-1].End], Kind: Operator, Op: op,
				Start: toks[i].Start, End: toks[i+n-1].End, Lower: strings.ToLower(s[toks[i].Start:toks[i+n-1].End])})
			i += n - 1
			continue
		}
		out = append(out, toks[i])
	}
	return out
}

func operatorAt(toks []Token, i int) (int, string) {
	for _, p := range operatorPhrases {
		n := len(p.words)
		if i+n > len(toks) || !wordsAt(toks, i, p.words) {
			continue
		}
		postfix := p.words[0] == "or"
		if postfix && (i == 0 || toks[i-1].Kind != Number) {
			continue
		}
		if p.words[0] == "up" && (i+n >= len(toks) || toks[i+n].Kind != Number) {
			continue
		}
		return n, p.op
	}
	return 0, ""
}

func wordsAt(toks []Token, i int, words []string) bool {
	for k, w := range words {
		if toks[i+k].Kind != Word || toks[i+k].Lower != w {
			return false
		}
	}
	return true
}

// numberWords are the values of spelled-out numbers, which questions use for counts ("the top
// five"). Grammar, not vocabulary: a closed list.
var numberWords = map[string]float64{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
	"thirty": 30, "fifty": 50, "hundred": 100, "thousand": 1000, "million": 1e6, "billion": 1e9,
}

// ordinalWords are the spelled-out ordinals.
var ordinalWords = map[string]float64{
	"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
	"eighth": 8, "ninth": 9, "tenth": 10,
}

// months are the calendar's month names, for dates written with them ("March 2011").
var months = map[string]int{
	"january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
	"august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
	"jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9, "sept": 9,
	"oct": 10, "nov": 11, "dec": 12,
}

// mergeMonthDates joins "March 2011", "March 3, 2011" and "3 March 2011" into one Date token,
// whatever the month's case ("12 march 1983"): a month word counts only beside a year, so "may"
// the modal and "march" the verb, which no year follows, stay words.
func mergeMonthDates(s string, toks []Token) []Token {
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		if n, year := monthDateAt(toks, i); n > 0 {
			out = append(out, Token{Text: s[toks[i].Start:toks[i+n-1].End], Kind: Date, Value: year,
				Start: toks[i].Start, End: toks[i+n-1].End, Lower: strings.ToLower(s[toks[i].Start:toks[i+n-1].End])})
			i += n - 1
			continue
		}
		out = append(out, toks[i])
	}
	return out
}

// Month returns the calendar month a word names ("february", "Sept"), or 0. "May" and
// "March" are also a modal and a verb: the caller decides by the words around them.
func (t Token) Month() int {
	if t.Kind != Word {
		return 0
	}
	return months[t.Lower]
}

// MonthOf returns the calendar month a lowercase word names ("feb", "february"), or 0: the
// one table of month names, for readers that have words rather than tokens.
func MonthOf(word string) int { return months[word] }

// MonthWords returns every month name and abbreviation MonthOf knows, in no order.
func MonthWords() []string { return slices.Collect(maps.Keys(months)) }

func isYear(t Token) bool {
	return t.Kind == Number && !t.Percent && !t.Ordinal && t.Value >= 1000 && t.Value <= 2999 && t.Value == float64(int(t.Value))
}

// isDay reports a day of a month: "17", "17th".
func isDay(t Token) bool {
	return t.Kind == Number && !t.Percent && t.Value >= 1 && t.Value <= 31 && t.Value == float64(int(t.Value))
}

// monthDateAt returns the length and year of a month-name date starting at i.
func monthDateAt(toks []Token, i int) (int, float64) {
	at := func(k int) (Token, bool) {
		if i+k < len(toks) {
			return toks[i+k], true
		}
		return Token{}, false
	}
	first, _ := at(0)
	switch {
	case first.Month() > 0:
		if t, ok := at(1); ok && isYear(t) {
			return 2, t.Value // March 2011
		}
		if t, ok := at(1); ok && isDay(t) {
			if c, ok := at(2); ok && c.Text == "," {
				if y, ok := at(3); ok && isYear(y) {
					return 4, y.Value // March 3, 2011
				}
			}
			if y, ok := at(2); ok && isYear(y) {
				return 3, y.Value // March 3 2011
			}
		}
	case isDay(first):
		if m, ok := at(1); ok && m.Month() > 0 {
			if y, ok := at(2); ok && isYear(y) {
				return 3, y.Value // 3 March 2011
			}
		}
	}
	return 0, 0
}
