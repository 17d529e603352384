package analyst

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// Every word of a question is accounted for before the rules answer it: a keyword, a column,
// a value, a number, a word one of the parse's rules reads (readWords), or a word that does not
// change what is asked (fillerWords). A meaningful word left over means the rules would answer
// a nearby question ("fit a logistic regression of Survived on Sex" read as the survival rate by
// sex), so the reply says what was understood and what was not, and offers readings instead.

// fillerWords carry no meaning an analysis could miss: the verbs of asking, the nouns of data
// and rows, hedges and politeness. They are accounted for by being harmless.
var fillerWords = setOf(
	// asking and doing
	"calculate", "calculated", "calculating", "calculation", "compute", "computed", "computing", "find", "finding",
	"determine", "identify", "obtain", "report", "provide", "check", "checking", "analyze", "analyse", "analysis",
	"perform", "conduct", "run", "assess", "assessing", "evaluate", "evaluating", "examine", "investigate", "explore", "utilize", "utilise", "figure", "work", "answer", "question", "result", "results", "looking", "interested",
	"wondering", "curious", "wonder", "tell", "explain", "say", "see", "find", "give", "show", "want", "wanted",
	"know", "need", "needed", "done", "doing", "made", "making", "got", "getting", "able", "possible", "try",
	"hello", "hey", "thanks", "cheers", "kindly", "dear", "assistant", "quick", "simple", "basic", "brief",
	"briefly", "exactly", "exact", "approximately", "roughly", "around", "actual", "actually", "just", "simply",
	"basically", "generally", "general", "specific", "specifically", "particular", "certain", "given", "provided",
	"recorded", "observed", "listed", "available", "present", "contained", "reported", "measured", "included",
	"single", "among", "amongst", "respectively", "corresponding", "associated", "individual", "entire", "full",
	"complete", "throughout", "whose", "whom", "whether", "what's", "there's", "it's", "let's", "i'd", "i'm",
	"information", "info", "detail", "details", "based", "according", "regarding", "concerning", "related",
	"dataset", "data", "database", "csv", "file", "table", "frame", "dataframe", "spreadsheet", "column", "columns",
	"field", "fields", "variable", "variables", "feature", "features", "attribute", "attributes", "metric", "metrics",
	"observation", "observations", "entry", "entries", "record", "records", "item", "items", "case", "cases",
	"point", "points", "datapoint", "datapoints", // "a data point": a row
	"instance", "instances", "people", "person", "persons", "thing", "things", "stuff", "overall", "altogether",
	"currently", "currently", "still", "ever", "always", "usually", "often", "really", "very", "quite", "pretty",
	"rounded", "listed", "shown", "showing", "appear", "appears", "exist", "exists", "contain", "contains",
	"including", "include", "includes", "consider", "considering", "across", "along", "together", "both",
	"either", "neither", "each", "every", "all", "any", "whole", "part", "parts", "amount", "level", "levels",
	"value", "values", "number", "numbers", "figure", "figures", "stat", "statistic", "numerical", "numeric",
	"dataset's", "currently", "here", "there", "anything", "something", "everything", "name", "names", "named",
	"called", "labelled", "labeled", "category", "categories", "group", "groups", "type", "types", "kind", "kinds",
	"respective", "corresponding", "set", "sets", "list", "lists", "way", "ways", "bit", "lot", "lots",
	"reading", "readings", "measurement", "measurements", "cell", "cells", "come", "comes", "coming", "came",
	"goes", "went", "belong", "belongs", "fall", "falls", "happen", "happened", "occur", "occurred",
	"remaining", "remain", "remains", "left", "express", "expressed", "expressing",
)

// readWords are read by the parse's own rules outside the keyword vocabulary: month names
// (monthFilters), older and younger (ageFilters), number words (resolveOrdinals), start and
// end of a span (growth), colour for a chart's series.
var readWords = func() map[string]bool {
	m := setOf("older", "younger", "start", "end", "beginning", "ending", "colored", "coloured", "color",
		"colour", "hue", "counting", "counted", "next", "previous", "way", "other", "reverse", "reversed",
		"flip", "latest", "last", "first", "second", "third", "fourth", "fifth", "three", "two", "four", "five",
		"six", "seven", "eight", "nine", "ten", "twelve", "twenty", "hundred", "thousand", "million",
		"hired", "signed", "started", "ended", "joined", "opened", "closed", "finished", "released", "created",
		// rounding, which the clause reader takes into the query (constraints.go)
		"round", "rounded", "rounding", "decimal", "decimals", "place", "places", "digit", "digits", "dp")
	for _, w := range language.MonthWords() {
		m[w] = true
	}
	return m
}()

