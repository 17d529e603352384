package analyst

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// opWords maps comparison words to operators.
var opWords = map[string]string{">": ">", "<": "<", ">=": ">=", "<=": "<=", "=": "==", "==": "==", "!=": "!=",
	"above": ">", "exceeds": ">", "exceeding": ">", "over": ">", "below": "<", "under": "<", "equals": "==",
	"beyond": ">", "atleast": ">=", "exceed": ">"}

// numericFilters reads "units > 10", "revenue above 1,000", "age between 30 and 40".
func numericFilters(q *Query, ps *parsed, ix *colIndex, used []bool) {
	for _, m := range ps.mentions {
		cols := q.columnsOf(m.cols)
		if len(cols) != 1 {
			continue
		}
		c := ix.column(cols[0])
		i := m.end
		for i < len(ps.toks) && (ps.toks[i].low == "is" || ps.toks[i].low == "was" || ps.toks[i].low == "of") {
			i++
		}
		if i < len(ps.toks) && codeValue(c, ps.toks[i]) {
			// "Pclass 3", "class is 1": a code named with one of its values
			q.Filters = append(q.Filters, Filter{Col: c.Name, Op: "==", Value: ps.toks[i].low, Kind: "num"})
			used[m.start], used[i] = true, true
			continue
		}
		if i+1 >= len(ps.toks) {
			continue
		}
		op, val := opWords[ps.toks[i].low], ps.toks[i+1]
		if ps.toks[i].norm == "between" && i+3 < len(ps.toks) && val.num && ps.toks[i+3].num {
			q.Filters = append(q.Filters, Filter{Col: c.Name, Op: ">=", Value: cleanNumber(val.low), Kind: c.Kind},
				Filter{Col: c.Name, Op: "<=", Value: cleanNumber(ps.toks[i+3].low), Kind: c.Kind})
			used[m.start] = true
			continue
		}
		if val.low == "than" && i+2 < len(ps.toks) {
			val = ps.toks[i+2]
		}
		if op != "" && c.Kind == "num" && !val.num {
			if agg, end := aggregateAfter(ps, i+1); agg != "" {
				// "charges greater than the average charges": the column's own average
				q.Filters = append(q.Filters, Filter{Col: c.Name, Op: op, Value: agg, Kind: "agg"})
				used[m.start] = true
				for k := i; k < end; k++ {
					used[k], ps.taken[k] = true, true
					ps.unknown = slices.DeleteFunc(ps.unknown, func(w string) bool { return w == ps.toks[k].raw }) // "exceed"
				}
				continue
			}
		}
		if op == "" || !val.num || c.Kind != "num" {
			continue
		}
		q.Filters = append(q.Filters, Filter{Col: c.Name, Op: op, Value: cleanNumber(val.low), Kind: "num"})
		used[m.start], used[i+1] = true, true
	}
}

// codeValue reports whether t is one of the values an integer code takes (within its range).
func codeValue(c *Column, t token) bool {
	if !t.num || !c.isCode() {
		return false
	}
	v, err1 := strconv.ParseFloat(t.low, 64)
	lo, err2 := strconv.ParseFloat(c.Min, 64)
	hi, err3 := strconv.ParseFloat(c.Max, 64)
	return err1 == nil && err2 == nil && err3 == nil && v >= lo && v <= hi && v == float64(int(v))
}

