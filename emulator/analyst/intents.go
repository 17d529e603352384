package analyst

// The intents a question can resolve to.
const (
	intentFenced   = "fenced"
	intentOverview = "overview"
	intentColumns  = "columns"
	intentHead     = "head"
	intentSize     = "size"
	intentMissing  = "missing"
	intentDescribe = "describe"
	intentCounts   = "counts"
	intentUnique   = "unique"
	intentStat     = "stat"
	intentPeak     = "peak"
	intentTop      = "top"
	intentFilter   = "filter"
	intentSort     = "sort"
	intentPivot    = "pivot"
	intentResample = "resample"
	intentGrowth   = "growth"
	intentCorr     = "corr"
	intentOutliers = "outliers"
	intentChart    = "chart"
	intentJoin     = "join"
	intentExport   = "export"
	intentHelp     = "help"
	intentAmbig    = "ambiguous"
	intentBeyond   = "beyond" // asks for something the rules cannot do, such as a forecast
	intentShare    = "share"  // what percentage of a total a category makes up
)

// chooseIntent picks what a question asks for from its keywords and the roles of its columns.
// The order matters: the more specific asks come first. explicit is false when only the
// columns decided (the last rules), which lets a follow-up keep the previous intent.
func chooseIntent(q *Query, ps *parsed, frames int) (intent string, explicit bool) {
	has := ps.has
	rules := []struct {
		ok     bool
		intent string
	}{
		{has("beyond"), intentBeyond},
		{has("join") && frames > 1, intentJoin},
		{has("corr") || has("heatmap") && !has("plot") && len(q.Measures) == 0 || has("matrix") && has("corr"), intentCorr},
		{has("clean") && q.Export != "", intentExport},
		{has("plot") || q.Chart != "" || has("overtime") && q.Agg == "" && !has("growth") && !has("trend"), intentChart},
		{has("outlier"), intentOutliers},
		{has("percent") && q.numeric && (len(q.By) > 0 || anyFilterOn(q, "cat")), intentShare},
		{has("peak") || has("when") && (has("max") || has("min")), intentPeak},
		{has("missing"), intentMissing},
		{has("pivot"), intentPivot},
		{(has("top") || has("bottom")) && (len(q.Measures) > 0 || len(q.By) > 0), intentTop},
		{(has("max") || has("min")) && (q.N > 1 || q.plural) && len(q.Measures) > 0, intentTop},
		{has("growth") || has("trend") && len(q.Measures) > 0, intentGrowth},
		{q.Period != "" && (len(q.Measures) > 0 || has("resample") || has("count") || !q.cue), intentResample},
		{has("rolling") && len(q.Measures) > 0, intentChart},
		{has("unique") && (q.Agg == "count" || q.Agg == ""), intentUnique},
		{q.Agg != "" && len(q.Measures) > 0, intentStat},
		{(has("counts") || has("count") && len(q.Measures)+len(q.By) > 0) && !hasNumeric(q), intentCounts},
		{has("unique") || has("show") && !has("head") && len(q.Measures) == 1 && len(q.By)+len(q.Filters) == 0 && !q.numeric && q.Agg == "", intentUnique},
		{has("describe") && len(q.Measures) > 0, intentDescribe},
		{has("overview") || has("describe"), intentOverview},
		{has("columns"), intentColumns},
		{has("size") || has("count") && len(q.Measures) == 0, intentSize},
		{has("sort"), intentSort},
		{(has("recent") || has("oldest")) && q.Agg == "" && len(q.By) == 0, intentSort},
		{len(q.Filters) > 0 && (has("filter") || has("show") || has("head") || q.plural && !q.numeric), intentFilter},
		{has("head") || has("tail") || has("top") || has("bottom"), intentHead},
		{len(q.By) > 0 && (len(q.Measures) > 0 || q.Agg != "" && q.Agg != "count" || has("compare")), intentStat},
		{len(q.Filters) > 0 && q.Agg == "" && (has("filter") || has("show") || len(q.Measures) == 0), intentFilter},
		{q.Export != "", intentExport},
		{len(q.Filters) > 0 && q.numeric, intentStat},
		{len(q.Measures) > 0 || len(q.By) > 0, intentDescribe},
		{q.Agg != "" && q.Agg != "count", intentStat},
	}
	for i, r := range rules {
		if r.ok {
			return r.intent, i < len(rules)-6
		}
	}
	return intentHelp, false
}

// hasNumeric is set by resolve when any measure is numeric; see measuresNumeric.
func hasNumeric(q *Query) bool { return q.numeric }
