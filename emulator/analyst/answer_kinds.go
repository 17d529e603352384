package analyst

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// sentence writes the prose for one marker; numbers come from the marker only.
func sentence(m marker) string {
	if s, ok := statSentence(m); ok {
		return s
	}
	switch m.str("kind") {
	case "prep", "derived":
		return prepSentence(m)
	case "merged":
		return fmt.Sprintf("Joined %s with %s on `%s` to reach the columns asked for.", m.str("left"), m.str("right"), m.str("on"))
	case "rows":
		return fmt.Sprintf("Using the %s of %s rows where %s.", m.str("n"), m.str("of"), m.str("where"))
	case "overview":
		return overviewSentence(m)
	case "docfind":
		return docFindSentence(m)
	case "doclines":
		return docLinesSentence(m)
	case "picture":
		return "" // the picture is shown above, named by its file
	case "columns":
		return columnsSentence(m)
	case "size":
		if w := m.str("where"); w != "" {
			return fmt.Sprintf("**%s rows** of the %s in %s match: %s.", m.str("rows"), m.str("of"), m.str("key"), w)
		}
		if m["prepared"] == true {
			return fmt.Sprintf("**%s rows** of the %s in %s remain after the preparation said below (%s columns).", m.str("rows"), m.str("of"), m.str("key"), m.str("cols"))
		}
		return fmt.Sprintf("%s has **%s rows** and **%s columns**.", m.str("key"), m.str("rows"), m.str("cols"))
	case "table":
		return tableSentence(m)
	case "missing":
		return missingSentence(m)
	case "describe":
		return describeSentence(m)
	case "counts":
		return countsSentence(m)
	case "unique":
		return fmt.Sprintf("`%s` has **%s distinct values**: %s.", m.str("col"), m.str("n"), joinAny(m.list("values"), 30))
	case "share":
		p, _ := m.num("pct")
		return fmt.Sprintf("Rows where %s make up **%s** of the total `%s`: %s of %s.", m.str("where"), strings.TrimPrefix(pct(p), "+"), m.str("col"), m.str("part"), m.str("total"))
	case "versus":
		return versusSentence(m)
	case "corrby":
		return corrBySentence(m)
	case "stat":
		return fmt.Sprintf("The %s of `%s` is **%s** (over %s values).", aggName(m.str("agg")), m.str("col"), statValue(m), m.str("n"))
	case "group":
		return groupSentence(m)
	case "which":
		return whichSentence(m)
	case "answer":
		return answerSentence(m)
	case "peak":
		return peakSentence(m)
	case "corrwith":
		return corrWithSentence(m)
	case "peaks":
		return peaksSentence(m)
	case "series":
		return seriesSentence(m)
	case "growth":
		return growthSentence(m)
	case "duration":
		return fmt.Sprintf("From `%s` to `%s` over %s rows: on average **%s days** (median %s), the shortest %s days, the longest %s days.",
			m.str("start"), m.str("end"), m.str("n"), m.str("mean"), m.str("median"), m.str("min"), m.str("max"))
	case "returns":
		return returnsSentence(m)
	case "corr":
		return corrSentence(m)
	case "corrmatrix":
		return corrMatrixSentence(m)
	case "outliers":
		return outliersSentence(m)
	case "outliercounts":
		return outlierCountsSentence(m)
	case "lines":
		return linesSentence(m)
	case "dist":
		return fmt.Sprintf("`%s` over %s values: mean **%s**, median **%s**, standard deviation %s, range %s to %s.",
			m.str("col"), m.str("n"), m.str("mean"), m.str("median"), m.str("std"), m.str("min"), m.str("max"))
	case "medians":
		return "Medians: " + pairs(m.list("items"), 12) + "."
	case "scatter":
		return scatterSentence(m)
	case "join":
		return fmt.Sprintf("Joined %s with %s on `%s`: %s rows and %s columns; %s of the %s rows of %s found a match.",
			m.str("left"), m.str("right"), m.str("on"), m.str("rows"), m.str("cols"), m.str("matched"), m.str("of"), m.str("left"))
	case "nochart":
		return "No chart: after the conditions and missing values nothing was left to draw, so none was saved. Loosen a condition, or ask for an overview to see what the data holds."
	case "thinned":
		// The chart's own caption, in the answer too: the reader should not
		// take 2,000 drawn points for the data.
		return "The chart: " + m.str("note") + " The numbers in this answer come from every row."
	case "chart":
		return fmt.Sprintf("Chart: %s — saved as %s.", m.str("title"), fileLink(m.str("file")))
	case "file":
		return fmt.Sprintf("Saved %s rows to %s.", m.str("rows"), fileLink(m.str("file")))
	}
	return ""
}

