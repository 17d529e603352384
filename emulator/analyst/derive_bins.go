package analyst

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Bins, date parts, string lengths and splits: derived columns that are categories or counts.

// binVerbs start "bin ages into four groups".
var binVerbs = setOf("bin", "binned", "binning", "bucket", "bucketize", "discretize", "discretise", "cut", "group",
	"split", "divide", "categorize", "categorise", "segment", "separate", "break")

// binOnly are the verbs that can only mean binning; "split" or "group" may mean grouping.
var binOnly = setOf("bin", "binned", "binning", "bucket", "bucketize", "discretize", "discretise")

// binNouns name bins; a later "per group" refers to them.
var binNouns = []string{"group", "groups", "bin", "bins", "bucket", "buckets", "band", "bands", "category",
	"categories", "range", "ranges", "interval", "intervals", "bracket", "brackets", "class", "classes", "quartile",
	"quartiles", "quintile", "quintiles", "decile", "deciles", "tercile", "terciles", "tier", "tiers", "segment", "segments", "level", "levels"}

// quantileBins are the names of equal-count bins.
var quantileBins = map[string]int{"quartile": 4, "quartiles": 4, "quintile": 5, "quintiles": 5, "decile": 10,
	"deciles": 10, "tercile": 3, "terciles": 3, "tertile": 3, "tertiles": 3}

// binHow are the words that say how bins are cut: equal width (pandas' cut) or equal counts.
var binHow = map[string]string{"equal-width": "cut", "equal": "cut", "equally": "cut", "width": "cut", "wide": "cut",
	"spaced": "cut", "evenly": "cut", "uniform": "cut", "equal-sized": "qcut", "equal-size": "qcut", "equal-frequency": "qcut",
	"equal-count": "qcut", "quantile": "qcut", "quantile-based": "qcut", "frequency": "qcut", "sized": "", "size": ""}

// readBins reads "bin Age into 4 groups", "split Fare into quartiles", "bin Age at 0, 18, 40,
// 80", "group ages into 0-18, 19-40, 41+".
func (r *clauseReader) readBins(i int) int {
	if !binVerbs[r.word(i)] {
		return i
	}
	c, j := r.column(r.skip(i+1, setOf("the", "column", "values", "of")))
	if c == "" || !numericColumn(r.p, c) {
		return i
	}
	j = r.skip(j, setOf("column", "values"))
	if !r.is(j, "into", "in", "by", "with", "using", "at", "on", "to") {
		return i
	}
	d, end, ok := r.binSpec(c, j+1)
	if !ok {
		if !binOnly[r.word(i)] && !r.is(j, "into") {
			return i // "split revenue by region" groups, it does not bin
		}
		stop := j + 2
		for stop < len(r.ws) && !r.is(stop, ".", "?", "!", ";") {
			stop++ // the rest of the sentence says how to bin: an offered reading replaces it all
		}
		r.unread(i, stop, "bin "+c+" into 4 groups", "bin "+c+" into quartiles")
		return end
	}
	return r.derive(i, end, d, binNouns...)
}

// readNounBins reads "age groups 0-18, 19-40, 41+", "Fare quartiles", "4 age groups".
func (r *clauseReader) readNounBins(i int) int {
	n, hasN := r.smallNumber(i)
	start := i
	if hasN {
		i++
		for binHow[r.word(i)] != "" || r.is(i, "equal", "equally", "sized") {
			i++
		}
	}
	c, j := r.column(i)
	if c == "" || !numericColumn(r.p, c) {
		return start
	}
	noun := r.word(j)
	if q := quantileBins[noun]; q > 0 && !hasN {
		d := qcutBins(c, q, noun)
		return r.derive(start, j+1, d, binNouns...)
	}
	if !setOf(binNouns...)[noun] {
		return start
	}
	if d, from, to, ok := r.rangesAhead(c, j+1); ok {
		// with the ranges listed, a number before the noun counts them: "the top 4 age ranges (…)"
		r.derive(i, j+1, d, binNouns...)
		r.edit(from, to, "") // the list said where the bins are; the question goes on without it
		return to
	}
	if hasN && n >= 2 && n <= 20 {
		return r.derive(start, j+1, cutBins(c, n, "cut"), binNouns...)
	}
	if hasN {
		return start
	}
	k := r.skip(j+1, setOf("of", ":", "(", "[", "as", "like"))
	if d, end, ok := r.rangeBins(c, k); ok {
		if r.is(end, ")", "]") {
			end++
		}
		return r.derive(start, end, d, binNouns...)
	}
	return start
}

