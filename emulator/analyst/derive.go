package analyst

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// derivation is a column the question defines: computed in every cell of the conversation
// from then on (the planner is stateless, so each call finds the definitions again in the
// history), added to the profile so that the rest of the parse can name it.
type derivation struct {
	Name    string
	Kind    string // num or cat, as the profile has it
	How     string // said in the reply: "SibSp + Parch", "Age in 4 equal-width bins"
	Sources []string
	Py      string // the Python expression of the new column over df
	// Labels are the bins' names in order, for a column of bins.
	Labels []string
	// Flag marks a column of 1s and 0s defined by a condition: its mean is a share of rows.
	Flag bool
}

// readDerived tries each way of defining a column at word i.
func (r *clauseReader) readDerived(i int) int {
	for _, read := range []func(int) int{r.readFlag, r.readNamedExpr, r.readBins, r.readNounBins, r.readDatePart,
		r.readLength, r.readSplit, r.readPairPhrase, r.readRowAgg, r.readBareExpr} {
		if n := read(i); n > i {
			return n
		}
	}
	return i
}

// derive records a derivation read from words [from, to), the words replaced by its name,
// and later words that refer to it ("per group", "its", "the new column") too.
func (r *clauseReader) derive(from, to int, d derivation, nouns ...string) int {
	if c, _ := columnInfo(r.p, d.Name); c != nil && !strings.HasSuffix(c.Dtype, derivedDtype) {
		return from // never overwrite a column of the file
	}
	r.ref.Derived = append(r.ref.Derived, d)
	r.p, r.names = withDerived(r.p, []derivation{d}), nil
	repl := d.Name
	if r.referTo(to, d.Name, nouns) && d.Kind == "cat" {
		repl = "" // "bin ages … and give the mean fare per group": the groups are named where used
	}
	r.edit(from, to, repl)
	return to
}

func (r *clauseReader) isDerived(name string) bool {
	for _, d := range r.ref.Derived {
		if d.Name == name {
			return true
		}
	}
	return false
}

// refWords point back at the column just defined.
var refWords = setOf("it", "its", "this", "that")

// groupLead are the words before a noun that mean "grouped by it": "per group", "for each bin".
var groupLead = setOf("per", "by", "each", "across", "within", "among", "over")

// referTo rewrites later references to a new column: "its", "the new column", and for bins
// and date parts "per group", "by month".
func (r *clauseReader) referTo(from int, name string, nouns []string) (grouped bool) {
	nounSet := setOf(nouns...)
	for i := from; i < len(r.ws); i++ {
		j := r.skip(i, setOf("the", "this", "that", "these", "those", "new", "derived", "resulting", "created"))
		switch {
		case j > i && deriveNoun[r.word(j)]:
			r.edit(i, j+1, name)
			i = j
		case refWords[r.word(i)] && (r.word(i) != "this" && r.word(i) != "that" || i+1 < len(r.ws) && !isLetterStart(r.ws[i+1].s)):
			r.edit(i, i+1, name)
		case groupLead[r.word(i)] || r.is(i, "for", "in") && r.is(i+1, "each"):
			k := i + 1
			if r.is(i, "for", "in") {
				k++
			}
			k = r.skip(k, setOf("the", "each", "these", "those", "new", "age", "resulting"))
			if nounSet[r.word(k)] || nounSet[singular(r.word(k))] {
				r.edit(i, k+1, "by "+name)
				i, grouped = k, true
			}
		}
	}
	return grouped
}

// withDerived returns a copy of the profile with the derived columns added to their frames.
func withDerived(p *Profile, ds []derivation) *Profile {
	out := *p
	out.Frames = append([]Frame{}, p.Frames...)
	for _, d := range ds {
		fi := derivedFrame(&out, d)
		if fi < 0 || out.Frames[fi].column(d.Name) != nil {
			continue
		}
		f := &out.Frames[fi]
		f.Columns = append(append([]Column{}, f.Columns...), Column{Name: d.Name, Kind: d.Kind, Dtype: dtypeOf(d.Kind), Values: d.Labels, Unique: max(len(d.Labels), 2)})
	}
	return &out
}

func dtypeOf(kind string) string {
	if kind == "num" {
		return "float64" + derivedDtype
	}
	return "object" + derivedDtype
}

// derivedFrame is the frame holding every source of a derivation, or -1.
func derivedFrame(p *Profile, d derivation) int {
	for fi := range p.Frames {
		all := true
		for _, s := range d.Sources {
			all = all && p.Frames[fi].column(s) != nil
		}
		if all {
			return fi
		}
	}
	return -1
}

