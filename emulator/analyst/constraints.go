package analyst

import (
	"slices"
	"strings"
)

// refinements are what a question asks besides its analysis: how to prepare the data, which
// method, how to round, the answer's format, and the columns to derive first.
type refinements struct {
	Round   int    // decimals asked, or -1
	Method  string // the correlation method asked: pearson, spearman or kendall
	Format  string // the answer's last line as asked, with @name[…] placeholders to fill
	Dedupe  bool   // remove duplicate rows first
	Drop    string // drop rows with missing values: "any" column, the "used" columns, or "cols"
	DropOn  []string
	Fills   []fillSpec
	Scales  []scaleSpec
	Encodes []encodeSpec
	Derived []derivation
	// Unread is a clause recognised as a constraint or a derived column but not understood;
	// the reply declines rather than answer without it. UnreadHint offers what is supported.
	Unread     string
	UnreadHint []string
	HintAlone  bool // the hints are whole questions, not replacements of the clause
}

// plain reports refinements that ask for nothing: no preparation, method, rounding or format.
func (r refinements) plain() bool {
	return r.Round < 0 && r.Method == "" && r.Format == "" && !r.Dedupe && r.Drop == "" && len(r.Fills)+len(r.Scales)+len(r.Encodes)+len(r.Derived) == 0 && r.Unread == ""
}

// fillSpec fills the missing values of some columns (all when Cols is empty).
type fillSpec struct {
	Cols []string
	How  string // mean, median, mode, or value
	// Value is the constant when How is "value", as Python source.
	Value string
}

// scaleSpec rescales columns: "minmax" to 0–1, or "z" to mean 0 and standard deviation 1.
type scaleSpec struct {
	Cols []string
	How  string
}

// encodeSpec turns a category into numbers: "label" codes in sorted order, or "onehot" columns.
type encodeSpec struct {
	Col string
	How string
}

// any reports whether the question asked for anything beyond its analysis.
func (r *refinements) any() bool {
	return r.Round >= 0 || r.Method != "" || r.Format != "" || r.prepares() || len(r.Derived) > 0
}

// prepares reports whether the data are changed before the analysis.
func (r *refinements) prepares() bool {
	return r.Dedupe || r.Drop != "" || len(r.Fills)+len(r.Scales)+len(r.Encodes) > 0
}

// readRefinements reads the constraint clauses and derived columns of a question against the
// profile, and returns the question proper: the clauses cut out, a derived column's
// definition replaced by its name.
func readRefinements(question string, p *Profile) (string, refinements) {
	ref := refinements{Round: -1}
	r := &clauseReader{text: question, ws: scanClauseWords(question), p: p, ref: &ref}
	r.readFormat()
	for i := 0; i < len(r.ws); {
		if n := r.readAt(i); n > i {
			i = n
			continue
		}
		i++
	}
	r.noteUnread()
	if len(r.edits) == 0 {
		return question, ref
	}
	sortEdits(r.edits)
	return applyEdits(question, r.edits), ref
}

// readAt tries each clause rule at word i and returns the index after the clause it read, or i.
func (r *clauseReader) readAt(i int) int {
	for _, rule := range []func(int) int{
		r.readRound, r.readMethod, r.readTool, r.readDedupe, r.readDropMissing, r.readMissingPassive, r.readFill,
		r.readScale, r.readEncode, r.readDerived,
	} {
		if n := rule(i); n > i {
			return n
		}
	}
	return i
}

// sortEdits orders edits by position (insertion sort: a question has a handful).
func sortEdits(es []clauseEdit) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].at < es[j-1].at; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// lead extends a clause back over "first," "please" or "and" before it.
func (r *clauseReader) lead(i int) int {
	for i > 0 && leadWords[r.word(i-1)] {
		i--
	}
	return i
}

var leadWords = setOf("first", "firstly", "please", "and", "then", ",", "also", "before", "that")