// rangesAhead reads a list of labelled ranges a few words after a bin noun, opened by a colon
// or a parenthesis, its ranges quoted or not and in any order: "the most common age range
// among passengers: (0-18, 18-30, 30-50, 50+)", "the top 4 age ranges ('30-50', '18-30',
// '0-18', '50+')" (DataBench 002). It returns the bins and the list's words [from, to).
func (r *clauseReader) rangesAhead(c string, i int) (derivation, int, int, bool) {
	for k := i; k < len(r.ws) && k <= i+8; k++ {
		if r.edited(k) || !r.is(k, ":", "(", "[") {
			continue
		}
		to := k + 1
		for to < len(r.ws) && (r.ws[to].num || r.ws[to].quoted || r.is(to, "-", "–", "+", ",", "and", "or", "to", ":", "(", "[")) {
			to++
		}
		if r.is(to, ")", "]") {
			to++
		}
		d, ok := labelledRanges(c, r.text[r.ws[k].at:r.ws[to-1].end])
		return d, k, to, ok
	}
	return derivation{}, 0, 0, false
}

// rangeItem is one labelled range: "18-30", "18 to 30", "50+".
var rangeItem = regexp.MustCompile(`(\d+(?:\.\d+)?)\s*(?:-|–|to)\s*(\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)\s*\+`)

// labelledRanges cuts a column at the ranges a list gives, sorted by their lower bounds; each
// range runs up to and including its upper bound, as rangeBins reads them in order. They must
// meet end to end ("0-18, 18-30" or "0-18, 19-30") and only the last may be open ("50+").
func labelledRanges(c, list string) (derivation, bool) {
	type rng struct {
		lo, hi float64
		label  string
	}
	var rs []rng
	for _, m := range rangeItem.FindAllStringSubmatch(list, -1) {
		if m[3] != "" {
			lo, _ := strconv.ParseFloat(m[3], 64)
			rs = append(rs, rng{lo, math.Inf(1), m[3] + "+"})
			continue
		}
		lo, _ := strconv.ParseFloat(m[1], 64)
		hi, _ := strconv.ParseFloat(m[2], 64)
		rs = append(rs, rng{lo, hi, m[1] + "-" + m[2]})
	}
	if len(rs) < 2 {
		return derivation{}, false
	}
	slices.SortStableFunc(rs, func(a, b rng) int { return cmp.Compare(a.lo, b.lo) })
	edges := []string{fmtEdge(rs[0].lo)}
	var labels []string
	for k, x := range rs {
		if x.hi <= x.lo || k+1 < len(rs) && (math.IsInf(x.hi, 1) || rs[k+1].lo < x.hi || rs[k+1].lo > x.hi+1) {
			return derivation{}, false
		}
		edge := "np.inf"
		if !math.IsInf(x.hi, 1) {
			edge = fmtEdge(x.hi)
		}
		edges, labels = append(edges, edge), append(labels, x.label)
	}
	return rangesDerivation(c, edges, labels), true
}

