package analyst

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Query is what a question asks for, resolved against the profile: the intent, the frame, the
// columns in their roles, and the modifiers. Follow-ups merge one Query into the previous one.
type Query struct {
	Intent intent // see intents.go
	Frame  int    // index into Profile.Frames
	// Sheets are the frames of a workbook the question names without naming a sheet: an
	// overview or a count of rows answers for each.
	Sheets   []int
	Measures []string // the columns analysed
	By       []string // group keys, at most two
	Agg      string   // mean, median, sum, min, max, std, var, count
	// Aggs are further aggregates asked beside Agg, each of every measure: "the mean and
	// the standard deviation of Fare".
	Aggs     []string
	N        int  // rows for top/bottom/head
	Bottom   bool // smallest first
	Filters  []Filter
	Period   string // D, W, M, Q or Y
	Chart    string // line, bar, barh, hist, box, scatter, pie, area, heatmap
	Trend    bool   // a trend line on a scatter
	Export   string // csv or xlsx
	DateCol  string
	JoinWith int // the other frame of a join, or -1
	JoinOn   string
	// JoinRight is the key's name in the other frame; it differs from JoinOn when two files
	// join on their dates ("Datum" and "date").
	JoinRight string
	// Via is a frame merged in on ViaOn because the question names its columns ("revenue by
	// segment" when segment lives in customers.json), or -1.
	Via      int
	ViaOn    string
	ViaRight string // the key's name in the Via frame
	// Ambiguous lists the candidate columns of a word that named several; the reply asks back.
	Ambiguous []string
	AmbigWord string
	Notes     []string // said in the reply, e.g. which column stood in for "price"
	Tail      bool
	Rolling   int
	Code      string // a fenced block to run as written
	// Which is the column a "which X" question asks for (entity.go): the answer names its value.
	Which string
	// Named is the column whose values a list of matching rows names first, when the question
	// asks for something by name ("what is the network owned by …" → Network).
	Named string

	kws      map[string]int // keyword -> first position, for merging follow-ups
	numeric  bool           // some measure is numeric
	explicit bool           // the question's own words chose the intent
	cue      bool           // the question leans on the previous one ("same for", "instead")
	pending  intent         // the intent of an ambiguous question, once its column is known
	plural   bool           // the rows are named in the plural ("which employees")
	unknown  []string       // words that matched no column, for asking back
	named    bool           // something in the question pointed at the frame
	typed    bool           // the question typed the frame's file name
	byDate   bool           // "most recent", "oldest": order by the date column
	asked    []string       // the candidate columns of a reply that asks back
	lasting  bool           // asks how long rows lasted, and the frame has a start and an end date
	flip     bool           // "sorted the other way": reverse the previous order
	flipped  bool           // the order of grouped results is reversed: smallest first
	each     string         // the column grouped by because its values were named with "and"
	// versus is the ratio or difference asked of two values' results: "the ratio of smokers to
	// non-smokers", "the difference between the average charges of smokers and non-smokers".
	versus  versusAsk
	whenRow bool         // "which year", "what day": the answer is the row's date or label
	returns bool         // period-to-period returns (pct_change), not first-to-last growth
	refine  refinements  // this question's constraints and preparation (constraints.go)
	derived []derivation // every column the conversation derived, oldest first (derive.go)
	stat    statAsk      // a test, an outlier rule or a model (stats_parse.go)
}

// kwHas reports whether the question named keyword k.
func (q *Query) kwHas(k string) bool { _, ok := q.kws[k]; return ok }

// Filter is one condition on a column.
type Filter struct {
	Col    string
	Op     string // ==, !=, >, >=, <, <=, in, year
	Value  string
	Values []string // for in
	Kind   string   // num, date or cat
}

// reads reports a column the query measures, groups or filters on, or names rows by.
func (q *Query) reads(col string) bool {
	return slices.Contains(q.Measures, col) || q.DateCol == col || q.Which == col || q.Named == col || q.restrictsBy(col)
}

// restrictsBy reports a column the query filters or groups on.
func (q *Query) restrictsBy(col string) bool {
	return slices.Contains(q.By, col) || slices.ContainsFunc(q.Filters, func(f Filter) bool { return f.Col == col })
}