// aggregateAfter reads "the average", "the mean charges", "the median" from token i: the
// aggregate a condition compares a column with, and where its words end; "" when there is none.
func aggregateAfter(ps *parsed, i int) (string, int) {
	k := i
	for k < len(ps.toks) && (ps.toks[k].low == "the" || ps.toks[k].low == "its" || ps.toks[k].low == "than") {
		k++
	}
	var agg string
	switch {
	case k+1 < len(ps.toks) && ordinalToken.MatchString(ps.toks[k].low) && ps.toks[k+1].norm == "percentile":
		n, _ := strconv.Atoi(strings.TrimRight(ps.toks[k].low, "stndrh"))
		if n <= 0 || n >= 100 {
			return "", i
		}
		agg, k = "q"+strconv.Itoa(n), k+1 // "the 75th percentile of charges"
	case k < len(ps.toks) && ps.toks[k].kw && (ps.toks[k].norm == "mean" || ps.toks[k].norm == "median"):
		agg = ps.toks[k].norm
	default:
		return "", i
	}
	end := k + 1
	for _, m := range ps.mentions {
		if m.start == end || m.start == end+1 && ps.toks[end].low == "of" {
			end = m.end // "the average charges", "the mean of charges": the same column's, said again
		}
	}
	return agg, end
}

// mergeEqualities makes two values of one number column one set: "4-cylinder cars and
// 6-cylinder cars" are the rows of either, never the rows of both, which are none.
func mergeEqualities(q *Query) {
	var out []Filter
	seen := map[string]int{}
	for _, x := range q.Filters {
		at, ok := seen[x.Col]
		if x.Kind != "num" || x.Op != "==" || !ok {
			if x.Kind == "num" && x.Op == "==" {
				seen[x.Col] = len(out)
			}
			out = append(out, x)
			continue
		}
		if m := &out[at]; !slices.Contains(m.Values, x.Value) {
			if m.Op == "==" {
				m.Op, m.Values = "in", []string{m.Value}
			}
			m.Values = append(m.Values, x.Value)
		}
	}
	q.Filters = out
}

// codeFirstFilters reads a code's value typed before it: "8 cylinders", "with 2 bathrooms".
func codeFirstFilters(q *Query, ps *parsed, ix *colIndex, used []bool) {
	for _, m := range ps.mentions {
		cols := q.columnsOf(m.cols)
		if m.start == 0 || len(cols) != 1 || used[m.start] || used[m.start-1] {
			continue
		}
		c, t := ix.column(cols[0]), ps.toks[m.start-1]
		if !codeValue(c, t) || m.start > 1 && (ps.toks[m.start-2].norm == "top" || ps.toks[m.start-2].norm == "bottom" || opWords[ps.toks[m.start-2].low] != "") {
			continue
		}
		q.Filters = append(q.Filters, Filter{Col: c.Name, Op: "==", Value: t.low, Kind: "num"})
		used[m.start], used[m.start-1] = true, true
		// "4 or 6 cylinders", "3, 4 or 5 bedrooms": the values before, joined to this one (the
		// commas are not tokens)
		joined, first := false, m.start-1
		var more []int
		for k := m.start - 2; k >= 0 && !used[k]; k-- {
			t := ps.toks[k]
			if (t.low == "or" || t.low == "and") && !joined {
				joined = true
			} else if joined && codeValue(c, t) {
				more, first = append(more, k), k
			} else {
				break
			}
		}
		if first > 0 && (ps.toks[first-1].norm == "between" || ps.toks[first-1].low == "from") {
			more = nil // "between 4 and 6 cylinders" is a range
		}
		for _, k := range more {
			q.Filters = append(q.Filters, Filter{Col: c.Name, Op: "==", Value: ps.toks[k].low, Kind: "num"})
			used[k] = true
		}
	}
}

// valueFirstFilters reads a condition typed before its column: "more than 5 mm of rain",
// "over 1,000 in revenue".
func valueFirstFilters(q *Query, ps *parsed, ix *colIndex, used []bool) {
	for i := 0; i+1 < len(ps.toks); i++ {
		op, val := opWords[ps.toks[i].low], ps.toks[i+1]
		if op == "" || !val.num || used[i+1] {
			continue
		}
		for _, m := range ps.mentions {
			cols := q.columnsOf(m.cols)
			if m.start <= i+1 || m.start > i+4 || len(cols) != 1 || used[m.start] || ix.column(cols[0]).Kind != "num" {
				continue
			}
			q.Filters = append(q.Filters, Filter{Col: ix.column(cols[0]).Name, Op: op, Value: cleanNumber(val.low), Kind: "num"})
			used[m.start], used[i+1] = true, true
			break
		}
	}
}