// binSpec reads how to bin after "into": a count, quantiles, edges, or labelled ranges.
func (r *clauseReader) binSpec(c string, i int) (derivation, int, bool) {
	i = r.skip(i, setOf("the", "a"))
	if q := quantileBins[r.word(i)]; q > 0 {
		return qcutBins(c, q, r.word(i)), i + 1, true
	}
	if n, ok := r.smallNumber(i); ok && n >= 2 && n <= 20 && !r.is(i+1, ",", "-", "to") {
		k, how := i+1, "cut"
		for ; k < len(r.ws) && k < i+4; k++ {
			if h, ok := binHow[r.word(k)]; ok {
				if h != "" {
					how = h
				}
				continue
			}
			if q := quantileBins[r.word(k)]; q > 0 {
				how = "qcut"
			}
			break
		}
		if !setOf(binNouns...)[r.word(k)] && quantileBins[r.word(k)] == 0 {
			return derivation{}, k, false
		}
		return cutBins(c, n, how), k + 1, true
	}
	k := r.skip(i, setOf("edges", "breaks", "boundaries", "cut", "points", "cutoffs", "cut-offs", "thresholds", "bins", "bin", "of", "at", ":", "["))
	if d, end, ok := r.rangeBins(c, k); ok {
		return d, end, true
	}
	if d, end, ok := r.namedRangeBins(c, k); ok {
		return d, end, true
	}
	if edges, end := r.numberList(k); len(edges) >= 3 {
		if r.is(end, "]") {
			end++
		}
		return edgeBins(c, edges), end, true
	}
	return derivation{}, i, false
}

// cutBins is n bins of equal width (pandas' cut) or equal counts (qcut).
func cutBins(c string, n int, how string) derivation {
	if how == "qcut" {
		return qcutBins(c, n, "")
	}
	return derivation{Name: newName(c, "group"), Kind: "cat", Sources: []string{c},
		How: fmt.Sprintf("%s cut into %d bins of equal width", c, n),
		Py:  fmt.Sprintf("pd.cut(df[%s], %d).cat.rename_categories(lambda i: f\"{i.left:.4g} to {i.right:.4g}\")", pyStr(c), n)}
}

// qcutBins is n bins of equal counts; quartiles and the like are labelled Q1…Q4.
func qcutBins(c string, n int, noun string) derivation {
	name := newName(c, "group")
	labels := "None"
	if noun != "" {
		name = newName(c, strings.TrimSuffix(singular(noun), "s"))
		var ls []string
		for k := 1; k <= n; k++ {
			ls = append(ls, fmt.Sprintf("Q%d", k))
		}
		labels = pyList(ls)
	}
	py := fmt.Sprintf("pd.qcut(df[%s], %d, labels=%s)", pyStr(c), n, labels)
	if labels == "None" {
		py += ".cat.rename_categories(lambda i: f\"{i.left:.4g} to {i.right:.4g}\")"
	}
	return derivation{Name: name, Kind: "cat", Sources: []string{c}, Py: py,
		How: fmt.Sprintf("%s cut into %d bins of equal counts (quantiles)", c, n)}
}

// edgeBins cuts at the edges given, each bin closed on the right, the first also on the left.
func edgeBins(c string, edges []float64) derivation {
	var labels, nums []string
	for k := range edges {
		nums = append(nums, fmtEdge(edges[k]))
		if k > 0 {
			labels = append(labels, fmtEdge(edges[k-1])+" to "+fmtEdge(edges[k]))
		}
	}
	return derivation{Name: newName(c, "group"), Kind: "cat", Sources: []string{c}, Labels: labels,
		How: fmt.Sprintf("%s cut at %s (each bin up to and including its upper edge)", c, strings.Join(nums, ", ")),
		Py:  fmt.Sprintf("pd.cut(df[%s], [%s], labels=%s, include_lowest=True)", pyStr(c), strings.Join(nums, ", "), pyList(labels))}
}

