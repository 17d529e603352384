package analyst

// intent is what a question asks for; one constant per kind of answer. Typed, so that a
// column name or a marker kind can never be taken for one.
type intent string

// The intents a question can resolve to.
const (
	intentFenced   intent = "fenced"
	intentOverview intent = "overview"
	intentColumns  intent = "columns"
	intentHead     intent = "head"
	intentSize     intent = "size"
	intentMissing  intent = "missing"
	intentDescribe intent = "describe"
	intentCounts   intent = "counts"
	intentUnique   intent = "unique"
	intentStat     intent = "stat"
	intentPeak     intent = "peak"
	intentTop      intent = "top"
	intentFilter   intent = "filter"
	intentSort     intent = "sort"
	intentPivot    intent = "pivot"
	intentResample intent = "resample"
	intentGrowth   intent = "growth"
	intentCorr     intent = "corr"
	intentOutliers intent = "outliers"
	intentChart    intent = "chart"
	intentJoin     intent = "join"
	intentExport   intent = "export"
	intentHelp     intent = "help"
	intentAmbig    intent = "ambiguous"
	intentBeyond   intent = "beyond" // asks for something the rules cannot do, such as a forecast
	intentShare    intent = "share"  // what percentage of a total a category makes up
	intentTest     intent = "test"   // a statistical test with its verdict (code_tests.go)
	intentModel    intent = "model"  // a regression, classifier, clustering or naive forecast (code_models.go)
	// intentMeaning is a question package meaning read whole (meaning_plan.go).
	intentMeaning intent = "meaning"
)

// rule maps a condition on the question to an intent.
type rule struct {
	ok     bool
	intent intent
}

// chooseIntent picks what a question asks for: first from the words that name an analysis, in
// order from the more specific asks to the more general; then, when no such word decided, from
// the roles of the columns alone. explicit is false in that second case, which lets a
// follow-up keep the previous intent.
func chooseIntent(q *Query, ps *parsed, frames int) (chosen intent, explicit bool) {
	for _, r := range keywordRules(q, ps, frames) {
		if r.ok {
			return r.intent, true
		}
	}
	for _, r := range columnRules(q) {
		if r.ok {
			return r.intent, false
		}
	}
	return intentHelp, false
}

func keywordRules(q *Query, ps *parsed, frames int) []rule {
	has := ps.has
	return []rule{
		{q.stat.decline != "", intentBeyond},
		{q.stat.test != "", intentTest},
		{q.stat.model != "", intentModel},
		{q.stat.outlier != "", intentOutliers},
		{has("beyond"), intentBeyond},
		{q.lasting, intentDuration},
		{has("join") && frames > 1, intentJoin},
		{has("corr") || has("heatmap") && !has("plot") && len(q.Measures) == 0 || has("matrix") && has("corr"), intentCorr},
		{has("clean") && q.Export != "", intentExport},
		{has("plot") || q.Chart != "" || has("overtime") && q.Agg == "" && !has("growth") && !has("trend"), intentChart},
		{has("outlier"), intentOutliers},
		{has("percent") && q.numeric && (len(q.By) > 0 || anyFilterOn(q, "cat")), intentShare},
		{has("peak") || (has("when") || q.whenRow) && (has("max") || has("min")), intentPeak},
		{has("missing"), intentMissing},
		{has("pivot"), intentPivot},
		{(has("top") || has("bottom")) && (len(q.Measures) > 0 || len(q.By) > 0), intentTop},
		{(has("max") || has("min")) && (q.N > 1 || q.plural) && len(q.Measures) > 0, intentTop},
		{has("growth") || has("trend") && len(q.Measures) > 0, intentGrowth},
		{q.Period != "" && (len(q.Measures) > 0 || has("resample") || has("count") || !q.cue), intentResample},
		{has("rolling") && len(q.Measures) > 0, intentChart},
		{has("unique") && (q.Agg == "count" || q.Agg == ""), intentUnique},
		{q.Agg != "" && len(q.Measures) > 0, intentStat},
		{(has("counts") || has("count") && len(q.Measures)+len(q.By) > 0) && !q.numeric, intentCounts},
		{has("unique") || has("show") && !has("head") && len(q.Measures) == 1 && len(q.By)+len(q.Filters) == 0 && !q.numeric && q.Agg == "", intentUnique},
		{has("describe") && len(q.Measures) > 0, intentDescribe},
		{has("overview") || has("describe"), intentOverview},
		{has("columns"), intentColumns},
		{has("size") || has("count") && len(q.Measures) == 0, intentSize},
		{has("sort"), intentSort},
		{(has("recent") || has("oldest")) && q.Agg == "" && len(q.By) == 0, intentSort},
		{len(q.Filters) > 0 && (has("filter") || has("show") || has("head") || q.plural && !q.numeric), intentFilter},
		{has("head") || has("tail") || has("top") || has("bottom"), intentHead},
	}
}

// columnRules decide from the columns alone: "revenue by region", "units > 15", "Salary".
func columnRules(q *Query) []rule {
	return []rule{
		{len(q.By) > 0 && (len(q.Measures) > 0 || q.Agg != "" && q.Agg != "count" || q.kwHas("compare")), intentStat},
		{len(q.Filters) > 0 && q.Agg == "" && (q.kwHas("filter") || q.kwHas("show") || len(q.Measures) == 0), intentFilter},
		{q.Export != "", intentExport},
		{len(q.Filters) > 0 && q.numeric, intentStat},
		{len(q.Measures) > 0 || len(q.By) > 0, intentDescribe},
		{q.Agg != "" && q.Agg != "count", intentStat},
	}
}