func overviewSentence(m marker) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** has %s rows and %s columns, with %s missing cells in all.", m.str("key"), m.str("rows"), m.str("cols"), m.str("missing"))
	if kinds := m.list("kinds"); len(kinds) > 0 {
		b.WriteString("\n\nColumns: ")
		b.WriteString(typedList(kinds))
		b.WriteString(".")
	}
	if dates, _ := m["dates"].(map[string]any); len(dates) > 0 {
		for _, c := range sortedKeys(dates) {
			if r, _ := dates[c].([]any); len(r) == 2 {
				fmt.Fprintf(&b, " `%s` runs from %s to %s.", c, fmtAny(r[0]), fmtAny(r[1]))
			}
		}
	}
	if nums, _ := m["numeric"].(map[string]any); len(nums) > 0 {
		b.WriteString("\n\n")
		for _, c := range sortedKeys(nums) {
			s, _ := nums[c].(map[string]any)
			fmt.Fprintf(&b, "- `%s`: mean %s, min %s, max %s\n", c, fmtAny(s["mean"]), fmtAny(s["min"]), fmtAny(s["max"]))
		}
		if n, ok := m.num("numeric_n"); ok && int(n) > len(nums) {
			fmt.Fprintf(&b, "- and %d more number columns, in the table above\n", int(n)-len(nums))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// typedList writes [[name, dtype], ...] as "`name` (dtype), ...".
func typedList(cols []any) string {
	var parts []string
	for _, c := range cols {
		if pair, _ := c.([]any); len(pair) == 2 {
			parts = append(parts, fmt.Sprintf("`%s` (%s)", fmtAny(pair[0]), fmtAny(pair[1])))
		}
	}
	return strings.Join(parts, ", ")
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func columnsSentence(m marker) string {
	cols := m.list("columns")
	return fmt.Sprintf("%s has %d columns: %s.", m.str("key"), len(cols), typedList(cols))
}

// tableSentence says what a table of rows holds and points to it: the step above shows the
// rows themselves, as a table to sort and download, so the reply does not repeat them. A
// ranking quotes the values it ranks by, the few numbers that answer it.
func tableSentence(m marker) string {
	if where := m.str("where"); where != "" {
		if names := namedValues(m, maxQuoted); names != "" {
			them := map[bool]string{true: "it", false: "them"}[m.str("total") == "1"]
			return fmt.Sprintf("%s: the `%s` of the **%s of %s rows** where %s; the table above lists %s.",
				names, m.str("key"), m.str("total"), m.str("of"), where, them)
		}
		if total, of := numOf(m["total"]), numOf(m["of"]); m["percent"] == true && of > 0 {
			return fmt.Sprintf("**%s%%** of the rows (%s of %s) have %s; the table above lists them.", fmtNum(100*total/of), m.str("total"), m.str("of"), where)
		}
		return fmt.Sprintf("**%s of %s rows** have %s; the table above lists them.", m.str("total"), m.str("of"), where)
	}
	s := fmt.Sprintf("%s, of %s rows", m.str("title"), m.str("total"))
	if vals := keyValues(m, maxQuoted); vals != "" {
		return s + ": " + vals + ". Every column of them is in the table above."
	}
	return s + ", are in the table above."
}

// maxPairs bounds the labelled values a sentence lists in one go ("North (1,200), …"): a
// short series or a few groups are the answer itself; a longer one is left to the table.
const maxPairs = 12

// maxQuoted bounds the values of a result a sentence quotes; the table above has the rest.
const maxQuoted = 5

// keyValues quotes the values of the column a table is ranked by, each with its row's label
// (its first text or date value), or returns "" when the table names no such column.
func keyValues(m marker, max int) string {
	key, cols := m.str("key"), m.list("columns")
	at := slices.Index(cols, any(key))
	if key == "" || at < 0 {
		return ""
	}
	var parts []string
	for i, r := range m.list("rows") {
		cells, _ := r.([]any)
		if at >= len(cells) {
			continue
		}
		if i == max {
			parts = append(parts, "…")
			break
		}
		part := fmtFor(key, cells[at])
		if label := rowLabel(cols, cells, at); label != "" {
			part += " (" + label + ")"
		}
		parts = append(parts, part)
	}
	return "`" + key + "` " + strings.Join(parts, ", ")
}

// namedValues writes the distinct values of the key column of a few matching rows, in bold,
// the answer to a question asking for something by name; "" when there is no key, or more
// rows matched than max (the table answers then).
func namedValues(m marker, max int) string {
	key, cols := m.str("key"), m.list("columns")
	at := slices.Index(cols, any(key))
	total, _ := m.num("total")
	if key == "" || at < 0 || total > float64(max) || total < 1 {
		return ""
	}
	var names []string
	for _, r := range m.list("rows") {
		if cells, _ := r.([]any); at < len(cells) && cells[at] != nil {
			if v := "**" + fmtFor(key, cells[at]) + "**"; !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
	}
	return strings.Join(names, ", ")
}

// rowLabel names a row by its identifiers and names, up to two: its text and date values and
// its id columns, other than the ranked one at skip.
func rowLabel(cols, cells []any, skip int) string {
	var parts []string
	for i, c := range cells {
		name, _ := cols[min(i, len(cols)-1)].(string)
		_, text := c.(string)
		if i == skip || !text && !idName(name) {
			continue
		}
		if parts = append(parts, fmtFor(name, c)); len(parts) == 2 {
			break
		}
	}
	return strings.Join(parts, ", ")
}

func missingSentence(m marker) string {
	counts, _ := m["counts"].(map[string]any)
	if len(counts) == 0 {
		if asked := m.list("asked"); len(asked) > 0 {
			return fmt.Sprintf("**No missing values** in %s (%s rows).", quoteAny(asked), m.str("rows"))
		}
		return fmt.Sprintf("No missing values in the %s rows.", m.str("rows"))
	}
	keys := sortedKeys(counts)
	sort.SliceStable(keys, func(i, j int) bool { return counts[keys[i]].(float64) > counts[keys[j]].(float64) })
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("`%s` %s", k, fmtAny(counts[k])))
	}
	return fmt.Sprintf("**%s missing values** across %d columns (of %s rows): %s.", m.str("total"), len(keys), m.str("rows"), strings.Join(parts, ", "))
}

func describeSentence(m marker) string {
	stats, _ := m["stats"].(map[string]any)
	order := []string{"count", "mean", "std", "min", "25%", "50%", "75%", "max", "unique", "top", "freq", "first", "last"}
	var parts []string
	for _, k := range order {
		if v, ok := stats[k]; ok {
			parts = append(parts, k+" "+describeValue(m.str("col"), k, v))
		}
	}
	return fmt.Sprintf("`%s`: %s; %s missing.", m.str("col"), strings.Join(parts, ", "), m.str("missing"))
}

func countsSentence(m marker) string {
	items := m.list("items")
	if first, _ := firstItem(items); first != nil && (m.str("which") == "min" || m.str("which") == "max") {
		word := map[string]string{"min": "fewest", "max": "most"}[m.str("which")]
		return fmt.Sprintf("**%s** has the %s rows (%s). `%s` has %s distinct values over %s rows: %s.", fmtLabel(first[0]), word, fmtAny(first[1]), m.str("col"), m.str("unique"), m.str("total"), pairs(items, 10))
	}
	return fmt.Sprintf("`%s` has %s distinct values over %s rows. Most common: %s.", m.str("col"), m.str("unique"), m.str("total"), pairs(items, 10))
}

// firstItem is the first [name, value] pair of a marker's items.
func firstItem(items []any) ([]any, bool) {
	if len(items) == 0 {
		return nil, false
	}
	p, ok := items[0].([]any)
	return p, ok && len(p) == 2
}

// pairs writes [[name, value], ...] as "name (value), ...".
func pairs(items []any, max int) string {
	var parts []string
	for i, it := range items {
		if i == max {
			parts = append(parts, "…")
			break
		}
		if p, _ := it.([]any); len(p) == 2 {
			parts = append(parts, fmt.Sprintf("%s (%s)", fmtLabel(p[0]), fmtAny(p[1])))
		}
	}
	return strings.Join(parts, ", ")
}

func joinAny(items []any, max int) string {
	var parts []string
	for i, it := range items {
		if i == max {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmtAny(it))
	}
	return strings.Join(parts, ", ")
}

func groupSentence(m marker) string {
	items := m.list("items")
	what := aggName(m.str("agg")) + " of `" + m.str("col") + "`"
	if m.str("agg") == "count" {
		what = "number of rows"
	}
	s := fmt.Sprintf("The %s by `%s` (%s groups): %s.", what, m.str("by"), m.str("groups"), pairs(items, maxPairs))
	if lead := whichLead(m, items, what); lead != "" {
		return lead + " " + s // "which region …": the region first
	}
	if hi := highest(items); hi != nil && len(items) > 1 && m.str("rank") == "" {
		s += fmt.Sprintf(" Highest: **%s** with %s.", fmtLabel(hi[0]), fmtAny(hi[1]))
	}
	return s
}

// whichLead names the group a "which X" question asked for, or returns "".
func whichLead(m marker, items []any, what string) string {
	pick, word := highest(items), "highest"
	if m.str("which") == "min" {
		pick, word = lowest(items), "lowest"
	} else if m.str("which") != "max" {
		return ""
	}
	if pick == nil {
		return ""
	}
	return fmt.Sprintf("**%s** has the %s %s: **%s**.", fmtLabel(pick[0]), word, what, fmtAny(pick[1]))
}

// highest returns the [name, value] pair with the largest value, or nil.
func highest(items []any) []any {
	var hi []any
	for _, it := range items {
		if p, _ := it.([]any); len(p) == 2 && (hi == nil || numOf(p[1]) > numOf(hi[1])) {
			hi = p
		}
	}
	if hi == nil || math.IsInf(numOf(hi[1]), -1) {
		return nil
	}
	return hi
}

// lowest returns the [name, value] pair with the smallest number, or nil.
func lowest(items []any) []any {
	var lo []any
	for _, it := range items {
		if p, _ := it.([]any); len(p) == 2 && !math.IsInf(numOf(p[1]), -1) && (lo == nil || numOf(p[1]) < numOf(lo[1])) {
			lo = p
		}
	}
	return lo
}

func numOf(v any) float64 {
	f, ok := v.(float64)
	if !ok {
		return math.Inf(-1)
	}
	return f
}

func outliersSentence(m marker) string {
	return fmt.Sprintf("**%s outliers** in `%s` (of %s values) fall outside %s to %s (1.5 × IQR).", m.str("n"), m.str("col"), m.str("rows_total"), m.str("low"), m.str("high")) + outlierSpans(m)
}

// outlierSpans quotes the range of the outliers on each side, the numbers that say how far out
// they lie; the rows themselves are in the table above.
func outlierSpans(m marker) string {
	var parts []string
	for _, side := range []string{"above", "below"} {
		if span := m.list(side); len(span) == 2 {
			parts = append(parts, fmt.Sprintf("those %s run from %s to %s", side, fmtAny(span[0]), fmtAny(span[1])))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + capital(strings.Join(parts, "; ")) + "; the table above lists the rows."
}

func outlierCountsSentence(m marker) string {
	counts, _ := m["counts"].(map[string]any)
	var parts []string
	for _, k := range sortedKeys(counts) {
		parts = append(parts, fmt.Sprintf("`%s` %s", k, fmtAny(counts[k])))
	}
	return fmt.Sprintf("Outliers per column (1.5 × IQR rule, %s rows): %s.", m.str("rows"), strings.Join(parts, ", "))
}

// versusSentence says the ratio or the difference of two values' results and what it compares.
func versusSentence(m marker) string {
	what := "rows"
	if agg := m.str("agg"); agg != "count" {
		what = aggName(agg) + " of `" + m.str("col") + "`"
	}
	if m.str("op") == "-" {
		return fmt.Sprintf("The difference between the %s with `%s` %s and with %s is **%s** (%s − %s).", what, m.str("by"), m.str("a"), m.str("b"), fmtAny(m["value"]), m.str("va"), m.str("vb"))
	}
	if m["value"] == nil {
		return fmt.Sprintf("The ratio of %s %s to %s has no value: %s has a %s of 0 or none.", m.str("by"), m.str("a"), m.str("b"), m.str("b"), what)
	}
	return fmt.Sprintf("The ratio of the %s with `%s` %s to those with %s is **%s** (%s / %s).", what, m.str("by"), m.str("a"), m.str("b"), fmtAny(m["value"]), m.str("va"), m.str("vb"))
}

// corrBySentence says the correlation of two columns within each group.
func corrBySentence(m marker) string {
	var parts []string
	for _, it := range m.list("items") {
		if p, _ := it.([]any); len(p) == 4 {
			parts = append(parts, fmt.Sprintf("%s: r = **%s** (p = %s, n = %s)", fmtLabel(p[0]), fmtNum(numOf(p[1])), fmtAny(p[2]), fmtAny(p[3])))
		}
	}
	return fmt.Sprintf("The %s correlation between `%s` and `%s` within each `%s`: %s.", methodName(m.str("method")), m.str("a"), m.str("b"), m.str("by"), strings.Join(parts, "; "))
}
