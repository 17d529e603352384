package analyst

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// An answer format ("answer in this format: @mean_fare[value]") is a line the reply ends with,
// each @name[…] placeholder filled with the next value of the answer.

// placeholder matches one @name[…] of an answer format.
var placeholder = regexp.MustCompile(`@\w+\[[^\]]*\]`)

// formatLead are the words that introduce a format: "answer in this format:", "report as".
var formatLead = setOf("answer", "answers", "respond", "reply", "output", "return", "print", "give", "report", "present",
	"provide", "write", "your", "the", "this", "following", "in", "using", "with", "use", "as", "please", "and",
	"format", "formatted", "should", "be", "must", "is", "it", "final", "result", "results", "like", "exactly", "form",
	":", ",", "then", "strictly", "follow", "a", "an", "of", "style", "expected")

// formatTail are the words after the placeholders that explain them: "where value is a number".
var formatTail = setOf("where", "with", "in", "which", "and", "each", "value", "values", "is", "are", "a", "an", "the",
	"number", "numbers", "float", "floats", "integer", "integers", "string", "decimal", "numeric", "placeholder",
	"placeholders", "replaced", "by", "your", "answer", "answers", "result", "filled")

// readFormat cuts the answer format out of the question, with the words that introduce it and
// those that explain it; a rounding among them still counts.
func (r *clauseReader) readFormat() {
	first, last := -1, -1
	for i, w := range r.ws {
		if placeholder.MatchString(w.s) && strings.HasPrefix(w.s, "@") {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return
	}
	r.ref.Format = r.text[r.ws[first].at:r.ws[last].end]
	start := first
	for start > 0 && formatLead[r.word(start-1)] {
		start--
	}
	end := last + 1
	for end < len(r.ws) && (formatTail[r.word(end)] || r.is(end, ",") || r.placeholderName(end)) {
		if n := r.readRound(end); n > end {
			end = n
			continue
		}
		end++
	}
	r.edit(start, end, "")
}

// placeholderName reports whether word i is the name inside a placeholder ("where value is").
func (r *clauseReader) placeholderName(i int) bool {
	w := r.word(i)
	return w != "" && strings.Contains(strings.ToLower(r.ref.Format), "["+w+"]")
}

// answerValue is one value of an answer, in the order the reply states them.
type answerValue struct {
	label string
	v     any
}

// answerValues lists the values a reply states, for a rounded lead line and a format line.
func answerValues(ms []marker) []answerValue {
	var out []answerValue
	for _, m := range ms {
		switch m.str("kind") {
		case "stat":
			out = append(out, answerValue{aggWord[m.str("agg")] + " of `" + m.str("col") + "`", m["value"]})
		case "corr":
			out = append(out, answerValue{"correlation of `" + m.str("a") + "` and `" + m.str("b") + "`", m["r"]})
		case "group":
			for _, it := range m.list("items") {
				if p, _ := it.([]any); len(p) == 2 {
					out = append(out, answerValue{fmtLabel(p[0]), p[1]})
				}
			}
		case "size":
			out = append(out, answerValue{"rows", m["rows"]})
		case "share":
			out = append(out, answerValue{"share in percent", m["pct"]})
		case "unique":
			out = append(out, answerValue{"distinct values of `" + m.str("col") + "`", m["n"]})
		case "outliers":
			out = append(out, answerValue{"outliers in `" + m.str("col") + "`", m["n"]})
		case "counts":
			for _, it := range m.list("items") {
				if p, _ := it.([]any); len(p) == 2 {
					out = append(out, answerValue{fmtLabel(p[0]), p[1]})
				}
			}
		default:
			if v, ok := m["value"]; ok && !isPrepKind(m.str("kind")) {
				out = append(out, answerValue{m.str("kind"), v})
			}
		}
	}
	return out
}

// fmtRounded writes a value with the decimals asked, or as it is when none were: plain digits,
// no thousands separators, as a format line expects.
func fmtRounded(v any, decimals int) string {
	f, ok := v.(float64)
	if !ok {
		return fmtAny(v)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "n/a"
	}
	if decimals < 0 {
		if f == math.Trunc(f) {
			return strconv.FormatFloat(f, 'f', 0, 64)
		}
		decimals = 2
		if math.Abs(f) < 0.01 {
			return strconv.FormatFloat(f, 'g', 3, 64)
		}
	}
	return strconv.FormatFloat(f, 'f', decimals, 64)
}

// formatLine fills the format's placeholders in order with the answer's values; one
// placeholder for several values holds them all, separated by commas.
func formatLine(format string, vals []answerValue, decimals int) string {
	holes := placeholder.FindAllStringIndex(format, -1)
	var b strings.Builder
	last := 0
	for k, h := range holes {
		b.WriteString(format[last:h[0]])
		name := format[h[0] : strings.IndexByte(format[h[0]:], '[')+h[0]]
		var fill []string
		switch {
		case len(holes) == 1 && len(vals) > 1:
			for _, v := range vals {
				fill = append(fill, fmtRounded(v.v, decimals))
			}
		case k < len(vals):
			fill = []string{fmtRounded(vals[k].v, decimals)}
		default:
			fill = []string{"n/a"}
		}
		b.WriteString(name + "[" + strings.Join(fill, ", ") + "]")
		last = h[1]
	}
	b.WriteString(format[last:])
	return b.String()
}

// roundedLead states the answer's values with the decimals asked, ahead of the usual
// sentences (which keep their own precision).
func roundedLead(vals []answerValue, decimals int) string {
	if len(vals) == 0 {
		return ""
	}
	var parts []string
	for i, v := range vals {
		if i == 12 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, v.label+": **"+fmtRounded(v.v, decimals)+"**")
	}
	unit := " decimals"
	if decimals == 1 {
		unit = " decimal"
	}
	return "Rounded to " + strconv.Itoa(decimals) + unit + ", as asked: " + strings.Join(parts, ", ") + "."
}
