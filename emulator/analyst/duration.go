package analyst

import (
	"strings"
)

// intentDuration asks how long something lasted: the days between two date columns.
const intentDuration intent = "duration"

// durationSpan picks the start and end of a duration among a frame's date columns: the ones
// named like a start and an end, else the first two.
func durationSpan(f *Frame) (start, end string) {
	var dates []string
	for _, c := range f.Columns {
		if c.Kind == "date" {
			dates = append(dates, c.Name)
		}
	}
	if len(dates) < 2 {
		return "", ""
	}
	start, end = dates[0], dates[1]
	support := false
	for _, d := range dates {
		support = support || containsAny(strings.ToLower(d), "life", "eol", "support")
	}
	for _, d := range dates {
		low := strings.ToLower(d)
		switch {
		case support && strings.Contains(low, "release"):
			start = d // a version is supported from its release to its end of life
		case containsAny(low, "start", "begin", "from", "open", "hire", "created", "signed") && !(support && start != dates[0]):
			start = d
		case containsAny(low, "end", "finish", "close", "until", "expir", "due", "resolved"):
			end = d
		}
	}
	return start, end
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// duration writes the days from start to end per row, then the statistic asked for: per
// group, the longest or shortest rows, or the spread over all rows.
func (g *gen) duration() {
	g.prelude()
	start, end := durationSpan(g.f)
	g.line("df = df.assign(duration_days=(%s - %s).dt.days).dropna(subset=[\"duration_days\"])", col(end), col(start))
	switch {
	case len(g.q.By) > 0:
		agg := g.q.Agg
		if agg == "" || agg == "count" {
			agg = "mean"
		}
		g.line("result = df.groupby(%s)[\"duration_days\"].%s().sort_values(ascending=False)", py(g.q.By[0]), agg)
		g.line("print(result.round(1).to_string())")
		g.line("_emit(\"group\", col=\"duration_days\", agg=%s, by=%s, items=[[k, v] for k, v in result.round(2).items()], groups=len(result))", py(agg), py(g.q.By[0]))
	case g.q.Agg == "max" || g.q.Agg == "min" || g.q.N > 0:
		fn, word := "nlargest", "Longest"
		if g.q.Agg == "min" || g.q.Bottom && g.q.Agg != "max" {
			fn, word = "nsmallest", "Shortest"
		}
		n := max(g.q.N, 1)
		g.line("result = df.%s(%d, \"duration_days\")", fn, n)
		g.line("print(result.to_string(index=False))")
		g.line("_emit(\"table\", title=%s, total=len(df), key=\"duration_days\", **_rows(result, %d))", py(word+" by duration in days, from "+start+" to "+end), min(n, 30))
	default:
		g.line("s = df[\"duration_days\"]")
		g.line("result = s.describe()")
		g.line("print(result.round(1).to_string())")
		g.line("_emit(\"duration\", start=%s, end=%s, n=len(s), mean=s.mean(), median=s.median(), min=s.min(), max=s.max())", py(start), py(end))
	}
	g.exportResult("duration_days")
}

// readDuration notes a question about how long rows lasted, when the frame has two dates:
// "how long do contracts last", "average contract length", "the 3 shortest contracts".
func readDuration(q *Query, ps *parsed, f *Frame) {
	if s, _ := durationSpan(f); s == "" {
		return
	}
	q.lasting = ps.has("duration") || ps.hasWord("long") || ps.hasWord("length")
	for _, w := range []string{"longest", "shortest"} {
		i := ps.wordAt(w)
		if !q.lasting || i < 0 {
			continue
		}
		q.Agg = map[string]string{"longest": "max", "shortest": "min"}[w]
		if i > 0 && ps.toks[i-1].num {
			q.N = ps.numberBefore(i)
		}
	}
}
