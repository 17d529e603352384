package analyst

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Labelling rules: sentences after a question that name the answer by thresholds on what a
// test computes. "Consider the relationship to be linear if the p-value is less than 0.05 and
// the absolute r value is greater than or equal to 0.5." "If the p-value is greater than or
// equal to 0.05, report that there is no significant correlation." The rules are read into
// conditions on named values (the p-value, the coefficient r, its absolute value) and a
// label, and the first rule whose conditions hold names the answer.

// labelRule is one sentence: its label (as written, or "" when the sentence names none of
// the format's options) and its conditions, all of which must hold.
type labelRule struct {
	Label string
	Said  string // the rule's own text, for the label's words when it names no option
	Conds []labelCond
}

// labelCond is "<quantity> <op> <value>": of is p, r or abs_r.
type labelCond struct {
	Of    string
	Op    string
	Value float64
}

// holds reports whether the condition holds for v.
func (c labelCond) holds(v float64) bool {
	switch c.Op {
	case "<":
		return v < c.Value
	case "<=":
		return v <= c.Value
	case ">":
		return v > c.Value
	case ">=":
		return v >= c.Value
	}
	return false
}

// String writes the condition in symbols: "|r| ≥ 0.5".
func (c labelCond) String() string {
	of := map[string]string{"p": "p", "r": "r", "abs_r": "|r|"}[c.Of]
	op := map[string]string{"<": "<", "<=": "≤", ">": ">", ">=": "≥"}[c.Op]
	return of + " " + op + " " + strconv.FormatFloat(c.Value, 'g', -1, 64)
}

// readLabelRule reads a labelling sentence starting at word i: one rule per "if", the label
// before it ("Consider … to be linear if …", "… and as \"weak\" if …") or, when the sentence
// starts with the condition, after it ("If p >= 0.05, report that there is no …").
func (r *clauseReader) readLabelRule(i int) int {
	if i > 0 && !r.is(i-1, ".", "?", "!", ":", ";") {
		return i
	}
	end := i
	var ifs []int
	for end < len(r.ws) && !r.is(end, ".", "?", "!", ";") {
		if r.is(end, "if", "when", "whenever") {
			ifs = append(ifs, end)
		}
		end++
	}
	var rules []labelRule
	labelFrom := i
	for k, at := range ifs {
		next := end
		if k+1 < len(ifs) {
			next = ifs[k+1]
		}
		conds, stop := r.leadingConds(at+1, next)
		if len(conds) == 0 {
			return i
		}
		from, to := labelFrom, at
		if at == labelFrom {
			from, to = stop, next // the condition first, its label after
		}
		rules = append(rules, labelRule{Conds: conds, Said: strings.ToLower(r.span(from, to)), Label: r.ruleLabel(from, to)})
		labelFrom = stop
	}
	if len(rules) == 0 {
		return i
	}
	r.ref.Labels = append(r.ref.Labels, rules...)
	if end < len(r.ws) {
		end++ // the full stop
	}
	r.edit(i, end, "")
	return end
}

// leadingConds reads the conditions at the start of words [from, to), joined by "and" or
// commas, and returns where the first part that is none starts (to when all are).
func (r *clauseReader) leadingConds(from, to int) ([]labelCond, int) {
	var out []labelCond
	start := from
	for k := from; k <= to; k++ {
		if k < to && !r.is(k, "and", ",") {
			continue
		}
		if k > start {
			c, ok := r.labelCond(start, k)
			if !ok {
				return out, start
			}
			out = append(out, c)
		}
		start = k + 1
	}
	return out, to
}

// span is the text of words [from, to).
func (r *clauseReader) span(from, to int) string {
	if from >= to || from >= len(r.ws) {
		return ""
	}
	return r.text[r.ws[from].at:r.ws[to-1].end]
}

// ruleLabel is the label a rule names: a quoted word, or the word after "to be" or "as".
func (r *clauseReader) ruleLabel(from, to int) string {
	for k := from; k < to; k++ {
		if r.ws[k].quoted {
			return r.ws[k].s
		}
	}
	for k := from; k+1 < to; k++ {
		if r.is(k, "be", "as") && !r.is(k+1, "a", "an", "the") {
			return r.ws[k+1].s
		}
	}
	return ""
}

// labelCond reads one condition: "the p-value is less than 0.05", "the absolute r value is
// greater than or equal to 0.5", "|r| >= 0.5", "p < 0.05".
func (r *clauseReader) labelCond(from, to int) (labelCond, bool) {
	var c labelCond
	text := " " + strings.ToLower(r.span(from, to)) + " "
	switch {
	case strings.Contains(text, "p-value") || strings.Contains(text, " p value") || strings.Contains(text, " p "):
		c.Of = "p"
	case strings.Contains(text, "absolute") || strings.Contains(text, "|"):
		c.Of = "abs_r"
	case strings.Contains(text, " r ") || strings.Contains(text, "correlation") || strings.Contains(text, "coefficient"):
		c.Of = "r"
	default:
		return c, false
	}
	c.Op = comparisonOp(text)
	for k := from; k < to; k++ {
		if r.ws[k].num {
			c.Value, _ = strconv.ParseFloat(r.ws[k].low, 64)
			return c, c.Op != ""
		}
	}
	return c, false
}