// periodBlind lists the intents whose code takes no period: "outliers in monthly returns" or
// "correlation by month" must not be answered with the period dropped.
var periodBlind = setOf(intentOutliers, intentCorr, intentDescribe, intentMissing, intentOverview, intentColumns,
	intentSize, intentHead, intentUnique, intentJoin, intentWhich, intentShare)

// unreadModifiers returns the words of modifiers the query carries but its intent would not
// apply, so that they are declined like unknown words.
func unreadModifiers(q *Query, ps *parsed) []string {
	var out []string
	if q.Period != "" && periodBlind[q.Intent] {
		out = append(out, askedPeriodWord(ps))
	}
	if q.returns && q.Intent != intentGrowth && q.Intent != intentChart {
		out = append(out, "returns")
	}
	if i := ps.at("percent"); i >= 0 && (q.Intent == intentStat && q.Agg == "count" || q.Intent == intentDescribe || q.Intent == intentSize || q.Intent == intentUnique) {
		out = append(out, ps.toks[i].raw) // "what percentage … are smokers" is no count of a column
	}
	if op := droppedComparison(q, ps); op != "" {
		out = append(out, op)
	}
	for i := 0; i+1 < len(ps.toks); i++ {
		if ps.toks[i].norm == "growth" && ps.toks[i+1].low == "on" && !ps.valueAt(i+2) {
			// "return on ad spend" is a ratio, not a growth; "the return on AAPL" is AAPL's
			out = append(out, ps.toks[i].raw+" on")
		}
	}
	return out
}

// droppedComparison returns the words of a comparison the query read into no condition ("greater
// than weight divided by 10"), which an answer over every row would silently drop; "".
func droppedComparison(q *Query, ps *parsed) string {
	if !valueIntents[q.Intent] || len(q.Filters) > 0 || q.stat.test != "" || q.stat.outlier != "" || q.stat.model != "" {
		return ""
	}
	for i, t := range ps.toks {
		if t.low == ">" || t.low == "<" || t.low == ">=" || t.low == "<=" {
			words := []string{map[string]string{">": "greater than", "<": "less than", ">=": "at least", "<=": "at most"}[t.low]}
			for k := i + 1; k < min(i+4, len(ps.toks)); k++ {
				words = append(words, ps.toks[k].raw)
			}
			return strings.Join(words, " ")
		}
	}
	return ""
}

// reports are the words for what an intent's reply states anyway: a fitted model's
// coefficients (a slope, with one predictor), intercept and errors; a correlation matrix's
// strongest pairs.
var reports = map[intent]map[string]bool{
	intentModel: setOf("slope", "slopes", "intercept", "coefficient", "coefficients", "coef", "weights", "rmse", "mse"),
	intentCorr:  setOf("pair", "pairs", "strongest", "strongly", "correlated", "positive", "negative", "positively", "negatively"),
}

// reportedWords drops from the unknown words those naming what the intent's reply states
// anyway: "report the slope" of a regression, "the pair with the strongest correlation".
func reportedWords(q *Query) []string {
	words := reports[q.Intent]
	return slices.DeleteFunc(q.unknown, func(w string) bool {
		w = strings.ToLower(w)
		return words[w] || len(q.By) > 0 && eachWords[w] // "for red and white wines separately": one per group
	})
}

// eachWords say that a statistic is asked of each group on its own.
var eachWords = setOf("separately", "individually", "respectively", "separate", "independently")

// askedPeriodWord is the word of the question that named its period.
func askedPeriodWord(ps *parsed) string {
	for _, t := range ps.toks {
		switch t.norm {
		case "day", "week", "month", "quarter", "year", "weekday", "decade":
			return t.raw
		}
	}
	return "per period"
}

// ordinalToken matches a number written as an ordinal: 1st, 99th, 2.5th.
var ordinalToken = regexp.MustCompile(`^\d+(\.\d+)?(st|nd|rd|th)$`)

// meaningful reports whether a word of the question could change what it asks, so that it
// must be understood before the rules answer.
func meaningful(ix *colIndex, t token) bool {
	if t.kw || t.num || isOp(t.low) || len(t.low) < 3 {
		return false
	}
	if ordinalToken.MatchString(t.low) {
		return false // "the 99th percentile": a number
	}
	w, one := t.low, singular(t.low)
	return !stopwords[w] && !followWords[w] && !fillerWords[w] && !fillerWords[one] && !readWords[w] &&
		!isDateLiteral(w) && !isFrameWord(ix, w) && !sharesStem(ix, w)
}

// sharesStem reports whether a word is another form of a word of some column's name:
// "submissions" of Submitted, "hired" of hire_date. It names the rows or the column's event,
// which the column's own rules read.
func sharesStem(ix *colIndex, w string) bool {
	const stem = 5
	if len(w) < stem {
		return false
	}
	for _, f := range ix.p.Frames {
		for _, c := range f.Columns {
			for _, cw := range nameWords(c.Name) {
				if len(cw) >= stem && cw[:stem] == w[:stem] {
					return true
				}
			}
		}
	}
	return false
}

