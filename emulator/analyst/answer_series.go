package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

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

func linesSentence(m marker) string {
	var parts []string
	for _, it := range m.list("items") {
		r, _ := it.(map[string]any)
		parts = append(parts, fmt.Sprintf("**%s** went from %s (%s) to %s (%s), peaking at %s %s", fmtLabel(r["name"]), fmtAny(r["first"]), fmtLabel(r["first_date"]),
			fmtAny(r["last"]), fmtLabel(r["last_date"]), fmtAny(r["max"]), atTime(r["max_date"])))
	}
	return strings.Join(parts, "; ") + "."
}

func returnsSentence(m marker) string {
	num := func(k string) float64 { v, _ := m.num(k); return v }
	return fmt.Sprintf("Returns of `%s` from one row to the next (pct_change, %s steps): mean **%s**, standard deviation (volatility) %s; best %s on %s, worst %s on %s; compounded over the whole period **%s**.",
		m.str("col"), m.str("n"), pctPlain(num("mean"), 3), pctPlain(num("std"), 3), pct(num("best")), fmtLabel(m["best_date"]),
		pct(num("worst")), fmtLabel(m["worst_date"]), pct(num("total")))
}

// pctPlain writes a percentage with the given decimals and no sign.
func pctPlain(v float64, decimals int) string { return strconv.FormatFloat(v, 'f', decimals, 64) + "%" }
