package analyst

import (
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
)

// refinements are what a question asks besides its analysis: how to prepare the data, which
// method, how to round, the answer's format, and the columns to derive first.
type refinements struct {
	Round  int    // decimals asked, or -1
	Method string // the correlation method asked: pearson, spearman or kendall
	Format string // the answer's last line as asked, with @name[…] placeholders to fill
	// FormatNote is what the question says after the format about its placeholders: "where
	// "is_normal" is "Normal" or "Not Normal"".
	FormatNote string
	Dedupe     bool   // remove duplicate rows first
	Drop       string // drop rows with missing values: "any" column, the "used" columns, or "cols"
	DropOn     []string
	Fills      []fillSpec
	Scales     []scaleSpec
	Trims      []trimSpec
	Encodes    []encodeSpec
	Derived    []derivation
	// Ties is how a ranking breaks ties, as a sentence after the question says; TiesSaid is
	// that sentence.
	Ties     meaning.Ties
	TiesSaid string
	// Unread is a clause recognised as a constraint or a derived column but not understood;
	// the reply declines rather than answer without it. UnreadHint offers what is supported.
	Unread     string
	UnreadHint []string
	HintAlone  bool // the hints are whole questions, not replacements of the clause
	// Library is the library or function the question asks to use, as written and lowercased:
	// "scipy.stats.skew", "numpy", "statistics".
	Library string
	// Labels are rules naming the answer by thresholds on what is computed ("consider the
	// relationship linear if p < 0.05 and |r| >= 0.5"), in the order given.
	Labels []labelRule
}

// plain reports refinements that ask for nothing: no preparation, method, rounding or format.
func (r refinements) plain() bool {
	return r.Round < 0 && r.Method == "" && r.Format == "" && !r.Dedupe && r.Drop == "" && len(r.Fills)+len(r.Scales)+len(r.Trims)+len(r.Encodes)+len(r.Derived)+len(r.Labels) == 0 && r.Unread == "" &&
		r.Ties == meaning.TiesNamed
}

// plainBesidesDerived reports refinements that ask for nothing but derived columns.
func (r refinements) plainBesidesDerived() bool {
	r.Derived = nil
	return r.plain()
}

// fillSpec fills the missing values of some columns (all when Cols is empty).
type fillSpec struct {
	Cols []string
	How  string // mean, median, mode, or value
	// Value is the constant when How is "value", as Python source.
	Value string
}

// scaleSpec rescales columns: "minmax" to 0–1, "z" to mean 0 and standard deviation 1, or
// takes their logarithm: "log" (natural), "log10" or "log1p" (of 1 + x).
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
	return r.Round >= 0 || r.Method != "" || r.Format != "" || r.prepares() || len(r.Derived)+len(r.Labels) > 0
}

// presentational reports refinements that only say how to present the answer (rounding, an
// answer format, how to break ties), which a meaning's answer takes as it is.
func (r refinements) presentational() bool {
	return r.Method == "" && !r.prepares() && len(r.Derived) == 0 && r.Unread == ""
}

// prepares reports whether the data are changed before the analysis.
func (r *refinements) prepares() bool {
	return r.Dedupe || r.Drop != "" || len(r.Fills)+len(r.Scales)+len(r.Trims)+len(r.Encodes) > 0
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
		r.readLabel, r.readAnswerType, r.readLabelRule, r.readDefinition, r.readRound, r.readMethod, r.readTool, r.readDedupe, r.readTrim, r.readDropMissing, r.readMissingPassive, r.readFill,
		r.readLog, r.readScale, r.readEncode, r.readDerived, r.readTies,
	} {
		if n := rule(i); n > i {
			return n
		}
	}
	return i
}

// definitionWords are the words that define a statistic in terms of others: "(max - min)",
// "(standard deviation divided by mean)", "(Q3 - Q1)".
var definitionWords = setOf("max", "maximum", "min", "minimum", "minus", "-", "−", "/", "divided", "by", "over",
	"mean", "average", "standard", "deviation", "std", "sd", "the", "of", "q1", "q3", "q3-q1", "highest", "lowest",
	"largest", "smallest", "value", "values", "x", "*", "times", "100", "i.e", "i.e.", "ie", "e.g", ".", ",", "and", "to",
	"mad", "cv", "iqr", "sd") // an abbreviation: "the mean absolute deviation (MAD)"

// readDefinition cuts a statistic's definition in parentheses after its name: "the range (max -
// min)", "the coefficient of variation (standard deviation divided by mean)". It says what the
// statistic is, which its name already does.
func (r *clauseReader) readDefinition(i int) int {
	if !r.is(i, "(") || !r.is(i-1, "range", "variation", "iqr", "cv", "deviation", "spread") {
		return i
	}
	for k := i + 1; k < len(r.ws) && k < i+14; k++ {
		switch {
		case r.is(k, ")"):
			if k == i+1 {
				return i
			}
			r.edit(i, k+1, "")
			return k + 1
		case !definitionWords[r.word(k)]:
			return i
		}
	}
	return i
}