// cleanNumber drops thousands separators and a percent sign from a typed number.
func cleanNumber(s string) string {
	s = strings.TrimSuffix(s, "%")
	if strings.Count(s, ",") > 0 && strings.Count(s, ".") <= 1 {
		s = strings.ReplaceAll(s, ",", "")
	}
	return s
}

// valueFilters turns named category values into equality (or exclusion) filters.
func valueFilters(q *Query, ps *parsed, ix *colIndex) {
	byCol := map[string]*Filter{}
	for _, v := range ps.values {
		if v.col.frame != q.Frame && v.col.frame != q.Via {
			continue
		}
		name := ix.column(v.col).Name
		neg := v.at > 0 && negates(ps.toks[v.at-1]) || v.at > 1 && negates(ps.toks[v.at-2])
		if f, ok := byCol[name]; ok && !neg {
			if !slices.Contains(f.Values, v.value) {
				f.Op, f.Values = "in", append(f.Values, v.value)
			}
			continue
		}
		op := "=="
		if neg {
			op = "!="
		}
		kind := "cat"
		if ix.column(v.col).Kind == "list" {
			kind = "list" // an item of the cells' lists: membership, not equality
		}
		q.Filters = append(q.Filters, Filter{Col: name, Op: op, Value: v.value, Values: []string{v.value}, Kind: kind})
		byCol[name] = &q.Filters[len(q.Filters)-1]
	}
}

// negates reports whether a word excludes the value after it: "not West", "excluding the West".
func negates(t token) bool {
	return t.norm == "not" || t.low == "exclude" || t.low == "excluding" || t.low == "no"
}

// dateFilters reads "after 2010", "since 2012-06-01", "before 2020", "in 2023", "between
// 2009 and 2011" against the frame's date column.
func dateFilters(q *Query, ps *parsed, f *Frame, used []bool) {
	col := q.DateCol
	if col == "" {
		col = dateColumn(f)
	}
	if col == "" {
		return
	}
	monthFilters(q, ps, col)
	bareYears(q, ps, col, used)
	for i, t := range ps.toks {
		if i+1 >= len(ps.toks) || !isDateLiteral(ps.toks[i+1].low) || i > 0 && language.MonthOf(ps.toks[i-1].low) > 0 {
			continue
		}
		v := ps.toks[i+1].low
		switch t.norm {
		case "after":
			q.Filters = append(q.Filters, dateFilter(col, ">", v, true))
		case "since":
			q.Filters = append(q.Filters, dateFilter(col, ">=", v, false))
		case "before":
			q.Filters = append(q.Filters, dateFilter(col, "<", v, false))
		case "in", "year":
			if len(v) == 4 {
				q.Filters = append(q.Filters, Filter{Col: col, Op: "year", Value: v, Kind: "date"})
			}
		case "between":
			if i+3 < len(ps.toks) && isDateLiteral(ps.toks[i+3].low) {
				q.Filters = append(q.Filters, dateFilter(col, ">=", v, false), dateFilter(col, "<=", ps.toks[i+3].low, true))
			}
		}
	}
}

// dateFilter compares with a date; a bare year after "after" or as an upper bound means the
// whole year, so "after 2010" starts in 2011.
func dateFilter(col, op, v string, endOfYear bool) Filter {
	if len(v) == 4 && endOfYear {
		v += "-12-31"
	}
	return Filter{Col: col, Op: op, Value: v, Kind: "date"}
}

func isDateLiteral(s string) bool {
	if len(s) == 4 {
		y, err := strconv.Atoi(s)
		return err == nil && y >= 1900 && y <= 2100
	}
	return len(s) >= 7 && len(s) <= 10 && s[4] == '-' && isNumber(strings.ReplaceAll(s, "-", ""))
}