// restates reports a word that only repeats what its neighbour says: "coefficient" of
// "correlation coefficient", "range" of "interquartile range", and "non" of "smokers and non-smokers", where both groups are
// named and the question is about the two.
func (ps *parsed) restates(i int) bool {
	t := ps.toks[i]
	switch {
	case strings.HasPrefix(t.low, "coefficient") && i > 0 && ps.toks[i-1].norm == "corr",
		t.low == "range" && i > 0 && ps.toks[i-1].norm == "iqr": // the interquartile range is the IQR
		return true
	case t.low == "non" && i+1 < len(ps.toks):
		return ps.count(ps.toks[i+1].low) >= 2 // "non-smokers" beside "smokers"
	}
	return false
}

// count returns how many times a word appears in the question.
func (ps *parsed) count(w string) int {
	n := 0
	for _, t := range ps.toks {
		if t.low == w {
			n++
		}
	}
	return n
}

// parsed holds the pieces of one question before the intent is chosen.
type parsed struct {
	toks     []token
	kws      map[string]int
	mentions []mention
	values   []valueMention
	taken    []bool // tokens used by a column or value mention
	file     int    // the frame whose file name the question types ("in stocks.csv"), or -1
	// sheetTyped is set when the file typed is a sheet's key, "history.xls:2024".
	sheetTyped bool
	unknown    []string // meaningful words that named nothing (see account.go): a column that does not exist, or a method the rules lack
}

func (ps *parsed) has(k string) bool { _, ok := ps.kws[k]; return ok }

// valueAt reports whether a category value starts at token i.
func (ps *parsed) valueAt(i int) bool {
	for _, v := range ps.values {
		if v.at == i {
			return true
		}
	}
	return false
}

// freeWord reports whether the question has the word outside the names of columns: "test" of
// "a t-test", not of "test preparation".
func (ps *parsed) freeWord(w string) bool {
	for i, t := range ps.toks {
		if t.low == w && !slices.ContainsFunc(ps.mentions, func(m mention) bool { return m.start <= i && i < m.end && m.score >= 1 }) {
			return true
		}
	}
	return false
}

// hasWord reports whether the question contains the word as typed (lowercased).
func (ps *parsed) hasWord(w string) bool { return ps.wordAt(w) >= 0 }

// at returns the position of keyword k, or -1.
func (ps *parsed) at(k string) int {
	if i, ok := ps.kws[k]; ok {
		return i
	}
	return -1
}

// derivedMention reports a mention of a column the conversation derived.
func derivedMention(ix *colIndex, m mention) bool {
	return slices.ContainsFunc(m.cols, func(c colRef) bool { return isDerivedColumn(*ix.column(c)) })
}

// versusAsk is a ratio ("/") or a difference ("-") of the results of two values of the column
// grouped by, the first value said first.
type versusAsk struct {
	op   string
	a, b string
}

// testNamingWords are the keywords and words that name a statistical test before the noun "test".
var testNamingWords = setOf("ttest", "mwu", "wilcoxon", "chi2", "anova", "kruskal", "normal", "pearson", "spearman", "kendall",
	"signif", "wilk", "shapiro", "levene", "t", "z", "f", "square", "hypothesis", "statistical", "significance", "two-sample",
	"one-sample", "paired", "independent", "sample")

// namedTest reports a partial mention of a column by the noun "test" that names a statistical
// test: "use the Shapiro-Wilk test" is no mention of test_preparation.
func namedTest(toks []token, m mention) bool {
	if m.end-m.start != 1 || m.score >= 1 || toks[m.start].low != "test" && toks[m.start].low != "tests" {
		return false
	}
	for k := m.start - 1; k >= 0 && k >= m.start-3; k-- {
		if testNamingWords[toks[k].norm] || testNamingWords[toks[k].low] {
			return true
		}
	}
	return false
}

