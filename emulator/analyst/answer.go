package analyst

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// resultReport is the kind of report (wb_report) an analysis cell makes of each result.
const resultReport = "result"

// marker is one result a cell reported; every number in a reply is read from one.
type marker map[string]any

func (m marker) str(k string) string {
	switch v := m[k].(type) {
	case string:
		return v
	case nil:
		return ""
	case float64:
		return fmtNum(v)
	default:
		return fmt.Sprint(v)
	}
}

func (m marker) num(k string) (float64, bool) {
	v, ok := m[k].(float64)
	return v, ok
}

func (m marker) list(k string) []any {
	l, _ := m[k].([]any)
	return l
}

// parseMarkers reads the results the cells reported, in order. Only reports count: a line the
// code printed is output, whatever it looks like.
func parseMarkers(cells []Cell) []marker {
	var out []marker
	for _, c := range cells {
		for _, r := range c.Reports {
			var m marker
			if r.Kind == resultReport && json.Unmarshal(r.Body, &m) == nil && m != nil {
				out = append(out, m)
			}
		}
	}
	return out
}

// writeAnswer turns the cells' markers into the reply: the answer first, then how it was
// reached (the columns read for the words asked, the rows kept, the files joined), then how
// the data were prepared. A reader who stops after the first line has the answer.
func writeAnswer(pl *plan, cells []Cell) string {
	var b strings.Builder
	ms := parseMarkers(cells)
	writePara(&b, pl.Lead)
	var answer, context []string
	for i, m := range ms {
		switch {
		case isPrepKind(m.str("kind")):
			continue // said after the answer, by refinedTail
		case redundantRows(ms, i):
			continue
		case isContextKind(m.str("kind")):
			context = append(context, sentence(m))
		default:
			answer = append(answer, sentence(m))
		}
	}
	if lead := refinedLead(&pl.Query, ms); lead != "" {
		// the rounded values lead, except after a Yes or a No, which answers first
		at := 0
		if len(answer) > 0 && (strings.HasPrefix(answer[0], "**Yes") || strings.HasPrefix(answer[0], "**No")) {
			at = 1
		}
		answer = slices.Insert(answer, at, lead)
	}
	for _, s := range answer {
		writePara(&b, s)
	}
	for _, c := range cells {
		if c.Error != nil && strings.HasPrefix(c.Error.Value, noRowsPrefix) {
			fmt.Fprintf(&b, "No rows match %s, so there is nothing to compute. Loosen a condition or check the values with an overview.\n\n", strings.TrimPrefix(c.Error.Value, noRowsPrefix))
		} else if c.Error != nil {
			fmt.Fprintf(&b, "The code failed with %s: %s. Try naming the column exactly as in the file, or ask for an overview first.\n\n", c.Error.Name, clip(firstLine(c.Error.Value), 300))
		}
	}
	writePara(&b, strings.Join(append(slices.Clone(pl.Query.Notes), context...), " "))
	b.WriteString(refinedTail(&pl.Query, ms))
	if b.Len() == 0 {
		b.WriteString("The code ran but printed no result I could read; its output is above.")
	}
	return strings.TrimRight(b.String(), "\n")
}

// writePara appends a paragraph of the reply, if it says anything.
func writePara(b *strings.Builder, s string) {
	if s = strings.TrimSpace(s); s != "" {
		b.WriteString(s + "\n\n")
	}
}

// isContextKind reports whether a marker says how the answer was reached rather than what it
// is: such sentences follow the answer instead of standing before it.
func isContextKind(kind string) bool { return kind == "rows" || kind == "merged" }

// redundantRows reports whether ms[i] counts rows that the reply says otherwise: a later table
// or count of exactly those rows says their count again, and none left is said as "no rows
// match".
func redundantRows(ms []marker, i int) bool {
	if ms[i].str("kind") != "rows" {
		return false
	}
	if n, ok := ms[i].num("n"); ok && n == 0 {
		return true // the reply says no rows match, in words
	}
	for _, m := range ms[i+1:] {
		if (m.str("kind") == "table" || m.str("kind") == "size") && m.str("where") != "" {
			return true // "**3 rows** of the 4 … match: …" says them already
		}
	}
	return false
}

// clip shortens s to at most n bytes, at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// fmtNum writes a number the way a person reads it: thousands separated, two decimals for
// ordinary magnitudes and significant digits for small ones.
func fmtNum(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "n/a"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return fmtInt(int64(v))
	case math.Abs(v) >= 1e15:
		return strconv.FormatFloat(v, 'g', -1, 64) // as Python prints it: 1.2e+26
	case math.Abs(v) >= 1:
		// Digits grouped as printed, never through an int64, which tops out at 9.2e18
		// (1.2e26 was once read as 9,223,372,036,854,775,807).
		whole, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', 2, 64), ".")
		return groupDigits(whole) + "." + frac
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

// fmtInt groups thousands with commas.
func fmtInt[T int | int64](n T) string {
	return groupDigits(strconv.FormatInt(int64(n), 10))
}

// groupDigits groups the thousands of a whole number written in digits, with its sign.
func groupDigits(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// fmtAny formats a marker value: numbers as fmtNum, dates and strings as they are.
func fmtAny(v any) string {
	switch x := v.(type) {
	case float64:
		return fmtNum(x)
	case nil:
		return "—"
	case bool:
		return strconv.FormatBool(x)
	case string:
		return strings.TrimSuffix(x, " 00:00:00")
	default:
		return fmt.Sprint(x)
	}
}

// pct formats a percentage with its sign.
func pct(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64) + "%"
	if v > 0 {
		return "+" + s
	}
	return s
}

// mdTable renders the columns and rows of a marker as a Markdown table.
func mdTable(m marker) string {
	cols, rows := m.list("columns"), m.list("rows")
	if len(cols) == 0 || len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("|")
	for _, c := range cols {
		b.WriteString(" " + mdCell(fmtAny(c)) + " |")
	}
	b.WriteString("\n|" + strings.Repeat(" --- |", len(cols)) + "\n")
	for _, r := range rows {
		b.WriteString("|")
		cells, _ := r.([]any)
		for i, c := range cells {
			name := ""
			if i < len(cols) {
				name, _ = cols[i].(string)
			}
			b.WriteString(" " + mdCell(fmtFor(name, c)) + " |")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// fileLink cites a file written in /mnt/data so that the app can link it.
func fileLink(name string) string { return "[" + name + "](sandbox:/mnt/data/" + name + ")" }
