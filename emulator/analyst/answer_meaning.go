package analyst

import (
	"fmt"
	"strings"
)

// answerSentence writes the reply to a question package meaning read: the verdict or the value
// first, then what it is of and which rows it used.
func answerSentence(m marker) string {
	vals := meaningValuesText(m)
	if m.str("form") == "verdict" {
		return verdictSentence(m, vals)
	}
	what, rows := m.str("what"), meaningRows(m)
	switch m.str("shape") {
	case "count":
		if m.str("where") == "" {
			return fmt.Sprintf("There are **%s** rows.", m.str("n"))
		}
		return fmt.Sprintf("**%s** of %s rows match: %s.", m.str("n"), m.str("of"), m.str("where"))
	case "distinct":
		return fmt.Sprintf("%s has **%s** different values%s.", what, firstValue(m), rows)
	}
	if tied, _ := m["tied"].(bool); tied {
		return fmt.Sprintf("%s%s is a tie: %s.", capital(what), rows, strings.Join(vals, " and "))
	}
	switch len(vals) {
	case 0:
		return fmt.Sprintf("No rows match, so there is no value for %s%s.", what, rows)
	case 1:
		return fmt.Sprintf("%s%s is %s.", capital(what), rows, vals[0])
	}
	return fmt.Sprintf("%s%s: %s.", capital(what), rows, strings.Join(vals, ", "))
}

// percentOf writes part as a percentage of whole, "55%", or "" when either is not a number.
func percentOf(part, whole any) string {
	p, okP := part.(float64)
	w, okW := whole.(float64)
	if !okP || !okW || w == 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f%%", 100*p/w)
}

// meaningRows says which rows an answer used, when it used some of them.
func meaningRows(m marker) string {
	where := m.str("where")
	if where == "" {
		return ""
	}
	n := m.str("n")
	return fmt.Sprintf(" (over the %s of %s rows where %s)", n, m.str("of"), where)
}

// verdictSentence opens with Yes or No, then says what was checked.
func verdictSentence(m marker, vals []string) string {
	ok, known := m["verdict"].(bool)
	what, where := m.str("what"), m.str("where")
	if !known {
		return fmt.Sprintf("I cannot say yes or no: %s is missing.", what)
	}
	lead := "**No.**"
	if ok {
		lead = "**Yes.**"
	}
	switch m.str("shape") {
	case "exists":
		among := ""
		if what != "" {
			among = ", among " + what
		}
		if m.str("n") == "0" {
			return fmt.Sprintf("%s No row matches: %s%s.", lead, where, among)
		}
		return fmt.Sprintf("%s %s %s: %s%s.", lead, m.str("n"), pluralOf(m.str("n"), "row matches", "rows match"), where, among)
	case "all":
		among := ""
		if where != "" {
			among = " where " + where
		}
		passing := m.list("values")
		if ok {
			return fmt.Sprintf("%s %s in all %s rows%s.", lead, capital(what), m.str("n"), among)
		}
		if len(passing) == 1 {
			return fmt.Sprintf("%s %s in %s of the %s rows%s, not in all.", lead, capital(what), fmtAny(passing[0]), m.str("n"), among)
		}
		return fmt.Sprintf("%s %s is not so in every row%s.", lead, capital(what), among)
	case "majority":
		among := ""
		if where != "" {
			among = " where " + where
		}
		passing, total := fmtAny(m.list("values")[0]), m.str("n")
		half := "more than half"
		if !ok {
			half = "not more than half"
		}
		return fmt.Sprintf("%s %s in %s of the %s rows%s (%s), %s.", lead, capital(what), passing, total, among, percentOf(m.list("values")[0], m["n"]), half)
	case "countcheck":
		rows := ""
		if where != "" {
			rows = " where " + where
		}
		return fmt.Sprintf("%s There are **%s** rows%s; the question asks about %s.", lead, firstValue(m), rows, what)
	case "unique":
		if ok {
			return fmt.Sprintf("%s Every value of %s is different.", lead, what)
		}
		return fmt.Sprintf("%s Some values of %s repeat.", lead, what)
	case "alike":
		return alikeText(lead, ok, what, m)
	}
	rows := meaningRows(m)
	switch {
	case len(vals) == 1 && m.list("values")[0] == nil:
		return fmt.Sprintf("%s %s%s has no value.", lead, capital(what), rows)
	case len(vals) == 1 && m["extreme"] != nil:
		return fmt.Sprintf("%s %s%s is %s; %s is **%s**.", lead, capital(what), rows, vals[0], m.str("extreme_what"), fmtAny(m["extreme"]))
	case len(vals) == 1 && len(m.list("others")) > 0:
		return fmt.Sprintf("%s %s%s is %s; %s.", lead, capital(what), rows, vals[0], othersText(m))
	case len(vals) == 1:
		return fmt.Sprintf("%s %s%s is %s.", lead, capital(what), rows, vals[0])
	}
	return fmt.Sprintf("%s I checked %s%s.", lead, what, rows)
}

// alikeText says whether every row has one value of a column, and which values it has: the
// one shared, or how many and the most common.
func alikeText(lead string, ok bool, what string, m marker) string {
	vals := m.list("values")
	if len(vals) < 3 {
		return lead
	}
	if ok {
		return fmt.Sprintf("%s Every row has the same %s: **%s**.", lead, what, fmtAny(vals[1]))
	}
	if fmtAny(vals[0]) == "1" {
		return fmt.Sprintf("%s Some rows have no %s; the others all have **%s**.", lead, what, fmtAny(vals[1]))
	}
	return fmt.Sprintf("%s %s has **%s** different values; the most common is **%s** (%s rows).", lead, capital(what), fmtAny(vals[0]), fmtAny(vals[1]), fmtAny(vals[2]))
}

// meaningValuesText renders the marker's values in bold, with each group's row count when the
// values are groups; a missing value is said as such.
func meaningValuesText(m marker) []string {
	counts, scores := m.list("counts"), m.list("scores")
	var out []string
	for i, v := range m.list("values") {
		s := "missing (no value)"
		if v != nil {
			s = fmtFor(m.str("target"), v) // an id or a year without thousands separators
		}
		s = "**" + s + "**"
		if i < len(counts) {
			n := fmtAny(counts[i])
			s += fmt.Sprintf(" (%s %s)", n, pluralOf(n, "row", "rows"))
		} else if i < len(scores) {
			s += " (" + scoreLabel(m) + fmtAny(scores[i]) + ")"
		}
		out = append(out, s)
	}
	return out
}

func firstValue(m marker) string {
	if l := m.list("values"); len(l) > 0 {
		return fmtAny(l[0])
	}
	return "no"
}

// pluralOf picks the singular for a count written as 1.
func pluralOf(n, one, many string) string {
	if n == "1" {
		return one
	}
	return many
}

// scoreLabel names the column the scores are of: "`finalWorth` 219,000".
func scoreLabel(m marker) string {
	if by := m.str("by"); by != "" && m["by_length"] == true {
		return "length of `" + by + "` "
	}
	if by := m.str("by"); by != "" {
		return "`" + by + "` "
	}
	return ""
}

// othersText says the groups a ranking did not choose, with their values: "female: 29.98".
func othersText(m marker) string {
	var parts []string
	for _, it := range m.list("others") {
		if p, _ := it.([]any); len(p) == 2 {
			parts = append(parts, fmtFor(m.str("target"), p[0])+": "+fmtAny(p[1]))
		}
	}
	return strings.Join(parts, ", ")
}