// ageFilters reads "older than 70" and "younger than 30" against a column named like age.
func ageFilters(q *Query, ps *parsed, f *Frame) {
	age := ""
	for _, c := range f.Columns {
		if c.Kind == "num" && strings.Contains(strings.ToLower(c.Name), "age") {
			age = c.Name
		}
	}
	for i, t := range ps.toks {
		op := map[string]string{"older": ">", "younger": "<"}[t.low]
		if op == "" || age == "" {
			continue
		}
		for j := i + 1; j < len(ps.toks) && j <= i+2; j++ {
			if ps.toks[j].num {
				q.Filters = append(q.Filters, Filter{Col: age, Op: op, Value: cleanNumber(ps.toks[j].low), Kind: "num"})
				break
			}
		}
	}
}

// monthFilters reads "in March 2024", "since June 2012", "before Jan 2020", and "last year" or
// "latest month", which mean the latest in the data (the files are historical).
func monthFilters(q *Query, ps *parsed, col string) {
	for i, t := range ps.toks {
		if i+1 < len(ps.toks) && (t.low == "last" || t.low == "latest" || t.low == "this" || t.low == "recent") {
			if p := map[string]string{"year": "Y", "month": "M"}[ps.toks[i+1].norm]; p != "" {
				q.Filters = append(q.Filters, Filter{Col: col, Op: "latest", Value: p, Kind: "date"})
			}
		}
		m := language.MonthOf(t.low)
		if m == 0 || i+1 >= len(ps.toks) || len(ps.toks[i+1].low) != 4 || !isDateLiteral(ps.toks[i+1].low) {
			continue
		}
		ym := fmt.Sprintf("%s-%02d", ps.toks[i+1].low, m)
		prev := ""
		if i > 0 {
			prev = ps.toks[i-1].norm
		}
		switch prev {
		case "since":
			q.Filters = append(q.Filters, Filter{Col: col, Op: ">=", Value: ym + "-01", Kind: "date"})
		case "before":
			q.Filters = append(q.Filters, Filter{Col: col, Op: "<", Value: ym + "-01", Kind: "date"})
		case "after":
			q.Filters = append(q.Filters, Filter{Col: col, Op: ">=", Value: nextMonth(ym), Kind: "date"})
		default:
			q.Filters = append(q.Filters, Filter{Col: col, Op: "month", Value: ym, Kind: "date"})
		}
	}
}

// yearLead lists the words after which a bare year is a filter: "what about 2024", "for 2023".
var yearLead = setOf("about", "for", "of", "and", "only", "just", "from", "to")

// bareYears reads a year typed without "in": "what about 2024?".
func bareYears(q *Query, ps *parsed, col string, used []bool) {
	for i, t := range ps.toks {
		if !t.num || len(t.low) != 4 || !isDateLiteral(t.low) || used[i] || i > 0 && !yearLead[ps.toks[i-1].low] {
			continue
		}
		if i > 0 && (ps.toks[i-1].low == "from" || ps.toks[i-1].low == "to") {
			continue // "from 2010 to 2012" is read by dateFilters
		}
		if i > 2 && ps.toks[i-1].low == "and" && ps.toks[i-3].norm == "between" {
			continue // "between 1970 and 2011": dateFilters reads the span
		}
		q.Filters = append(q.Filters, Filter{Col: col, Op: "year", Value: t.low, Kind: "date"})
	}
}

// nextMonth returns the first day of the month after ym ("2024-03" -> "2024-04-01").
func nextMonth(ym string) string {
	y, _ := strconv.Atoi(ym[:4])
	m, _ := strconv.Atoi(ym[5:])
	if m == 12 {
		y, m = y+1, 0
	}
	return fmt.Sprintf("%d-%02d-01", y, m+1)
}