// trail extends a clause over "first", "beforehand", "before computing …" after it.
func (r *clauseReader) trail(i int) int {
	for i < len(r.ws) {
		switch {
		case r.is(i, "first", "beforehand", "initially"):
			i++
		case r.is(i, "before") && r.is(i+1, "computing", "calculating", "analysis", "analysing", "analyzing", "anything", "that"):
			i += 2
		default:
			return i
		}
	}
	return i
}

// decimalWords name the unit of a rounding.
var decimalWords = setOf("decimal", "decimals", "dp", "d.p", "places", "place", "digits", "digit", "decimal-places")

// roundObject are the words between "round" and "to N decimals" that name the answer itself.
var roundObject = setOf("the", "your", "all", "final", "answer", "answers", "result", "results", "value", "values",
	"number", "numbers", "it", "them", "output", "outputs", "everything", "each", "every", "figures", "off", "up", "of")

// readRound reads "round to two decimals", "rounded to 3 decimal places", "to 2 dp", "round
// the mean fare to 2 decimals" (the words between stay in the question), "to the nearest
// integer".
func (r *clauseReader) readRound(i int) int {
	start := i
	if r.is(i, "round", "rounded", "rounding") {
		j := i + 1
		for j < len(r.ws) && j < i+9 && !r.is(j, "to", "at", "with") {
			j++
		}
		if n, end := r.roundTarget(j + 1); end > 0 {
			r.ref.Round = n
			middle := r.keptBetween(i+1, j)
			r.edit(r.lead(start), end, middle)
			return end
		}
		asked := i == 0 || r.is(i-1, "and", ",", ".", ";", "then", "please")
		if asked && (r.is(i+1, "to", "at") || i+1 >= len(r.ws) || r.is(i+1, ".", ",", ";")) {
			r.unread(start, i+1, "round to 2 decimals")
		}
		return i
	}
	if r.is(i, "to", "with", "at", "in", "using") {
		if n, end := r.roundTarget(i + 1); end > 0 && r.hasDecimalWord(i+1, end) {
			r.ref.Round = n
			r.edit(r.lead(i), end, "")
			return end
		}
	}
	return i
}

// roundTarget reads "2 decimals", "two decimal places", "the nearest integer" from i, and
// returns the decimals and the index after, or end 0.
func (r *clauseReader) roundTarget(i int) (n, end int) {
	j := r.skip(i, setOf("the"))
	if r.is(j, "nearest") && r.is(j+1, "integer", "whole", "unit", "int") {
		end = j + 2
		if r.is(end, "number") {
			end++
		}
		return 0, end
	}
	if d, ok := r.smallNumber(j); ok && d <= 10 {
		k := j + 1
		if r.is(k, "-") {
			k++
		}
		if r.is(k, "significant", "sig") {
			r.unread(i, k+2, "round to 2 decimals")
			return 0, 0
		}
		if decimalWords[r.word(k)] {
			k++
			for r.is(k, "places", "place", "points", "point", "digits") {
				k++
			}
			return d, k
		}
	}
	if w := r.word(j); strings.HasSuffix(w, "dp") {
		if d, ok := numberWords[strings.TrimSuffix(w, "dp")]; ok {
			return d, j + 1
		}
	}
	return 0, 0
}

func (r *clauseReader) hasDecimalWord(from, to int) bool {
	for k := from; k < to; k++ {
		if decimalWords[r.word(k)] || r.is(k, "nearest") {
			return true
		}
	}
	return false
}

// keptBetween returns the words between two indexes that say more than "the result": "round
// the mean fare to 2 decimals" keeps "the mean fare".
func (r *clauseReader) keptBetween(from, to int) string {
	for k := from; k < to; k++ {
		if !roundObject[r.word(k)] {
			return r.text[r.ws[from].at:r.ws[to-1].end]
		}
	}
	return ""
}

