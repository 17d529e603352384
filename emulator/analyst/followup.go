package analyst

import "maps"

// followWords mark a question that leans on the previous one.
var followWords = setOf("same", "instead", "now", "it", "that", "this", "those", "them", "again", "too",
	"also", "only", "just", "what", "how", "and", "but", "rather", "then", "as", "switch", "change", "redo")

// followCue reports whether a question starts like a follow-up or says "instead"/"same".
func followCue(ps *parsed) bool {
	if ps.has("same") || ps.has("instead") {
		return true
	}
	if len(ps.toks) == 0 {
		return false
	}
	first := ps.toks[0].low
	if first == "what" || first == "how" {
		return len(ps.toks) > 1 && ps.toks[1].low == "about"
	}
	if followWords[first] {
		return true
	}
	for i, t := range ps.toks {
		if backRefs[t.low] && !(i+1 < len(ps.toks) && ps.toks[i+1].low == "of") {
			return true // "that of UA" compares with a value of the question itself
		}
	}
	return false
}

// backRefs are words that point at the previous result wherever they stand: "show it as a
// pie", "can you chart that".
var backRefs = setOf("it", "that", "those", "them", "instead", "again", "too")

// historyWindow is how many of the conversation's latest messages the
// planner reads again on every call: what the last questions meant, and the
// columns they derived.
const historyWindow = 16

// recent returns the last historyWindow messages of history.
func recent(history []Message) []Message { return history[max(0, len(history)-historyWindow):] }

// resolveTurn folds the conversation's earlier questions into a context, then resolves the
// current question against it. The planner is stateless, so the previous query is rebuilt from
// the history every time; that is cheap and gives the same answer on every call.
func resolveTurn(question string, history []Message, ix *colIndex) Query {
	var prev *Query
	for _, m := range recent(history) {
		if m.Role != "user" || len(FencedBlocks(m.Text)) > 0 {
			continue
		}
		q := withContext(parseQuestion(m.Text, ix), prev)
		if q.Intent != intentHelp {
			prev = &q
		}
	}
	q := parseQuestion(question, ix)
	if prev == nil {
		q.cue = false // with nothing before it, "that" or "what about" leans on no earlier question
	}
	return withContext(q, prev)
}

// withContext merges a follow-up into the previous query; a standalone question stands alone.
func withContext(cur Query, prev *Query) Query {
	if prev == nil || !needsContext(cur, prev) {
		return cur
	}
	out := *prev
	out.Notes = cur.Notes
	out.unknown = cur.unknown // what the follow-up itself left unread; the earlier question was answered
	out.Ambiguous, out.AmbigWord = cur.Ambiguous, cur.AmbigWord
	out.cue, out.explicit = true, cur.explicit
	if cur.explicit {
		out.stat = cur.stat // a test, rule or model asked anew replaces the previous one's
	}
	if cur.Frame != prev.Frame && len(cur.Measures)+len(cur.By) > 0 {
		out.Frame, out.Measures, out.By, out.Filters, out.DateCol = cur.Frame, nil, nil, nil, ""
	} else if cur.typed && cur.Frame != prev.Frame {
		// "I meant in stocks.csv": the same question of the file named; columns it lacks
		// are dropped when the query is completed.
		out.Frame, out.Via = cur.Frame, -1
	}
	keepIntent := cur.Intent == intentFilter && len(cur.Measures) == 0 || cur.Intent == intentHead && cur.N > 0 || cur.flip
	if cur.explicit && cur.Intent != intentHelp && !keepIntent {
		out.Intent = cur.Intent
	}
	if cur.Chart != "" {
		out.Intent, out.Chart = intentChart, cur.Chart
	}
	if cur.kwHas("overtime") {
		// "plot it over time": a line over time, whatever the previous chart was
		out.Intent, out.Chart = intentChart, "line"
		out.kws = maps.Clone(out.kws)
		if out.kws == nil {
			out.kws = map[string]int{}
		}
		out.kws["overtime"] = cur.kws["overtime"]
	}
	if prev.Intent == intentAmbig && len(cur.Measures) > 0 {
		out.Ambiguous, out.AmbigWord, out.Intent = nil, "", prev.pending
	}
	if cur.Intent == intentResample && prev.Intent == intentChart && cur.Chart == "" {
		out.Intent = intentChart // "now monthly" after a chart redraws it per month
	}
	if prev.Intent == intentChart && cur.Chart == "" && !cur.kwHas("plot") && cur.Agg != "" && cur.Agg != "count" {
		out.Intent = intentStat // "what was its average?" after a chart asks for a number
	}
	if cur.Period != "" && len(cur.By) == 0 && cur.kwHas("by") && len(prev.By) > 0 {
		// "now by month" after a grouping by region: the month replaces the region
		out.By = nil
		if out.Intent == intentStat {
			out.Intent = intentResample
		}
	}
	switch {
	case len(cur.Measures) > 0 && !cur.numeric && len(cur.By) == 0 && len(prev.By) > 0 && len(prev.Measures) > 0:
		out.By = cur.Measures // "same for kind" after "average value by team": new groups, same measure
	case len(cur.Measures) > 0:
		out.Measures = cur.Measures
	}
	if len(cur.By) > 0 {
		out.By = cur.By
	}
	resolveOrder(&out, &cur, prev)
	out.Filters = mergeFilters(out.Filters, cur.Filters)
	mergeModifiers(&out, &cur)
	return out
}