// comparisonOps are the ways of writing a comparison, longest first.
var comparisonOps = []struct{ words, op string }{
	{"greater than or equal to", ">="}, {"less than or equal to", "<="}, {"equal to or greater than", ">="},
	{"equal to or less than", "<="}, {"at least", ">="}, {"at most", "<="}, {"no less than", ">="},
	{"no more than", "<="}, {">=", ">="}, {"<=", "<="}, {"==", "=="}, {"!=", "!="}, {"greater than", ">"},
	{"more than", ">"}, {"larger than", ">"}, {"higher than", ">"}, {"above", ">"}, {"exceeds", ">"},
	{"over", ">"}, {"less than", "<"}, {"smaller than", "<"}, {"lower than", "<"}, {"below", "<"},
	{"under", "<"}, {"not equal to", "!="}, {"equal to", "=="}, {">", ">"}, {"<", "<"},
}

// comparisonOp is the operator a text says ("the p-value is less than 0.05" is <), or "".
func comparisonOp(text string) string { return opIn(text, strings.Contains) }

// comparisonOpEnding is comparisonOp of words that end with the comparison: "is above", not
// "is above the mean", whose comparison ended two words before.
func comparisonOpEnding(text string) string { return opIn(text, strings.HasSuffix) }

// opIn is the first operator of comparisonOps whose words are found in text by found: as
// whole words, or as the symbols themselves.
func opIn(text string, found func(s, sub string) bool) string {
	padded := " " + text + " "
	for _, op := range comparisonOps {
		if found(padded, " "+op.words+" ") || strings.ContainsAny(op.words, "<>=!") && found(text, op.words) {
			return op.op
		}
	}
	return ""
}

// labelValue is the label the first rule that holds names, with the conditions that made it;
// false when no rule applies or a value a rule reads was not computed.
func labelValue(rules []labelRule, options []string, vals []answerValue) (label string, why []labelCond, ok bool) {
	p, hasP := valueNamed(vals, "p")
	r, hasR := valueNamed(vals, "r")
	for _, rule := range rules {
		holds := true
		for _, c := range rule.Conds {
			v, has := p, hasP
			if c.Of != "p" {
				v, has = r, hasR
				if c.Of == "abs_r" {
					v = math.Abs(r)
				}
			}
			if !has {
				return "", nil, false
			}
			holds = holds && c.holds(v)
		}
		if holds {
			l := ruleOption(rule, rules, options)
			return l, rule.Conds, l != ""
		}
	}
	if left := unnamedOptions(rules, options); len(left) == 1 && (hasP || hasR) {
		return left[0], nil, true // no rule holds: the one option none names is "otherwise"
	}
	return "", nil, false
}

// unnamedOptions are the format's options no rule names.
func unnamedOptions(rules []labelRule, options []string) []string {
	var left []string
	for _, o := range options {
		named := false
		for _, rule := range rules {
			named = named || strings.EqualFold(rule.Label, o) || saysWord(rule.Said, o)
		}
		if !named {
			left = append(left, o)
		}
	}
	return left
}

// saysWord reports whether a rule's words include w.
func saysWord(said, w string) bool {
	for _, x := range strings.Fields(said) {
		if strings.EqualFold(strings.Trim(x, `"'“”,`), w) {
			return true
		}
	}
	return false
}

// ruleOption is the option of the format a rule names: its own label when it is one, an
// option its words contain, or the one option no other rule names ("none" for "report that
// there is no significant correlation").
func ruleOption(rule labelRule, rules []labelRule, options []string) string {
	if len(options) == 0 {
		return rule.Label
	}
	for _, o := range options {
		if strings.EqualFold(o, rule.Label) {
			return o
		}
	}
	for _, o := range options {
		if saysWord(rule.Said, o) {
			return o
		}
	}
	var others []labelRule
	for _, other := range rules {
		if other.Said != rule.Said {
			others = append(others, other)
		}
	}
	if left := unnamedOptions(others, options); len(left) == 1 {
		return left[0]
	}
	return rule.Label
}

// valueNamed is the number of the first value one of whose keys is key.
func valueNamed(vals []answerValue, key string) (float64, bool) {
	for _, v := range vals {
		for _, k := range v.keys {
			if f, ok := v.v.(float64); ok && k == key {
				return f, true
			}
		}
	}
	return 0, false
}

// signLabel names the sign of a correlation when the format asks for it in words, "positive"
// or "negative" (@direction[positive/negative]); "" otherwise.
func signLabel(format, note string, vals []answerValue) string {
	low := strings.ToLower(format + " " + note)
	if !strings.Contains(low, "positive") || !strings.Contains(low, "negative") {
		return ""
	}
	r, ok := valueNamed(vals, "r")
	switch {
	case !ok:
		return ""
	case r > 0:
		return "positive"
	case r < 0:
		return "negative"
	}
	return "none"
}

// labelKeys name a rule's label in a placeholder: @relationship_type, @category.
var labelKeys = []string{"label", "relationship", "type", "category", "class", "classification", "nature", "kind", "strength"}

// formatOptions are the quoted options a format's note offers: "linear", "nonlinear", or "none".
func formatOptions(note string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(note, -1) {
		out = append(out, m[1])
	}
	return out
}

// labelSentence says which label the rules gave, and why.
func labelSentence(label string, why []labelCond) string {
	if len(why) == 0 {
		return fmt.Sprintf("None of the rules given holds, so the answer is **%s**.", label)
	}
	var conds []string
	for _, c := range why {
		conds = append(conds, c.String())
	}
	return fmt.Sprintf("By the rule given (%s), the answer is **%s**.", strings.Join(conds, " and "), label)
}