func fmtEdge(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// rangeBins reads labelled ranges: "0-18, 19-40, 41+", "0 to 18, 19 to 40 and 41 and over".
// Each range runs up to and including its upper bound; the next starts above it.
func (r *clauseReader) rangeBins(c string, i int) (derivation, int, bool) {
	var labels []string
	edges := []string{}
	j := i
	for {
		if _, isNum := r.float(j); !isNum {
			return derivation{}, i, false // "below 18", "over 40": named ranges, not numbered ones
		}
		nr, k, ok := r.rangeWords(j)
		if !ok {
			return derivation{}, i, false
		}
		lo, hi, label := r.ws[j].s, "np.inf", r.ws[j].s+"+"
		if !math.IsInf(nr.hi, 1) {
			hi = r.ws[k-1].s // as typed: "18-30" keeps its own spelling
			label = lo + "-" + hi
		}
		if len(edges) == 0 {
			edges = append(edges, lo)
		}
		edges = append(edges, hi)
		labels = append(labels, label)
		j = k
		if hi == "np.inf" {
			break
		}
		if r.is(j, ",", "and", "or", ";") && j+1 < len(r.ws) && r.ws[j+1].num {
			j++
			continue
		}
		break
	}
	if len(labels) < 2 {
		return derivation{}, i, false
	}
	return rangesDerivation(c, edges, labels), j, true
}

// namedRange is one named bin: its label and its bounds, lo included and hi not.
type namedRange struct {
	label  string
	lo, hi float64
}

// namedRangeBins reads bins named with their ranges: '"underweight" (below 18.5), "normal"
// (18.5 to 25), "overweight" (25 to 30) and "obese" (30 and above)', "Child (0-12), Teen
// (13-19), Adult (20+)", "low: below 10, high: 10 and above". Each bin runs from its lower bound up to the next bin's; a gap between
// whole numbers (12, 13) belongs to the bin below.
func (r *clauseReader) namedRangeBins(c string, i int) (derivation, int, bool) {
	var bins []namedRange
	j := i
	for j < len(r.ws) {
		label := r.ws[j].s
		if !r.ws[j].quoted && !isLetterStart(label) || !r.is(j+1, "(", ":") {
			break
		}
		paren := r.is(j+1, "(") // "obese (30 and above)", or "obese: 30 and above"
		nr, k, ok := r.rangeWords(j + 2)
		if !ok || paren && !r.is(k, ")") {
			return derivation{}, i, false
		}
		if paren {
			k++
		}
		nr.label = label
		bins, j = append(bins, nr), k
		if r.is(j, ",") {
			j++
		}
		if r.is(j, "and", "or") {
			j++
		}
	}
	if len(bins) < 2 {
		return derivation{}, i, false
	}
	slices.SortFunc(bins, func(a, b namedRange) int { return cmp.Compare(a.lo, b.lo) })
	var edges, labels []string
	for k, b := range bins {
		edges, labels = append(edges, pyFloat(b.lo)), append(labels, b.label)
		if k == len(bins)-1 {
			edges = append(edges, pyFloat(math.Nextafter(b.hi, math.Inf(1))))
		}
	}
	return derivation{Name: newName(c, "category"), Kind: "cat", Sources: []string{c}, Labels: labels,
		How: fmt.Sprintf("%s in the named ranges %s", c, strings.Join(labels, ", ")),
		Py:  fmt.Sprintf("pd.cut(df[%s], [%s], labels=%s, right=False)", pyStr(c), strings.Join(edges, ", "), pyList(labels))}, j, true
}

// pyFloat writes a bound for Python: -np.inf and np.inf for the open ends.
func pyFloat(v float64) string {
	switch {
	case math.IsInf(v, -1):
		return "-np.inf"
	case math.IsInf(v, 1):
		return "np.inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// rangeWords reads a range in words at i: "below 18.5", "18.5 to 25", "13-19", "30 and above",
// "20+", "over 60".
func (r *clauseReader) rangeWords(i int) (namedRange, int, bool) {
	inf := math.Inf(1)
	if r.is(i, "below", "under", "<") || r.is(i, "less") && r.is(i+1, "than") {
		k := r.skip(i+1, setOf("than"))
		if v, ok := r.float(k); ok {
			return namedRange{lo: -inf, hi: v}, k + 1, true
		}
		return namedRange{}, i, false
	}
	if r.is(i, "above", "over", ">=", ">") || r.is(i, "at") && r.is(i+1, "least") {
		k := r.skip(i+1, setOf("least"))
		if v, ok := r.float(k); ok {
			return namedRange{lo: v, hi: inf}, k + 1, true
		}
		return namedRange{}, i, false
	}
	lo, ok := r.float(i)
	if !ok {
		return namedRange{}, i, false
	}
	k := i + 1
	switch {
	case r.is(k, "+"):
		return namedRange{lo: lo, hi: inf}, k + 1, true
	case r.is(k, "and") && r.is(k+1, "over", "above", "up", "older", "more"):
		return namedRange{lo: lo, hi: inf}, k + 2, true
	case r.is(k, "-", "to", "–"):
		if hi, ok := r.float(k + 1); ok {
			return namedRange{lo: lo, hi: hi}, k + 2, true
		}
	}
	return namedRange{}, i, false
}

// float reads a number at i.
func (r *clauseReader) float(i int) (float64, bool) {
	if i >= len(r.ws) || !r.ws[i].num {
		return 0, false
	}
	v, err := strconv.ParseFloat(r.ws[i].low, 64)
	return v, err == nil
}

// rangesDerivation cuts a column at edges into the labelled ranges a question gave.
func rangesDerivation(c string, edges, labels []string) derivation {
	return derivation{Name: newName(c, "group"), Kind: "cat", Sources: []string{c}, Labels: labels,
		How: fmt.Sprintf("%s in the ranges %s", c, strings.Join(labels, ", ")),
		Py:  fmt.Sprintf("pd.cut(df[%s], [%s], labels=%s, include_lowest=True)", pyStr(c), strings.Join(edges, ", "), pyList(labels))}
}

// num reads a number at i, as typed.
func (r *clauseReader) num(i int) (string, int, bool) {
	if i < len(r.ws) && r.ws[i].num {
		return r.ws[i].s, i + 1, true
	}
	return "", i, false
}

// numberList reads "0, 18, 40 and 80" at i.
func (r *clauseReader) numberList(i int) ([]float64, int) {
	var out []float64
	j := i
	for j < len(r.ws) && r.ws[j].num {
		v, err := strconv.ParseFloat(r.ws[j].s, 64)
		if err != nil {
			break
		}
		out = append(out, v)
		j++
		if r.is(j, ",", "and") && j+1 < len(r.ws) && r.ws[j+1].num {
			j++
		}
	}
	return out, j
}

// dateParts maps the parts of a date to their pandas accessor.
var dateParts = map[string]string{"year": "dt.year", "month": "dt.month", "day": "dt.day", "weekday": "dt.day_name()",
	"hour": "dt.hour", "quarter": "dt.quarter", "dayofweek": "dt.day_name()", "week": "dt.isocalendar().week"}

// partNouns are the words a later "per month" uses for a part.
var partNouns = map[string][]string{"year": {"year", "years"}, "month": {"month", "months"}, "day": {"day", "days"},
	"weekday": {"weekday", "weekdays", "day", "days"}, "hour": {"hour", "hours"}, "quarter": {"quarter", "quarters"},
	"week": {"week", "weeks"}}

var extractVerbs = setOf("extract", "get", "take", "derive", "pull", "add", "create", "compute", "parse", "use", "make")

// readDatePart reads "extract the year from release_date", "get the weekday of date", "add a
// column with the month of date".
func (r *clauseReader) readDatePart(i int) int {
	if !extractVerbs[r.word(i)] {
		return i
	}
	j := r.skip(i+1, setOf("the", "a", "an", "new", "column", "feature", "with", "for", "of", "holding", "containing"))
	part := r.word(j)
	k := j + 1
	if part == "day" && r.is(k, "of") && r.is(k+1, "the", "week") {
		part, k = "weekday", r.skip(k+1, setOf("the"))+1
	}
	if part == "month" && r.is(k, "name") {
		part, k = "monthname", k+1
	}
	acc := dateParts[part]
	if part == "monthname" {
		acc = "dt.month_name()"
	}
	if acc == "" || !r.is(k, "of", "from", "in") {
		return i
	}
	c, end := r.column(r.skip(k+1, setOf("the", "each")))
	if c == "" || !dateCol(r.p, c) {
		return i
	}
	end = r.skip(end, setOf("column"))
	key := strings.TrimSuffix(part, "name")
	said := map[string]string{"monthname": "month name"}[part]
	if said == "" {
		said = part
	}
	d := derivation{Name: newName(c, part), Kind: "cat", Sources: []string{c}, Py: "df[" + pyStr(c) + "]." + acc,
		How: "the " + said + " of " + c}
	return r.derive(i, end, d, partNouns[key]...)
}

// readLength reads "the length of Name", "the number of characters in Name", "Name length".
func (r *clauseReader) readLength(i int) int {
	start, j, words := i, i, false
	switch {
	case r.is(i, "length", "len", "lengths"):
		j = i + 1
	case r.is(i, "number", "count") && r.is(i+1, "of") && r.is(i+2, "characters", "letters", "chars"):
		j = i + 3
	case r.is(i, "number", "count") && r.is(i+1, "of") && r.is(i+2, "words"):
		j, words = i+3, true
	case r.is(i, "character", "char") && r.is(i+1, "count", "length"):
		j = i + 2
	default:
		return r.readLengthAfter(i)
	}
	if !r.is(j, "of", "in") {
		return i
	}
	c, end := r.column(r.skip(j+1, setOf("the", "each", "every")))
	if c == "" || !textColumn(r.p, c) {
		return i
	}
	if r.is(start-1, "the") {
		start--
	}
	return r.derive(start, end, lengthOf(c, words))
}

// readLengthAfter reads "Name length": a text column followed by "length".
func (r *clauseReader) readLengthAfter(i int) int {
	c, j := r.column(i)
	if c == "" || !textColumn(r.p, c) || !r.is(j, "length", "lengths") {
		return i
	}
	return r.derive(i, j+1, lengthOf(c, false))
}

func lengthOf(c string, words bool) derivation {
	if words {
		return derivation{Name: newName(c, "words"), Kind: "num", Sources: []string{c}, How: "the number of words in " + c,
			Py: "df[" + pyStr(c) + "].str.split().str.len()"}
	}
	return derivation{Name: newName(c, "length"), Kind: "num", Sources: []string{c}, How: "the number of characters in " + c,
		Py: "df[" + pyStr(c) + "].str.len()"}
}

// separators name the characters a text is split on.
var separators = map[string]string{"comma": ",", "commas": ",", "space": " ", "spaces": " ", "whitespace": " ",
	"dash": "-", "hyphen": "-", "slash": "/", "underscore": "_", "semicolon": ";", "colon": ":", "period": ".",
	"dot": ".", "pipe": "|", ",": ",", "/": "/", "-": "-", ";": ";", ":": ":", "|": "|"}

// partIndex maps "first", "second", "last" to a position.
var partIndex = map[string]int{"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "last": -1}

// readSplit reads "split Name on ',' and take the first part (as Surname)".
func (r *clauseReader) readSplit(i int) int {
	if !r.is(i, "split", "splitting") {
		return i
	}
	c, j := r.column(r.skip(i+1, setOf("the", "column")))
	if c == "" || !textColumn(r.p, c) || !r.is(j, "on", "by", "at", "using") {
		return i
	}
	j = r.skip(j+1, setOf("the", "a"))
	sep := ""
	if j < len(r.ws) && r.ws[j].quoted {
		sep = r.ws[j].s
	} else {
		sep = separators[r.word(j)]
	}
	if sep == "" {
		return i
	}
	j = r.skip(j+1, setOf("character", "sign", "symbol", "and", "then", ","))
	k := r.skip(j, setOf("take", "keep", "use", "get", "extract", "select", "the"))
	at, ok := partIndex[r.word(k)]
	if !ok || !r.is(k+1, "part", "piece", "element", "token", "word", "item", "field", "half") {
		r.unread(i, k+1, "split "+c+" on ',' and take the first part")
		return k + 1
	}
	end := k + 2
	name := newName(c, map[int]string{0: "first", 1: "second", 2: "third", -1: "last"}[at], "part")
	if r.is(end, "as", "into", "called", "named") && end+1 < len(r.ws) && isLetterStart(r.ws[end+1].s) {
		name, end = r.ws[end+1].s, end+2
	}
	d := derivation{Name: name, Kind: "cat", Sources: []string{c},
		How: fmt.Sprintf("the %s part of %s split on %q", r.word(k), c, sep),
		Py:  fmt.Sprintf("df[%s].str.split(%s).str[%d].str.strip()", pyStr(c), pyStr(sep), at)}
	return r.derive(i, end, d)
}