// analyze tokenizes a question and finds its keywords, columns and values.
func analyze(q string, ix *colIndex) *parsed {
	ps := &parsed{toks: splitWords(q), kws: map[string]int{}}
	ps.taken = make([]bool, len(ps.toks))
	var span [2]int
	ps.file, span, ps.sheetTyped = typedFile(ps.toks, ix.p)
	for i := span[0]; i < span[1]; i++ {
		ps.taken[i] = true
	}
	ps.mentions = slices.DeleteFunc(ix.mentions(ps.toks), func(m mention) bool {
		return m.start < span[1] && m.end > span[0] || namedTest(ps.toks, m)
	})
	for _, m := range ps.mentions {
		for i := m.start; i < m.end; i++ {
			// A keyword inside a multi-word column name ("order date") is part of the name, and
			// so is a keyword the question itself named a new column by ("performance").
			if m.end-m.start > 1 || !ps.toks[i].kw || m.score >= 1 && derivedMention(ix, m) {
				ps.taken[i] = true
			}
		}
	}
	ps.values = ix.values(ps.toks, func(i int) bool { return ps.taken[i] })
	for _, v := range ps.values {
		for i := v.at; i < v.at+v.n; i++ {
			ps.taken[i] = true // "Western Europe" is one value of two words
		}
	}
	for i := range ps.toks {
		t := &ps.toks[i]
		if agg := impliedAgg[t.low]; agg != "" {
			ps.kws[agg] = i
		}
		if !t.kw && !t.num && !ps.taken[i] {
			if k := correctKeyword(t.low); k != "" {
				t.norm, t.kw = k, true
			}
		}
		if t.kw && !ps.taken[i] {
			if _, ok := ps.kws[t.norm]; !ok {
				ps.kws[t.norm] = i
			}
		}
		if !ps.taken[i] && meaningful(ix, *t) && !ps.restates(i) {
			ps.unknown = append(ps.unknown, t.raw)
		}
	}
	return ps
}

// typedFile finds a file name typed in the question ("region_targets.csv"): the frame it
// names, or -1, and the tokens it spans, which name the file and none of its columns.
func typedFile(toks []token, p *Profile) (fi int, span [2]int, sheet bool) {
	fi = -1
	for i, f := range p.Frames {
		// A sheet's key ("history.xls:2024") typed whole is longer than its file's name, and wins.
		for _, target := range []string{alnum(f.Key), alnum(f.File)} {
			if s, ok := typedSpan(toks, target); ok && (fi < 0 || s[1]-s[0] > span[1]-span[0]) {
				fi, span, sheet = i, s, target != alnum(f.File)
			}
		}
	}
	return fi, span, sheet
}

// typedSpan finds the tokens whose letters and digits, run together, are target.
func typedSpan(toks []token, target string) ([2]int, bool) {
	for i := range toks {
		acc := ""
		for j := i; j < len(toks) && strings.HasPrefix(target, acc); j++ {
			if acc += alnum(toks[j].low); acc == target {
				return [2]int{i, j + 1}, true
			}
		}
	}
	return [2]int{}, false
}