// methods maps the words of a correlation method to its pandas name.
var methods = map[string]string{"pearson": "pearson", "pearson's": "pearson", "pearsons": "pearson",
	"spearman": "spearman", "spearman's": "spearman", "spearmans": "spearman", "kendall": "kendall", "kendall's": "kendall"}

// methodTail are the words that may follow a method's name.
var methodTail = setOf("rank", "product-moment", "product", "moment", "correlation", "correlations", "coefficient",
	"coefficients", "method", "r", "rho", "tau", "'s") // not "test": a correlation test is the tests' (stats_parse_tests.go)

// readMethod reads "use Pearson", "using the Spearman rank correlation", "Kendall's tau": the
// method is kept, and the words become "correlation".
func (r *clauseReader) readMethod(i int) int {
	m := methods[r.word(i)]
	if m == "" {
		return i
	}
	r.ref.Method = m
	start := i
	for start > 0 && r.is(start-1, "use", "using", "with", "via", "by", "apply", "applying", "the", "a", "compute", "calculate") {
		start--
	}
	end := r.skip(i+1, methodTail)
	r.edit(r.lead(start), end, "correlation")
	return end
}

// readTool reads "use pandas", "using python", "with numpy and scipy": the tools are the
// sandbox's anyway.
func (r *clauseReader) readTool(i int) int {
	if !r.is(i, "use", "using", "with", "in", "via") {
		return i
	}
	j := r.skip(i+1, setOf("the", "python", "python's"))
	if !r.is(j, "pandas", "python", "numpy", "scipy", "scipy.stats") && !(j > i+1 && r.is(j-1, "python")) {
		return i
	}
	end := j + 1
	if j > i+1 && r.is(j-1, "python") && !r.is(j, "pandas", "numpy", "scipy") {
		end = j
	}
	end = r.skip(end, setOf("library", "libraries", "only", "package", "and", "numpy", "scipy", "dataframe", "dataframes", "functions"))
	if r.is(end-1, "and") {
		end--
	}
	r.edit(r.lead(i), end, "")
	return end
}

// missingWords name a missing value.
var missingWords = setOf("missing", "null", "nulls", "nan", "nans", "na", "empty", "blank", "none", "n/a", "incomplete")

// rowWords are the fillers of "drop any rows that have …".
var rowWords = setOf("all", "any", "the", "rows", "row", "records", "record", "entries", "entry", "observations",
	"lines", "samples", "data", "points", "passengers", "with", "that", "have", "has", "having", "contain",
	"containing", "where", "which", "a", "cases")

// readDropMissing reads "drop rows with missing values (in Age) first", "ignore missing
// values", "dropna", "remove rows where Age is missing".
func (r *clauseReader) readDropMissing(i int) int {
	if r.is(i, "dropna", "dropna()") {
		r.ref.Drop = "any"
		end := i + 1
		for r.is(end, "(", ")") {
			end++
		}
		r.edit(r.lead(i), end, "")
		return end
	}
	verb := r.word(i)
	mode := map[string]string{"drop": "any", "remove": "any", "delete": "any", "discard": "any", "dropping": "any",
		"removing": "any", "exclude": "used", "excluding": "used", "ignore": "used", "ignoring": "used",
		"omit": "used", "omitting": "used", "skip": "used", "skipping": "used"}[verb]
	if mode == "" {
		return i
	}
	return r.dropRest(i, i+1, mode)
}