// needsContext decides whether cur is a follow-up of prev: it says so, or it lacks what its
// intent needs (columns) while the previous query had them.
func needsContext(cur Query, prev *Query) bool {
	if cur.flip || cur.N > 0 && cur.kwHas("instead") {
		return true
	}
	if len(prev.Ambiguous) > 0 && len(cur.Measures) > 0 && !cur.explicit {
		return true
	}
	if cur.Intent == intentHelp {
		return len(cur.Filters) > 0 || cur.Export != "" || cur.Period != "" || cur.cue
	}
	if cur.cue && (len(cur.Measures) == 0 || !cur.explicit) {
		return true
	}
	switch cur.Intent {
	case intentChart, intentStat, intentGrowth, intentPeak, intentTop, intentResample, intentOutliers, intentExport, intentFilter:
		return len(cur.Measures)+len(cur.By) == 0 && (cur.cue || !cur.explicit)
	}
	return false
}

// mergeFilters replaces earlier conditions on a column with the new ones on it.
func mergeFilters(old, cur []Filter) []Filter {
	if len(cur) == 0 {
		return old
	}
	replaced := map[string]bool{}
	for _, f := range cur {
		replaced[f.Col] = true
	}
	var out []Filter
	for _, f := range old {
		if !replaced[f.Col] {
			out = append(out, f)
		}
	}
	return append(out, cur...)
}

func mergeModifiers(out, cur *Query) {
	if cur.Agg != "" {
		out.Agg = cur.Agg
	}
	if cur.Period != "" {
		out.Period = cur.Period
	}
	if cur.N > 0 {
		out.N = cur.N
	}
	if cur.Bottom {
		out.Bottom = true
	} else if cur.kwHas("max") {
		out.Bottom = false // "and highest?" after "when was it lowest"
	}
	if cur.Export != "" {
		out.Export = cur.Export
	}
	if cur.Trend {
		out.Trend = true
	}
	if cur.DateCol != "" {
		out.DateCol = cur.DateCol
	}
	if cur.Rolling > 0 {
		out.Rolling = cur.Rolling
	}
}

// resolveOrder applies "sorted the other way" and "top 10 instead" to the previous result: the
// order flips (a ranking turns into its bottom, groups list smallest first), and a count of
// groups turns a grouped statistic into a ranking.
func resolveOrder(out, cur *Query, prev *Query) {
	if cur.flip {
		out.Bottom = !prev.Bottom
		out.flipped = !prev.flipped
		if out.Intent == intentSort || out.Intent == intentTop || out.Intent == intentPeak {
			out.flipped = false // their order is Bottom's
		}
	}
	if cur.N > 0 && out.Intent == intentStat && len(out.By) == 1 {
		out.Intent = intentTop
	}
}