// sheetsOf returns the frames read from the file of frame fi, when it has several (a
// workbook's sheets), and none when it has one.
func sheetsOf(p *Profile, fi int) []int {
	var out []int
	for i, f := range p.Frames {
		if f.File == p.Frames[fi].File {
			out = append(out, i)
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// alnum keeps the letters and digits of s, lowercased.
func alnum(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// isFrameWord reports whether w names a loaded file or sheet.
func isFrameWord(ix *colIndex, w string) bool {
	for _, f := range ix.p.Frames {
		for _, fw := range frameWords(f) {
			if fw == w || fw == singular(w) {
				return true
			}
		}
	}
	return false
}

// impliedAgg lists superlatives that name both a column (see abbreviations) and an extreme.
var impliedAgg = map[string]string{"hottest": "max", "warmest": "max", "coldest": "min", "wettest": "max", "rainiest": "max", "busiest": "max"}

// numberAfter returns the integer right after position i (skipping one stopword), or 0.
func (ps *parsed) numberAfter(i int) int {
	for j := i + 1; j < len(ps.toks) && j <= i+2; j++ {
		if ps.toks[j].num {
			n, _ := strconv.Atoi(ps.toks[j].low)
			return n
		}
		if !stopwords[ps.toks[j].low] {
			break
		}
	}
	return 0
}

// numberBefore returns the integer right before position i, or 0.
func (ps *parsed) numberBefore(i int) int {
	if i > 0 && ps.toks[i-1].num {
		n, _ := strconv.Atoi(ps.toks[i-1].low)
		return n
	}
	return 0
}

// statAggs are the keyword statistics of one column that a superlative does not stand for.
var statAggs = []string{"mean", "median", "sum", "std", "var", "cv", "valrange", "meanad", "medad"}

// firstAgg returns the aggregation the question asks for: the first one named, except that
// in "the highest average price" the average is the aggregate and "highest" ranks it.
func (ps *parsed) firstAgg() string {
	first := ps.firstOf(append(statAggs[:len(statAggs):len(statAggs)], "min", "max", "count")...)
	if first == "max" || first == "min" {
		if other := ps.firstOf(statAggs...); other != "" {
			return other
		}
	}
	return first
}

// moreAggs returns the aggregates named after the first and joined to it by "and" or a comma:
// "the mean and standard deviation", "mean, median and variance". A superlative that ranks
// ("the highest average") is no second aggregate.
func (ps *parsed) moreAggs(first string) []string {
	at := ps.at(first)
	if at < 0 {
		return nil
	}
	var out []string
	for i := at + 1; i < len(ps.toks); i++ {
		t := ps.toks[i]
		switch {
		case t.low == "and" || t.low == "," || t.low == "the" || t.low == "its" || t.low == "their" || t.low == "standard":
		case t.kw && !ps.taken[i] && (slices.Contains(statAggs, t.norm) || t.norm == "min" || t.norm == "max"):
			// (a keyword inside a column's name, "volatile" of volatile_acidity, is the name)
			if t.norm != first && !slices.Contains(out, t.norm) {
				out = append(out, t.norm)
			}
		default:
			return out
		}
	}
	return out
}

// firstOf returns whichever of the keywords comes first in the question.
func (ps *parsed) firstOf(keys ...string) string {
	best, at := "", len(ps.toks)
	for _, k := range keys {
		if i := ps.at(k); i >= 0 && i < at {
			best, at = k, i
		}
	}
	return best
}

// period returns the resampling period a question names ("monthly", "by week"), or "".
// "in 2023" or "year 2010" is a filter, not a period.
func (ps *parsed) period() string {
	switch {
	case ps.has("weekday") || ps.hasPhrase("day", "of", "week"):
		return periodWeekday
	case ps.has("decade"):
		return periodDecade
	}
	codes := map[string]string{"day": "D", "week": "W", "month": "M", "quarter": "Q", "year": "Y"}
	for _, k := range []string{"day", "week", "month", "quarter", "year"} {
		i := ps.at(k)
		if i < 0 || ps.numberAfter(i) > 0 {
			continue
		}
		if i > 0 && (ps.toks[i-1].low == "last" || ps.toks[i-1].low == "this" || ps.toks[i-1].num) {
			continue
		}
		// "monthly" is a period anywhere; "month" only after by/per/each/a ("top 10 days by
		// volume" and "days with rain" name rows, not a period).
		if !periodAdjective[ps.toks[i].low] && (i == 0 || !periodLead[ps.toks[i-1].low]) {
			continue
		}
		return codes[k]
	}
	return ""
}

// wordAt returns the position of the word as typed (lowercased), or -1.
func (ps *parsed) wordAt(w string) int {
	for i, t := range ps.toks {
		if t.low == w {
			return i
		}
	}
	return -1
}

// hasPhrase reports whether the words follow each other in the question.
func (ps *parsed) hasPhrase(words ...string) bool {
	for i := 0; i+len(words) <= len(ps.toks); i++ {
		ok := true
		for j, w := range words {
			if ps.toks[i+j].low != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

var periodAdjective = setOf("daily", "weekly", "monthly", "quarterly", "yearly", "annual", "annually", "annualy")

var periodLead = setOf("by", "per", "each", "every", "a", "an", "over")

// chartKind returns the chart a question names, or "" if none.
func (ps *parsed) chartKind() string {
	for _, k := range []string{"heatmap", "scatter", "pie", "box", "barh", "hist", "area", "bar", "line"} {
		if ps.has(k) {
			return k
		}
	}
	return ""
}

// frameWords lists the words that name each frame: its file's base name and sheet.
func frameWords(f Frame) []string {
	base := f.File
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	return append(nameWords(base), nameWords(f.Sheet)...)
}