// dropRest reads a drop of missing values after its verb at i, from j: "rows with missing
// values (in Age)", "rows where Age is missing"; "… and duplicates" removes those too.
func (r *clauseReader) dropRest(i, j int, mode string) int {
	j = r.skip(j, rowWords)
	var cols []string
	if !missingWords[r.word(j)] {
		// "remove rows where Age is missing"
		c, k := r.columnList(j)
		if len(c) == 0 || !r.is(k, "is", "are") || !missingWords[r.word(k+1)] {
			return i
		}
		cols, j = c, k+1
	}
	j++
	if c, k := r.columnList(j); len(c) > 0 && len(cols) == 0 {
		cols, j = c, k // "rows with missing Age"
	}
	j = r.skip(j, setOf("values", "value", "data", "entries", "cells", "fields", "rows"))
	if r.is(j, "in", "for", "of", "from") {
		if c, k := r.columnList(r.skip(j+1, setOf("the"))); len(c) > 0 {
			cols, j = c, k
			j = r.skip(j, setOf("column", "columns"))
		}
	}
	end := r.trail(j)
	if r.is(end, "and") && r.is(r.skip(end+1, setOf("any", "all", "the")), "duplicates", "duplicate", "duplicated") {
		r.ref.Dedupe = true
		end = r.trail(r.skip(r.skip(end+1, setOf("any", "all", "the"))+1, setOf("rows", "records", "entries")))
	}
	r.ref.Drop = mode
	if len(cols) > 0 {
		r.ref.Drop, r.ref.DropOn = "cols", cols
	}
	r.edit(r.lead(i), end, "")
	return end
}

// readMissingPassive reads "missing values should be ignored", "NaNs are dropped".
func (r *clauseReader) readMissingPassive(i int) int {
	if !missingWords[r.word(i)] {
		return i
	}
	j := r.skip(i+1, setOf("values", "value", "data", "entries", "cells"))
	j = r.skip(j, setOf("should", "must", "are", "will", "can", "be", "to", "get"))
	mode := map[string]string{"ignored": "used", "excluded": "used", "skipped": "used", "omitted": "used",
		"dropped": "any", "removed": "any", "deleted": "any", "discarded": "any"}[r.word(j)]
	if mode == "" || j == i+1 {
		return i
	}
	start := i
	for start > 0 && r.is(start-1, "all", "any", "the") {
		start--
	}
	r.ref.Drop = mode
	end := r.trail(j + 1)
	r.edit(r.lead(start), end, "")
	return end
}

// readFill reads "fill missing values with the median", "impute missing Age with its mean",
// "replace NaN in Embarked with the mode", "fill missing ages with 0".
func (r *clauseReader) readFill(i int) int {
	if !r.is(i, "fill", "impute", "replace", "substitute", "filling", "imputing", "replacing") {
		return i
	}
	j := i + 1
	var cols []string
	sawMissing := false
	for j < len(r.ws) && !r.is(j, "with", "by", "using") {
		switch {
		case missingWords[r.word(j)]:
			sawMissing = true
			j++
		case fillFiller[r.word(j)]:
			j++
		default:
			c, k := r.columnList(j)
			if len(c) == 0 {
				return r.fillUnread(i, j, sawMissing)
			}
			cols, j = append(cols, c...), k
		}
	}
	if !sawMissing && r.word(i) != "impute" && r.word(i) != "imputing" {
		return i // "replace" alone is no fill
	}
	if j >= len(r.ws) {
		return r.fillUnread(i, j, true)
	}
	how, value, end := r.fillValue(r.skip(j+1, setOf("the", "its", "their", "each", "column", "column's", "columns'", "a", "respective")))
	if how == "" {
		return r.fillUnread(i, j+1, true)
	}
	end = r.skip(end, setOf("value", "values", "of", "the", "column", "columns", "each", "respective"))
	for _, c := range cols {
		if k := r.columnAt(end, c); k > end {
			end = k // "with the median age"
		}
	}
	if len(cols) == 0 {
		if c, k := r.columnList(end); len(c) > 0 && r.is(end-1, "of") {
			end = k
		}
	}
	end = r.trail(end)
	r.ref.Fills = append(r.ref.Fills, fillSpec{Cols: cols, How: how, Value: value})
	r.edit(r.lead(i), end, "")
	return end
}

var fillFiller = setOf("in", "the", "all", "any", "values", "value", "entries", "data", "cells", "of", "for", "from", "column", "columns", "gaps")