// notUnderstood answers a question that left meaningful words over: what was read, what was
// not, and the readings the rules can answer, to click. It never runs an analysis.
func notUnderstood(q *Query, question string, p *Profile) string {
	words := quoteWords(q.unknown)
	var b strings.Builder
	fmt.Fprintf(&b, "I did not understand %s in your question, so I have not answered it: ", words)
	if read := readAs(q, p); read != "" {
		fmt.Fprintf(&b, "the nearest reading I have is %s, which may be a different question.", read)
	} else {
		b.WriteString("I could not tell what to compute.")
	}
	b.WriteString(" If a column is meant, name it as it is in the file; if a method is meant, it may be beyond the built-in rules.")
	readings := unknownReadings(question, q, p)
	if len(readings) > 0 {
		b.WriteString("\n\nWhat I can answer instead:" + suggestionList(readings))
	}
	b.WriteString("\n\nLoaded: " + frameList(p) + ".")
	return b.String()
}

// quoteWords writes words as “a”, “b” and “c”.
func quoteWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "“" + w + "”"
	}
	return andList(q)
}

// andList joins items as English does: "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// readAs says in words what the query computes, as the rules would run it: "the mean of
// `Survived` by `Sex`".
func readAs(q *Query, p *Profile) string {
	var s string
	switch {
	case q.Intent == intentHelp || q.Intent == intentBeyond || q.Intent == intentAmbig:
		return ""
	case len(q.Measures) > 0 && q.Agg != "":
		s = aggNoun(q.Agg) + " of " + columnsInWords(q.Measures)
	case len(q.Measures) > 0:
		s = intentWords(q.Intent) + " of " + columnsInWords(q.Measures)
	default:
		s = intentWords(q.Intent)
	}
	if len(q.By) > 0 {
		s += " by " + columnsInWords(q.By)
	}
	if len(q.Filters) > 0 {
		s += ", for " + describeFilters(q.Filters)
	}
	return s
}

func columnsInWords(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return strings.Join(q, " and ")
}

// aggNoun names an aggregation in a sentence.
func aggNoun(agg string) string {
	switch agg {
	case "mean":
		return "the average"
	case "std":
		return "the standard deviation"
	case "count":
		return "the count"
	case "min":
		return "the minimum"
	case "max":
		return "the maximum"
	}
	return "the " + agg
}

// intentWords names what an intent computes, for the reply that says how a question was read.
func intentWords(in intent) string {
	switch in {
	case intentOverview:
		return "an overview"
	case intentColumns:
		return "the list of columns"
	case intentHead:
		return "the first rows"
	case intentSize:
		return "the number of rows"
	case intentMissing:
		return "the missing values"
	case intentDescribe:
		return "a summary"
	case intentCounts:
		return "the counts"
	case intentUnique:
		return "the distinct values"
	case intentPeak:
		return "the peak"
	case intentTop:
		return "a ranking"
	case intentFilter:
		return "the matching rows"
	case intentSort:
		return "the rows sorted"
	case intentPivot:
		return "a pivot table"
	case intentResample:
		return "totals per period"
	case intentGrowth:
		return "the growth"
	case intentCorr:
		return "the correlation"
	case intentOutliers:
		return "the outliers"
	case intentChart:
		return "a chart"
	case intentJoin:
		return "a join"
	case intentExport:
		return "an export"
	case intentShare:
		return "the shares"
	case intentDuration:
		return "the durations"
	case intentStat:
		return "a statistic"
	case intentWhich:
		return "the row with the extreme value"
	}
	return "a " + string(in)
}

// unknownReadings offers the question without its unknown words, when the rules answer that,
// and the question's columns described, so a click is a knowing choice.
func unknownReadings(question string, q *Query, p *Profile) []string {
	var out []string
	if without := withoutWords(question, q.unknown); without != "" && !strings.EqualFold(without, question) {
		if pl := makePlan(without, nil, p); pl.Reply == "" {
			out = append(out, without)
		}
	}
	for _, m := range q.Measures {
		if len(out) < maxSuggestions {
			out = append(out, "describe "+m)
		}
	}
	if len(out) == 0 {
		out = append(out, "describe the data")
	}
	return out
}

// withoutWords removes whole words from a question, case-insensitively.
func withoutWords(question string, words []string) string {
	drop := map[string]bool{}
	for _, w := range words {
		drop[strings.ToLower(w)] = true
	}
	var kept []string
	for _, f := range strings.Fields(question) {
		if !drop[strings.ToLower(strings.Trim(f, ".,;:!?\"'()"))] {
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " ")
}
