package analyst

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
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
	inner := r.formatHoles(first, last)
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
	if end < len(r.ws) && r.explains(last+1, end) {
		// "where "relationship" is "linear" if p < 0.05 and "none" otherwise.": the rest of
		// the sentence says what the placeholders hold, rounding included
		for end < len(r.ws) && !r.is(end, ".", "?", "!") {
			if n := r.readRound(end); n > end {
				end = n
				continue
			}
			end++
		}
	}
	if e := min(end, len(r.ws)); e > last+1 {
		r.ref.FormatNote = r.text[r.ws[last].end:r.ws[e-1].end]
	}
	if inner != "" {
		r.ref.FormatNote = strings.TrimSpace(inner + " " + r.ref.FormatNote)
	}
	r.edit(start, end, "")
}

// formatHoles sets the format line from its placeholders, words first to last, and returns
// the words written between them, which explain a placeholder rather than belong to the line:
// "@p_value[p] rounded to 4 decimals, @result[…]" is the line "@p_value[p], @result[…]" and
// the note "@p_value[p] rounded to 4 decimals".
func (r *clauseReader) formatHoles(first, last int) string {
	var line, notes []string
	prev := -1
	for i := first; i <= last; i++ {
		if !strings.HasPrefix(r.ws[i].s, "@") || !placeholder.MatchString(r.ws[i].s) {
			continue
		}
		if prev >= 0 {
			gap := r.text[r.ws[prev].end:r.ws[i].at]
			if strings.IndexFunc(gap, unicode.IsLetter) >= 0 {
				notes = append(notes, r.ws[prev].s+" "+strings.Trim(strings.TrimSpace(gap), ",;"))
				gap = ", "
			}
			line = append(line, gap)
		}
		line = append(line, r.ws[i].s)
		prev = i
	}
	r.ref.Format = strings.Join(line, "")
	return strings.Join(notes, "; ")
}

// explains reports a clause after a format, from word from to word at, that explains its
// placeholders: "where …", "in which …", or a placeholder's name.
func (r *clauseReader) explains(from, at int) bool {
	for i := from; i <= at; i++ {
		if r.is(i, "where", "which", "whereby") || r.placeholderName(i) {
			return true
		}
	}
	return false
}

// placeholderName reports whether word i is the name inside a placeholder ("where value is").
func (r *clauseReader) placeholderName(i int) bool {
	w := r.word(i)
	return w != "" && strings.Contains(strings.ToLower(r.ref.Format), "["+w+"]")
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

// roundedLead states the answer's values with the decimals asked, ahead of the usual
// sentences (which keep their own precision).
func roundedLead(vals []answerValue, decimals int) string {
	if len(vals) == 0 {
		return ""
	}
	var parts []string
	vals = slices.DeleteFunc(slices.Clone(vals), func(v answerValue) bool { _, verdict := v.v.(bool); return verdict })
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