// fillUnread declines a fill it cannot read ("fill missing values by interpolation").
func (r *clauseReader) fillUnread(i, j int, missing bool) int {
	if !missing {
		return i
	}
	end := j
	for end < len(r.ws) && !r.is(end, ",", ".", ";", "then") {
		end++
	}
	r.unread(i, end, "fill missing values with the median", "drop rows with missing values")
	return end
}

// fillValue reads what fills the gaps: mean, median, mode, most frequent, zero, a number or a
// quoted string.
func (r *clauseReader) fillValue(i int) (how, value string, end int) {
	switch w := r.word(i); {
	case w == "mean" || w == "average" || w == "avg":
		return "mean", "", i + 1
	case w == "median":
		return "median", "", i + 1
	case w == "mode":
		return "mode", "", i + 1
	case w == "most" && r.is(i+1, "frequent", "common"):
		return "mode", "", i + 2
	case w == "zero" || w == "zeros" || w == "zeroes":
		return "value", "0", i + 1
	case i < len(r.ws) && r.ws[i].num:
		return "value", r.ws[i].s, i + 1
	case r.is(i, "-") && i+1 < len(r.ws) && r.ws[i+1].num:
		return "value", "-" + r.ws[i+1].s, i + 2
	case i < len(r.ws) && r.ws[i].quoted:
		return "value", pyStr(r.ws[i].s), i + 1
	}
	return "", "", i
}

// readDedupe reads "remove duplicate rows", "drop duplicates first", "deduplicate the data".
func (r *clauseReader) readDedupe(i int) int {
	end := 0
	switch {
	case r.is(i, "dedupe", "deduplicate", "de-duplicate", "deduplicated", "drop_duplicates"):
		end = r.skip(i+1, setOf("the", "data", "rows", "table", "dataset", "file", "(", ")"))
	case r.is(i, "drop", "remove", "delete", "eliminate", "discard", "dropping", "removing", "without"):
		j := r.skip(i+1, setOf("any", "all", "the", "exact", "fully"))
		if !r.is(j, "duplicate", "duplicates", "duplicated") {
			return i
		}
		end = r.skip(j+1, setOf("rows", "row", "records", "entries", "lines", "values"))
	default:
		return i
	}
	end = r.trail(end)
	r.ref.Dedupe = true
	if r.is(end, "and") {
		if n := r.dropRest(i, end+1, "any"); n > end+1 {
			r.edits = r.edits[:len(r.edits)-1] // one edit for the whole clause
			end = n
		}
	}
	r.edit(r.lead(i), end, "")
	return end
}

// readScale reads "min-max scale Fare", "normalize Fare (with min-max scaling)", "standardize
// Age", "z-score normalize Age": the clause becomes the columns' names, so that the statistic
// asked is of the scaled columns.
func (r *clauseReader) readScale(i int) int {
	how, j := "", i
	switch {
	case r.is(i, "min-max", "minmax") && r.is(i+1, "scale", "normalize", "normalise", "scaling", "normalization"):
		how, j = "minmax", i+2
	case r.is(i, "z-score", "zscore") && r.is(i+1, "normalize", "normalise", "standardize", "standardise", "scale"):
		how, j = "z", i+2
	case r.is(i, "normalize", "normalise", "rescale", "scale", "normalized", "scaled"):
		how, j = "minmax", i+1
	case r.is(i, "standardize", "standardise", "standardized"):
		how, j = "z", i+1
	default:
		return i
	}
	cols, end := r.columnList(r.skip(j, setOf("the", "column", "columns")))
	if len(cols) == 0 {
		return i
	}
	end = r.skip(end, setOf("column", "columns", "values"))
	if r.is(end, "with", "using", "by", "to") {
		k := r.skip(end+1, setOf("a", "the"))
		switch {
		case r.is(k, "min-max", "minmax", "0-1") || r.is(k, "[") || r.is(k, "0") && r.is(k+1, "-", "to", ","):
			how, end = "minmax", r.scaleTail(k)
		case r.is(k, "z-score", "zscore", "z-scores", "standard", "standardization", "standardisation"):
			how, end = "z", r.scaleTail(k+1)
		case r.is(k, "robust", "log", "max-abs", "maxabs", "quantile", "unit"):
			r.unread(i, k+2, "min-max scale "+cols[0], "standardize "+cols[0])
			return k + 2
		}
	}
	end = r.trail(end)
	r.ref.Scales = append(r.ref.Scales, scaleSpec{Cols: cols, How: how})
	r.edit(r.lead(i), end, strings.Join(cols, " and "))
	return end
}