// readTies reads a sentence saying how to break ties in a ranking: "If there is a tie, use
// alphabetical order.", "If two have the same number take the first two alphabetically.",
// "Use alphabetical order to break any ties.", "If you find a tie answer with row order."
// (DataBench writes about one question in fifty so). A sentence naming no order it knows, such
// as "choose the latest year", is left to block the question.
func (r *clauseReader) readTies(i int) int {
	if i > 0 && !r.is(i-1, ".", "?", "!") {
		return i
	}
	end := i
	for end < len(r.ws) && !r.is(end, ".", "?", "!") {
		end++
	}
	tie, reverse, ties := false, false, meaning.TiesNamed
	for k := i; k < end; k++ {
		switch {
		case r.is(k, "tie", "ties", "tied", "same"):
			tie = true
		case r.is(k, "reverse", "inverse"):
			reverse = true
		case r.is(k, "alphabetical", "alphabetically", "alphabetic"):
			ties = meaning.TiesAlphabetical
		case r.is(k, "row") && r.is(k+1, "order"):
			ties = meaning.TiesFileOrder
		}
	}
	if !tie || ties == meaning.TiesNamed || i == 0 {
		return i
	}
	if reverse && ties == meaning.TiesAlphabetical {
		ties = meaning.TiesReverse
	}
	if end < len(r.ws) {
		end++ // the full stop
	}
	r.ref.Ties, r.ref.TiesSaid = ties, strings.TrimSpace(r.text[r.ws[i].at:r.ws[end-1].end])
	r.edit(i, end, "")
	return end
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
	j := r.skip(i+1, setOf("the", "python", "python's", "built-in", "builtin"))
	if !r.is(j, libraries...) && !(j > i+1 && r.is(j-1, "python")) {
		return i
	}
	end := j + 1
	if j > i+1 && r.is(j-1, "python") && !r.is(j, libraries...) {
		end = j
	}
	r.ref.Library = strings.ToLower(r.span(j, r.dotted(end)))
	end = r.dotted(end)
	end = r.skip(end, setOf("library", "libraries", "only", "package", "module", "modules", "and", "numpy", "scipy", "dataframe", "dataframes", "function", "functions", "method"))
	if r.is(end-1, "and") {
		end--
	}
	r.edit(r.lead(i), end, "")
	return end
}

// libraries are the Python libraries a question may ask the analysis to use. The analysis uses
// pandas, NumPy and SciPy whatever is named, and computes the same statistics, except where
// the library named computes them otherwise by default (populationStd, scipyShape).
var libraries = []string{"pandas", "python", "numpy", "np", "pd", "scipy", "scipy.stats", "statistics", "math", "sklearn", "scikit-learn", "statsmodels"}

// dotted moves past the rest of a dotted name written right after a library's: ".stats.skew"
// of "scipy.stats.skew", "()" of "df.mean()".
func (r *clauseReader) dotted(i int) int {
	for i+1 < len(r.ws) && r.ws[i].at == r.ws[i-1].end && r.is(i, ".") && r.ws[i+1].at == r.ws[i].end {
		i += 2
	}
	if i+1 < len(r.ws) && r.is(i, "(") && r.is(i+1, ")") && r.ws[i].at == r.ws[i-1].end {
		i += 2
	}
	return i
}

// readLabel drops the label of a paragraph of constraints or notes: "Constraints:",
// "Requirements:", "Note:"; what follows is read clause by clause.
func (r *clauseReader) readLabel(i int) int {
	if (i > 0 && !r.is(i-1, ".", "?", "!", "\n")) || !r.is(i+1, ":") ||
		!r.is(i, "constraint", "constraints", "requirement", "requirements", "note", "notes", "hint", "hints", "instructions", "conditions", "assumptions") {
		return i
	}
	r.edit(i, i+2, "")
	return i + 2
}

// readAnswerType reads "output your answer as a single integer", "give the result as a
// float": an integer is the answer rounded to no decimals; a float or a number asks nothing
// more. The sentence goes when its words before "as" only introduce the answer.
func (r *clauseReader) readAnswerType(i int) int {
	if !r.is(i, "as") {
		return i
	}
	j := r.skip(i+1, setOf("a", "an", "single", "one", "plain"))
	n := 0
	switch {
	case r.is(j, "integer", "int", "whole") && (!r.is(j, "whole") || r.is(j+1, "number")):
		n = 0
	case r.is(j, "float", "floating-point", "decimal", "number", "numeric"):
		n = -1
	default:
		return i
	}
	end := j + 1
	if r.is(end, "number", "value") {
		end++
	}
	start := i
	for start > 0 && formatLead[r.word(start-1)] {
		start--
	}
	if start > 0 && !r.is(start-1, ".", "?", "!", ";", ",") {
		return i // "count the rows as a number of …": part of the question
	}
	if n == 0 {
		r.ref.Round = 0
	}
	if r.is(end, ".") {
		end++
	}
	r.edit(start, end, "")
	return end
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

// populationStd reports whether the library asked computes a standard deviation or variance
// over the population (ddof 0) by default: numpy.std and numpy.var, statistics.pstdev and
// statistics.pvariance; pandas and statistics.stdev divide by n - 1.
func (r refinements) populationStd() bool {
	l := r.Library
	return l == "numpy" || l == "np" || strings.HasPrefix(l, "numpy.") || strings.HasPrefix(l, "np.") ||
		l == "statistics.pstdev" || l == "statistics.pvariance"
}

// scipyShape reports whether skewness and kurtosis are asked of SciPy, whose scipy.stats.skew
// and kurtosis are the biased estimates, where pandas corrects the bias.
func (r refinements) scipyShape() bool { return strings.HasPrefix(r.Library, "scipy") }

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