// newName makes a column name from parts in the style of the source: "AgeGroup" beside
// CamelCase names, "release_date_year" beside snake_case, so that the name is typed and
// matched as the file's own are.
func newName(parts ...string) string {
	// The source column (the first part) sets the style; the words added are lowercase.
	snake := strings.ContainsAny(parts[0], "_ ") || parts[0] == strings.ToLower(parts[0]) && unicode.IsLetter(rune(parts[0][0]))
	if snake {
		clean := make([]string, len(parts))
		for i, p := range parts {
			clean[i] = strings.ReplaceAll(p, " ", "_")
		}
		return strings.Join(clean, "_")
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

// namedLead are the words before a new column's name: "create a new column called".
var namedLead = setOf("create", "add", "make", "compute", "calculate", "define", "derive", "construct", "engineer",
	"build", "generate", "a", "an", "the", "new", "column", "feature", "variable", "field", "called", "named", "let")

// namedLink are the words between a new column's name and its expression.
var namedLink = setOf(",", "defined", "computed", "calculated", "as", "which", "that", "is", "equal", "equals",
	"to", "given", "by", ":=", ":", "being")

// readNamedExpr reads "FamilySize = SibSp + Parch", "a column FamilySize as SibSp + Parch + 1",
// "SibSp + Parch as FamilySize".
func (r *clauseReader) readNamedExpr(i int) int {
	w := r.ws[i]
	if !isLetterStart(w.s) || w.quoted || namedLead[w.low] || stopwords[w.low] {
		return i
	}
	start := i
	for start > 0 && namedLead[r.word(start-1)] {
		start--
	}
	afterNoun := start < i && deriveNoun[r.word(i-1)] || start < i-1 && r.is(i-1, "called", "named")
	j := i + 1
	if r.is(j, "=") {
		j++
	} else if afterNoun {
		j = r.skip(j, namedLink)
	} else {
		return i
	}
	if j == i+1 {
		return i
	}
	e, ok := r.expression(j)
	if !ok || e.ops == 0 {
		if e, ok = r.verbalExpr(j); !ok {
			return i
		}
	}
	if r.fileColumn(i) {
		return i // "Age = 30" is a condition, and a file's column is never redefined
	}
	d := derivation{Name: w.s, Kind: "num", How: e.text, Sources: e.cols, Py: e.py}
	return r.derive(start, e.end, d)
}

// verbOps map the verbs of arithmetic to an operator and the word before their second operand:
// "dividing price by area", "adding SibSp and Parch", "subtracting cost from price".
var verbOps = map[string]struct{ op, link string }{
	"dividing": {"/", "by"}, "multiplying": {"*", "by"}, "adding": {"+", "and"}, "summing": {"+", "and"},
	"subtracting": {"-", "from"},
}

// verbalExpr reads an expression said in words from j: "dividing price by area_sqm", "the sum
// of SibSp and Parch plus 1", "subtracting cost from price"; further operators may follow.
func (r *clauseReader) verbalExpr(j int) (expr, bool) {
	j = r.skip(j, setOf("by", "the"))
	var a, b string
	var op string
	var end int
	if v, ok := verbOps[r.word(j)]; ok {
		var k int
		a, k = r.column(r.skip(j+1, setOf("the")))
		link := v.link
		if v.op == "*" && r.is(k, "and") {
			link = "and"
		}
		if a == "" || !r.is(k, link) {
			return expr{}, false
		}
		b, end = r.column(r.skip(k+1, setOf("the")))
		op = v.op
		if op == "-" {
			a, b = b, a // "subtracting cost from price" is price - cost
		}
	} else if op, a, b, end = r.pairAt(j); op == "" {
		return expr{}, false
	}
	if a == "" || b == "" || !numericColumn(r.p, a) || !numericColumn(r.p, b) {
		return expr{}, false
	}
	e := expr{py: "df[" + pyStr(a) + "] " + op + " df[" + pyStr(b) + "]", text: a + " " + op + " " + b,
		parts: []string{a, opNames[op], b}, cols: appendNew([]string{a}, b), ops: 1}
	e.end = r.further(&e, end)
	return e, true
}

// readBareExpr reads an expression typed in the question, "the mean of Fare / (SibSp + 1)",
// and names its column after it.
func (r *clauseReader) readBareExpr(i int) int {
	if c, _ := r.column(i); c == "" && !r.is(i, "(") {
		return i
	}
	e, ok := r.expression(i)
	if !ok || e.ops == 0 {
		return i
	}
	d := derivation{Name: e.name(), Kind: "num", How: e.text, Sources: e.cols, Py: e.py}
	if r.is(e.end, "as", "called", "named") && e.end+1 < len(r.ws) && isLetterStart(r.ws[e.end+1].s) {
		if !r.fileColumn(e.end + 1) {
			d.Name = r.ws[e.end+1].s
			return r.derive(i, e.end+2, d)
		}
	}
	return r.derive(i, e.end, d)
}

// expr is an arithmetic expression over columns read from the question.
type expr struct {
	py, text string
	parts    []string // for the column's name
	cols     []string
	ops, end int
}

func (e *expr) name() string { return newName(e.parts...) }

// opWordsPy maps the operators of an expression, in symbols or words, to Python.
var opWordsPy = map[string]string{"+": "+", "-": "-", "*": "*", "/": "/", "plus": "+", "minus": "-", "times": "*"}

// opNames name the operators in a derived column's name.
var opNames = map[string]string{"+": "plus", "-": "minus", "*": "times", "/": "per"}

// expression reads operand (operator operand)* from i.
func (r *clauseReader) expression(i int) (expr, bool) {
	var e expr
	j, ok := r.operand(i, &e)
	if ok {
		j = r.further(&e, j)
	}
	e.end = j
	return e, len(e.cols) > 0 && j > i
}

// further reads the operators and operands that continue e from j ("… plus 1") and returns
// the index after them.
func (r *clauseReader) further(e *expr, j int) int {
	for {
		n, ok := r.operand(j, e)
		if !ok {
			return j
		}
		e.ops++
		j = n
	}
}

// operator reads +, -, *, /, "plus", "minus", "times", "divided by", "multiplied by".
func (r *clauseReader) operator(i int) (string, int) {
	if op := opWordsPy[r.word(i)]; op != "" {
		return op, i + 1
	}
	if r.is(i, "divided") && r.is(i+1, "by") {
		return "/", i + 2
	}
	if r.is(i, "multiplied") && r.is(i+1, "by") {
		return "*", i + 2
	}
	return "", i
}

// operand reads a column, a number or a parenthesised expression at i and appends it to e,
// with the operator before it when e has one already.
func (r *clauseReader) operand(i int, e *expr) (int, bool) {
	op := ""
	if e.py != "" {
		op, i = r.operator(i)
		if op == "" {
			return i, false
		}
	}
	var py, text, part string
	end := i
	switch {
	case i < len(r.ws) && r.ws[i].num:
		py, text, part, end = r.ws[i].s, r.ws[i].s, strings.ReplaceAll(r.ws[i].s, ".", "_"), i+1
	case r.is(i, "("):
		var inner expr
		n, ok := r.operand(i+1, &inner)
		if !ok {
			return i, false
		}
		for {
			m, ok := r.operand(n, &inner)
			if !ok {
				break
			}
			inner.ops++
			n = m
		}
		if !r.is(n, ")") {
			return i, false
		}
		py, text, part, end = "("+inner.py+")", "("+inner.text+")", strings.Join(inner.parts, ""), n+1
		e.cols = append(e.cols, inner.cols...)
	default:
		c, n := r.column(i)
		if c == "" {
			return i, false
		}
		if col, _ := columnInfo(r.p, c); col == nil || col.Kind != "num" {
			return i, false
		}
		py, text, part, end = "df["+pyStr(c)+"]", c, c, n
		e.cols = appendNew(e.cols, c)
	}
	if op != "" {
		e.py += " " + op + " "
		e.text += " " + op + " "
		e.parts = append(e.parts, opNames[op])
	}
	e.py += py
	e.text += text
	e.parts = append(e.parts, part)
	return end, true
}

// pairWords map "the sum of A and B", "the difference between A and B", "the ratio of A to
// B", "the product of A and B" to an operator.
var pairWords = map[string]string{"sum": "+", "difference": "-", "ratio": "/", "product": "*"}

// readPairPhrase reads "the difference between A and B" and the like. A sum of two columns is
// read so only when another statistic is asked of it ("the mean of the sum of SibSp and
// Parch"); "the sum of sales and costs" alone asks for two totals.
func (r *clauseReader) readPairPhrase(i int) int {
	op, a, b, end := r.pairAt(i)
	if op == "" || !numericColumn(r.p, a) || !numericColumn(r.p, b) {
		return i
	}
	if op == "+" && !r.asksStatistic(i) {
		return i
	}
	start := i
	if r.is(i-1, "the") {
		start--
	}
	name := newName(a, opNames[op], b)
	if op == "/" {
		name = newName(a, "to", b, "ratio")
	}
	d := derivation{Name: name, Kind: "num", How: a + " " + op + " " + b, Sources: []string{a, b},
		Py: "df[" + pyStr(a) + "] " + op + " df[" + pyStr(b) + "]"}
	return r.derive(start, end, d)
}

// rowAggWords are the statistics of several columns that a row can have of its own.
var rowAggWords = map[string]string{"average": "mean", "mean": "mean", "avg": "mean", "sum": "sum", "total": "sum"}

// readRowAgg reads a statistic of several columns for each row: "the average of math_score,
// reading_score and writing_score for each student", "the total of Q1, Q2 and Q3 per row". It
// is a new column, the row's own mean or sum, of which the question may ask more ("report the
// mean of this average"); without "for each …" it stays a statistic of each column.
func (r *clauseReader) readRowAgg(i int) int {
	agg := rowAggWords[r.word(i)]
	if agg == "" || !r.is(i+1, "of") {
		return i
	}
	cols, j := r.columnList(r.skip(i+2, setOf("the")))
	if len(cols) < 2 || slices.ContainsFunc(cols, func(c string) bool { return !numericColumn(r.p, c) }) {
		return i
	}
	j = r.skip(j, setOf("columns", "scores", "values"))
	end := -1
	switch {
	case r.is(j, "for", "of", "across", "in") && r.is(j+1, "each", "every"), r.is(j, "per"):
		k := r.skip(j+1, setOf("each", "every"))
		if c, _ := r.column(k); c == "" && isLetterStart(r.word(k)) {
			end = k + 1 // "for each student": the row entity, no column
		}
	case r.is(j, "row-wise", "rowwise"):
		end = j + 1
	}
	if end < 0 {
		return i
	}
	start := i
	if r.is(i-1, "the") {
		start--
	}
	var q []string
	for _, c := range cols {
		q = append(q, pyStr(c))
	}
	d := derivation{Name: newName("row", agg), Kind: "num", How: "the " + aggWord[agg] + " of " + andList(cols) + " in each row",
		Sources: cols, Py: "df[[" + strings.Join(q, ", ") + "]]." + agg + "(axis=1)"}
	return r.derive(start, end, d)
}

// pairAt reads "the sum of A and B", "the difference between A and B", "the ratio of A to B"
// from word i (after any "the"): the operator, the two columns and the index after them; op ""
// when there is none.
func (r *clauseReader) pairAt(i int) (op, a, b string, end int) {
	op = pairWords[r.word(i)]
	if op == "" || !r.is(i+1, "of", "between") {
		return "", "", "", i
	}
	a, j := r.column(r.skip(i+2, setOf("the")))
	if a == "" || !r.is(j, "and", "to", "minus", "over", "with", "-", "divided", "/") {
		return "", "", "", i
	}
	k := j + 1
	if r.is(j, "divided") && r.is(k, "by") {
		k++
	}
	if b, end = r.column(r.skip(k, setOf("the"))); b == "" {
		return "", "", "", i
	}
	return op, a, b, end
}

// aggregateWords ask for a statistic of a column.
var aggregateWords = setOf("mean", "average", "avg", "median", "std", "deviation", "variance", "max", "maximum", "min",
	"minimum", "highest", "lowest", "correlation", "correlate", "distribution", "histogram", "describe", "plot", "per", "by")

// asksStatistic reports whether some other word of the question asks for a statistic.
func (r *clauseReader) asksStatistic(except int) bool {
	for k, w := range r.ws {
		if k != except && aggregateWords[w.low] {
			return true
		}
	}
	return false
}

func numericColumn(p *Profile, name string) bool {
	c, _ := columnInfo(p, name)
	return c != nil && c.Kind == "num"
}

func textColumn(p *Profile, name string) bool {
	c, _ := columnInfo(p, name)
	return c != nil && (c.Kind == "text" || c.Kind == "cat")
}

func dateCol(p *Profile, name string) bool {
	c, _ := columnInfo(p, name)
	return c != nil && c.Kind == "date"
}

// quote is a derivation's description with its name, for the reply.
func (d derivation) said() string {
	return fmt.Sprintf("`%s` = %s", d.Name, d.How)
}