// scaleTail moves past "min-max scaling", "[0, 1]", "0 to 1", "the 0-1 range".
func (r *clauseReader) scaleTail(k int) int {
	return r.skip(k, setOf("min-max", "minmax", "scaling", "scaler", "normalization", "normalisation", "scores",
		"[", "]", "0", "1", "-", "to", ",", "range", "0-1", "z-score", "standardization"))
}

// readEncode reads "label encode Sex", "encode Sex as numbers", "one-hot encode Embarked".
func (r *clauseReader) readEncode(i int) int {
	how, j := "", i
	switch {
	case r.is(i, "one-hot", "onehot") && r.is(i+1, "encode", "encoding"):
		how, j = "onehot", i+2
	case r.is(i, "one") && r.is(i+1, "hot") && r.is(i+2, "encode"):
		how, j = "onehot", i+3
	case r.is(i, "label", "ordinal") && r.is(i+1, "encode"):
		how, j = "label", i+2
	case r.is(i, "encode", "label-encode"):
		how, j = "label", i+1
	default:
		return i
	}
	cols, end := r.columnList(r.skip(j, setOf("the", "column", "columns")))
	if len(cols) == 0 {
		return i
	}
	end = r.skip(end, setOf("column", "columns", "as", "numbers", "numerically", "integers", "codes", "numeric", "0/1", "into", "with", "label", "encoding", "dummies", "dummy", "variables"))
	end = r.trail(end)
	repl := ""
	for _, c := range cols {
		r.ref.Encodes = append(r.ref.Encodes, encodeSpec{Col: c, How: how})
	}
	if how == "label" {
		repl = strings.Join(cols, " and ")
	}
	r.edit(r.lead(i), end, repl)
	return end
}

// unread records a clause recognised but not understood, and what the rules can do instead.
func (r *clauseReader) unread(from, to int, hints ...string) {
	if r.ref.Unread != "" || from >= len(r.ws) {
		return
	}
	to = min(max(to, from+1), len(r.ws))
	r.ref.Unread = r.text[r.ws[from].at:r.ws[to-1].end]
	r.ref.UnreadHint = hints
}

// unsupported are words of preparations and derivations the rules do not do.
var unsupported = map[string][]string{
	"interpolate": {"fill missing values with the mean"}, "interpolation": {"fill missing values with the mean"},
	"interpolated": {"fill missing values with the mean"}, "interpolating": {"fill missing values with the mean"}, "ffill": {"fill missing values with the mode"},
	"bfill": {"fill missing values with the mode"}, "forward-fill": {"fill missing values with the mode"},
	"backfill": {"fill missing values with the mode"}, "winsorize": {"drop rows with missing values"},
	"winsorise": {"drop rows with missing values"}, "log-transform": {"min-max scale"},
	"smote": nil, "oversample": nil, "undersample": nil, "pca": nil, "tf-idf": nil, "lemmatize": nil, "tokenize": nil, "pivot_longer": nil, "melt": nil, "unpivot": nil,
}

// deriveCue are the verbs that announce a new column: "create a column", "add a new feature".
var deriveCue = setOf("create", "add", "make", "compute", "calculate", "define", "derive", "construct", "engineer",
	"build", "generate", "introduce", "append")

// deriveNoun name a new column.
var deriveNoun = setOf("column", "feature", "variable", "field", "attribute", "indicator", "flag")

