package analyst

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
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
	case "stat":
		return fmt.Sprintf("The %s of `%s` is **%s** (over %s values).", aggWord[m.str("agg")], m.str("col"), statValue(m), m.str("n"))
	case "group":
		return groupSentence(m)
	case "which":
		return whichSentence(m)
	case "answer":
		return answerSentence(m)
	case "peak":
		return peakSentence(m)
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
	return fmt.Sprintf("`%s` has %s distinct values over %s rows. Most common: %s.", m.str("col"), m.str("unique"), m.str("total"), pairs(m.list("items"), 10))
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
	what := aggWord[m.str("agg")] + " of `" + m.str("col") + "`"
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

func peakSentence(m marker) string {
	word := "highest"
	if m.str("which") == "min" {
		word = "lowest"
	}
	s := fmt.Sprintf("`%s` was %s on **%s**, at **%s**", m.str("col"), word, fmtLabel(m["date"]), m.str("value"))
	if row, _ := m["row"].(map[string]any); len(row) > 0 {
		var parts []string
		for _, k := range sortedKeys(row) {
			parts = append(parts, fmt.Sprintf("%s %s", k, fmtFor(k, row[k])))
		}
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s + "."
}

func peaksSentence(m marker) string {
	var parts []string
	for _, it := range m.list("items") {
		if r, _ := it.([]any); len(r) == 3 {
			parts = append(parts, fmt.Sprintf("%s on %s at %s", fmtLabel(r[0]), fmtLabel(r[1]), fmtAny(r[2])))
		}
	}
	return fmt.Sprintf("The %s of `%s` per `%s`: %s.", map[string]string{"max": "peak", "min": "low"}[m.str("which")], m.str("col"), m.str("by"), strings.Join(parts, "; "))
}

// seriesSentence answers with the period asked for (the highest, or the lowest), then quotes
// a short series whole and points to the table above for a long one.
func seriesSentence(m marker) string {
	items := m.list("items")
	var s string
	if lo := lowest(items); m["lowest"] == true && lo != nil {
		s = fmt.Sprintf("The lowest %s was **%s** with %s.", m.str("period"), fmtLabel(lo[0]), fmtAny(lo[1]))
	} else if hi := highest(items); hi != nil {
		s = fmt.Sprintf("The highest %s was %s with %s.", m.str("period"), fmtLabel(hi[0]), fmtAny(hi[1]))
	}
	switch {
	case len(items) > 0 && len(items) <= maxPairs:
		return strings.TrimSpace(s + " " + m.str("title") + ": " + pairs(items, maxPairs) + ".")
	case len(items) > 0:
		return s + fmt.Sprintf(" %s: %d %ss, in the table above.", m.str("title"), len(items), m.str("period"))
	}
	return strings.TrimSpace(s + " " + m.str("title") + ": in the table above.")
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

// growthSentence answers a growth question in a sentence or two: a ranking names the largest
// change first, then the runners-up and the smallest in a few words each; the table above has
// every series' first and last values.
func growthSentence(m marker) string {
	items := m.list("items")
	if len(items) == 0 {
		return "No series had two points to compare."
	}
	if m["ranked"] != true {
		return unrankedGrowth(m, items)
	}
	verb := "grew the most"
	if r, _ := items[0].(map[string]any); numOf(r["pct"]) <= 0 {
		verb = "fell the least" // every series fell: the first of them did not grow
	}
	s := growthOf(items[0], verb) + "."
	if rest := items[1:]; len(rest) > 0 {
		s += " " + rankedRest(rest)
	}
	return s
}

// unrankedGrowth says the change of one series in a sentence, of a few as a short list.
func unrankedGrowth(m marker, items []any) string {
	if len(items) == 1 {
		return "Growth of `" + m.str("col") + "`: " + growthOf(items[0], "went") + "."
	}
	var b strings.Builder
	b.WriteString("Growth of `" + m.str("col") + "`, from the first to the last point:\n")
	for i, it := range items {
		if i == maxListed {
			fmt.Fprintf(&b, "- and %d more, in the table above\n", len(items)-maxListed)
			break
		}
		b.WriteString("- " + growthOf(it, "went") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// maxListed bounds the items of a short list in a reply.
const maxListed = 8

// growthOf writes one series' change: "**Agriculture** grew the most: from 55 (1970) to
// 172.40 (2011), +213.5%, about +2.8% a year compounded".
func growthOf(it any, verb string) string {
	r, _ := it.(map[string]any)
	sep := " "
	if verb != "went" {
		sep = ": "
	}
	s := fmt.Sprintf("**%s** %s%sfrom %s (%s) to %s (%s)", fmtLabel(r["name"]), verb, sep, fmtAny(r["first"]), fmtLabel(r["first_date"]), fmtAny(r["last"]), fmtLabel(r["last_date"]))
	if p, ok := r["pct"].(float64); ok {
		s += ", " + pct(p)
	}
	if c, ok := r["cagr"].(float64); ok {
		s += fmt.Sprintf(", about %s a year compounded", pct(c))
	}
	if sl, ok := r["slope_per_year"].(float64); ok {
		dir := "upward"
		if sl < 0 {
			dir = "downward"
		}
		s += fmt.Sprintf("; the linear trend is %s at %s per year", dir, fmtNum(sl))
	}
	return s
}

// rankedRest names the runners-up of a ranking and its last, by their change alone.
func rankedRest(rest []any) string {
	next := rest[:min(len(rest), 2)]
	s := "Next: " + changeList(next) + "."
	if len(rest) > len(next) {
		s += " The smallest change: " + changeList(rest[len(rest)-1:]) + "."
	}
	if len(rest) > 3 {
		s += " The table above has all of them."
	}
	return s
}

// changeList writes "Education (+150.7%), Computer Science (+74.9%)".
func changeList(items []any) string {
	var parts []string
	for _, it := range items {
		r, _ := it.(map[string]any)
		part := "**" + fmtLabel(r["name"]) + "**"
		if p, ok := r["pct"].(float64); ok {
			part += " (" + pct(p) + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, ", ")
}

func corrSentence(m marker) string {
	r, _ := m.num("r")
	return fmt.Sprintf("The "+methodName(m.str("method"))+" correlation between `%s` and `%s` is **%s** over %s rows — %s.", m.str("a"), m.str("b"), fmtCorr(r), m.str("n"), corrWords(r))
}

func fmtCorr(r float64) string { return fmt.Sprintf("%.3f", r) }

// corrWords names the strength of a correlation.
func corrWords(r float64) string {
	a := math.Abs(r)
	dir := "positive"
	if r < 0 {
		dir = "negative"
	}
	switch {
	case a >= 0.7:
		return "a strong " + dir + " relationship"
	case a >= 0.4:
		return "a moderate " + dir + " relationship"
	case a >= 0.2:
		return "a weak " + dir + " relationship"
	}
	return "little or no linear relationship"
}

func corrMatrixSentence(m marker) string {
	var parts []string
	for _, it := range m.list("strongest") {
		if r, _ := it.([]any); len(r) == 3 {
			parts = append(parts, fmt.Sprintf("`%s`–`%s` %s", fmtAny(r[0]), fmtAny(r[1]), fmtCorr(numOf(r[2]))))
		}
	}
	return fmt.Sprintf("Correlations among %d numeric columns. Strongest pairs: %s.", len(m.list("cols")), strings.Join(parts, ", "))
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

func linesSentence(m marker) string {
	var parts []string
	for _, it := range m.list("items") {
		r, _ := it.(map[string]any)
		parts = append(parts, fmt.Sprintf("**%s** went from %s (%s) to %s (%s), peaking at %s %s", fmtLabel(r["name"]), fmtAny(r["first"]), fmtLabel(r["first_date"]),
			fmtAny(r["last"]), fmtLabel(r["last_date"]), fmtAny(r["max"]), atTime(r["max_date"])))
	}
	return strings.Join(parts, "; ") + "."
}

func scatterSentence(m marker) string {
	r, _ := m.num("r")
	s := fmt.Sprintf("`%s` against `%s` over %s rows: correlation %s (%s).", m.str("y"), m.str("x"), m.str("n"), fmtCorr(r), corrWords(r))
	if m["trend"] == true {
		s += fmt.Sprintf(" Trend line: y = %s·x + %s.", m.str("slope"), m.str("intercept"))
	}
	return s
}

func returnsSentence(m marker) string {
	num := func(k string) float64 { v, _ := m.num(k); return v }
	return fmt.Sprintf("Returns of `%s` from one row to the next (pct_change, %s steps): mean **%s**, standard deviation (volatility) %s; best %s on %s, worst %s on %s; compounded over the whole period **%s**.",
		m.str("col"), m.str("n"), pctPlain(num("mean"), 3), pctPlain(num("std"), 3), pct(num("best")), fmtLabel(m["best_date"]),
		pct(num("worst")), fmtLabel(m["worst_date"]), pct(num("total")))
}

// pctPlain writes a percentage with the given decimals and no sign.
func pctPlain(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) + "%" }
