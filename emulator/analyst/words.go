package analyst

import (
	"strings"
	"unicode"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// token is one word of a question: as typed, lowercased, and reduced to a canonical keyword or
// its singular form.
type token struct {
	raw  string // as typed, for tickers and values
	low  string
	norm string // canonical keyword (see vocabulary) or the singular of low
	kw   bool   // norm is a keyword
	num  bool   // a number, digits kept in low
}

// phrases are rewritten before tokenizing, so that multi-word keywords become one token.
var phrases = strings.NewReplacer(
	"mean absolute deviation", "meanad", "median absolute deviation", "medad", "standard deviation", "std", "std dev", "std", "coefficient of variation", "cv", "the range of", "the valrange of", "how many", "howmany", "value counts", "counts",
	"heat map", "heatmap", "box plot", "boxplot", "box and whisker", "boxplot", "data types", "dtypes",
	"over time", "overtime", "greater than or equal to", ">=", "less than or equal to", "<=",
	"greater than", ">", "more than", ">", "bigger than", ">", "higher than", ">", "larger than", ">",
	"less than", "<", "lower than", "<", "smaller than", "<", "fewer than", "<", "at least", ">=", "at most", "<=",
	"equal to", "=", "year over year", "yoy", "per cent", "percent", "first few", "first", "look like", "lookslike",
	"tell me about", "overview", "what's in", "overview", "whats in", "overview", "what is in", "overview",
	"as well", "also", "group by", "by", "grouped by", "by", "broken down by", "by",
	"for each", "by", "per each", "by", "line chart", "line", "line graph", "line", "pie chart", "pie",
	"bar chart", "bar", "bar graph", "bar", "column chart", "bar", "area chart", "area",
	"horizontal bar", "barh", "scatter plot", "scatter", "trend line", "trendline", "line of best fit", "trendline",
	"best fit", "trendline", "regression line", "trendline", "all time high", "peak", "all-time high", "peak",
	"missing values", "missing", "null values", "missing", "cross tab", "pivot", "crosstab", "pivot",
	"pivot table", "pivot", "moving average", "rolling", "rolling mean", "rolling", "new file", "file", "percent change", "change", "percentage change", "change", "pct change", "change", "% change", "change", "which date", "when", "what date", "when", "which day", "when", "what day", "when", "order by", "sort by", "in order of", "sort by",
)

// splitWords splits a question into tokens, keeping comparison operators and decimal numbers.
func splitWords(q string) []token {
	low := strings.ToLower(q)
	low = statPhrases.Replace(phrases.Replace(" " + low + " "))
	var out []token
	rawWords := rawFields(q)
	for _, w := range fieldsKeep(low) {
		if strings.ContainsRune(w, '-') && strings.ContainsFunc(w, unicode.IsLetter) {
			// "unit-price", "k-means": hyphens join words; dates and negative numbers keep theirs.
			for _, part := range strings.Split(w, "-") {
				if part != "" {
					out = append(out, newToken(part, rawWords))
				}
			}
			continue
		}
		out = append(out, newToken(w, rawWords))
	}
	return out
}

// rawFields maps lowercase words to their spelling as typed, for case-sensitive values.
func rawFields(q string) map[string]string {
	m := map[string]string{}
	for _, w := range fieldsKeep(q) {
		lw := strings.ToLower(w)
		if _, ok := m[lw]; !ok {
			m[lw] = w
		}
	}
	return m
}

// fieldsKeep splits on anything but letters, digits, '.', '-', '%' inside numbers and the
// operators < > = !.
func fieldsKeep(s string) []string {
	var out []string
	start := -1
	flush := func(i int) {
		if start >= 0 {
			out = append(out, strings.Trim(s[start:i], ".-"))
			start = -1
		}
	}
	for i, r := range s {
		switch {
		case r == '<' || r == '>' || r == '=' || r == '!':
			flush(i)
			if n := len(out); n > 0 && isOp(out[n-1]) && i > 0 && strings.ContainsRune("<>=!", rune(s[i-1])) {
				out[n-1] += string(r)
			} else {
				out = append(out, string(r))
			}
		case r == ',' && start >= 0 && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]):
			// a thousands separator inside a number: "1,000"
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '-' || r == '%' || r == '\'' && start >= 0:
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	kept := out[:0]
	for _, w := range out {
		if w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "'"); w != "" {
			kept = append(kept, w)
		}
	}
	return kept
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isOp(s string) bool { return s != "" && strings.Trim(s, "<>=!") == "" }

func newToken(w string, raw map[string]string) token {
	t := token{raw: raw[w], low: w}
	if t.raw == "" {
		t.raw = w
	}
	if isNumber(w) || isOp(w) {
		t.num = !isOp(w)
		t.norm = w
		return t
	}
	if k, ok := vocabulary[w]; ok {
		t.norm, t.kw = k, true
		return t
	}
	t.norm = singular(w)
	if k, ok := vocabulary[t.norm]; ok {
		t.norm, t.kw = k, true
	}
	return t
}

func isNumber(w string) bool {
	w = strings.TrimSuffix(strings.TrimPrefix(w, "-"), "%")
	if w == "" {
		return false
	}
	dots := 0
	for _, r := range w {
		switch {
		case r == '.' || r == ',':
			dots++
		case r < '0' || r > '9':
			return false
		}
	}
	return dots <= 3
}

// singular strips a plural ending, well enough to match column names both ways.
func singular(w string) string {
	switch {
	case w == "ids": // the one short plural column names take: "student ids" of student_id
		return "id"
	case len(w) <= 3 || strings.HasSuffix(w, "ss") || strings.HasSuffix(w, "us") || strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// editDistance is the Damerau-Levenshtein (optimal string alignment) distance, capped: it
// returns max+1 as soon as the distance must exceed max.
func editDistance(a, b string, max int) int {
	if d := len(a) - len(b); d > max || -d > max {
		return max + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			rowMin = min(rowMin, cur[j])
		}
		if rowMin > max {
			return max + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// fuzzyBudget is how many typos a word of n letters may carry and still be recognised.
func fuzzyBudget(n int) int {
	switch {
	case n >= 8:
		return 2
	case n >= 5:
		return 1
	}
	return 0
}

// correctKeyword maps a misspelt word to a keyword, or returns "".
func correctKeyword(w string) string {
	budget := fuzzyBudget(len(w))
	if len(w) == 4 {
		budget = 1 // "totl", "mena": four letters may carry one typo, checked strictly below
	}
	if budget == 0 || stopwords[w] || englishWord(w) {
		return "" // "independent" is no typo of "independence"
	}
	best, bestD := "", budget+1
	for _, v := range vocabWords {
		if v[0] != w[0] && (len(w) < 2 || v[0] != w[1]) {
			continue // typos rarely hit the first letter; this keeps planning fast
		}
		limit := min(budget, fuzzyBudget(len(v)))
		if len(w) == 4 {
			if len(v) < 4 || v[0] != w[0] || v[len(v)-1] != w[len(w)-1] {
				continue
			}
			limit = 1
		}
		if d := editDistance(w, v, limit); d <= limit && d < bestD {
			best, bestD = v, d
		}
	}
	if best == "" {
		return ""
	}
	return vocabulary[best]
}

// englishWord reports a word WordNet has, in any form: a word spelt right is no typo.
// englishCompound reports a long word that is the short one followed by another English word
// ("songwriters": song + writers), which the short one does not abbreviate.
func englishCompound(short, long string) bool {
	rest, ok := strings.CutPrefix(long, short)
	return ok && len(rest) >= 3 && englishWord(rest)
}

func englishWord(w string) bool {
	lx := language.WordNet()
	return lx.POS(w) != 0 || lx.POS(lx.Lemma(w, "NNS")) != 0 || lx.POS(lx.Lemma(w, "VBD")) != 0 || lx.POS(lx.Lemma(w, "JJR")) != 0
}