// noteUnread declines a question that announces a new column or a preparation the reader did
// not read: an answer without it would answer another question.
func (r *clauseReader) noteUnread() {
	if r.ref.Unread != "" {
		return
	}
	for i, w := range r.ws {
		if hints, ok := unsupported[w.low]; ok && !r.edited(i) {
			r.unread(i, i+1, hints...)
			return
		}
		if len(r.ref.Derived) > 0 || r.edited(i) {
			continue
		}
		if r.unreadBins(i) {
			return
		}
		if deriveCue[w.low] {
			j := r.skip(i+1, setOf("a", "an", "new", "another", "extra", "additional", "binary", "boolean", "derived", "calculated", "computed"))
			if j > i+1 && deriveNoun[r.word(j)] && !r.is(j+1, "chart", "graph", "plot") {
				r.unread(i, j+1)
				r.ref.UnreadHint, r.ref.HintAlone = r.exampleDerivations(), true
				return
			}
		}
		if r.is(i, "new") && deriveNoun[r.word(i+1)] {
			r.unread(i, i+2)
			r.ref.UnreadHint, r.ref.HintAlone = r.exampleDerivations(), true
			return
		}
		if r.is(i, "bin", "binned", "binning", "bucket", "bucketize", "discretize", "discretise") {
			c, _ := r.column(r.skip(i+1, setOf("the")))
			if nums := numericColumns(&r.p.Frames[0]); c == "" && len(nums) > 0 {
				c = nums[0]
			}
			r.unread(i, i+2, "bin "+c+" into 4 groups", "bin "+c+" into quartiles")
			return
		}
	}
}

// exampleDerivations are questions defining a column the reader can read, from the first
// numeric columns of the first file, offered when a definition could not be read.
func (r *clauseReader) exampleDerivations() []string {
	var nums []string
	f := &r.p.Frames[0]
	for _, n := range numericColumns(f) {
		if c := f.column(n); c.Unique > 10 && !isDerivedColumn(*c) {
			nums = append(nums, n) // quantities, not codes such as a class or a flag
		}
	}
	if len(nums) < 2 {
		return nil
	}
	a, b := nums[0], nums[1]
	return []string{
		"create a column " + newName(a, "plus", b) + " = " + a + " + " + b + " and give its mean",
		"create a column " + newName(a, "to", b, "ratio") + " = " + a + " / " + b + " and give its median",
		"bin " + a + " into 4 groups and count the rows per group",
	}
}

// edited reports whether word i lies in a clause already read.
func (r *clauseReader) edited(i int) bool {
	for _, e := range r.edits {
		if r.ws[i].at >= e.at && r.ws[i].end <= e.end {
			return true
		}
	}
	return false
}

// binNounSet are the nouns of bins, for finding bins asked without their edges.
var binNounSet = setOf("group", "groups", "band", "bands", "bracket", "brackets", "bin", "bins", "bucket", "buckets")

// unreadBins declines "by age group" when no bins were given: which edges is a guess.
func (r *clauseReader) unreadBins(i int) bool {
	c, j := r.column(i)
	if c == "" || !numericColumn(r.p, c) || !binNounSet[r.word(j)] || r.isDerived(c) {
		return false
	}
	r.unread(i, j+1, c+" groups 0-18, 19-40, 41+", c+" quartiles")
	return true
}

// defines reports whether this question defined the column.
func (r *refinements) defines(name string) bool {
	return slices.ContainsFunc(r.Derived, func(d derivation) bool { return d.Name == name })
}

// corrMethod is the correlation method the question asked for, Pearson by default.
func (g *gen) corrMethod() string {
	if g.q.refine.Method != "" {
		return g.q.refine.Method
	}
	return "pearson"
}

// methodName names a correlation method in the reply.
func methodName(m string) string {
	switch m {
	case "spearman":
		return "Spearman"
	case "kendall":
		return "Kendall"
	}
	return "Pearson"
}
