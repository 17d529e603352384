package analyst

import (
	"fmt"
	"strconv"
	"strings"
)

// The parse of models (kind, target, features, split and their parameters).

// modelWords are the words that say which model a question fits.
var modelKinds = []struct {
	kind  string
	words []string
}{
	{"logistic", []string{"logistic", "logit"}},
	{"tree", []string{"dtree", "tree"}},
	{"poly", []string{"polynomial", "quadratic", "cubic"}},
	{"kmeans", []string{"kmeans", "cluster", "clusters", "clustering", "clustered"}},
	{"naive", []string{"naive", "baseline", "persistence"}},
	{"linear", []string{"regression", "regress", "regressed", "ols"}},
}

// readModel reads a model the question asks to fit; it reports whether it read one (perhaps as
// a decline, when a forecast or a classifier is asked without saying which).
func readModel(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	kind := ""
	for _, mk := range modelKinds {
		for _, w := range mk.words {
			if ps.hasWord(w) && kind == "" {
				kind = mk.kind
			}
		}
	}
	forecast := ps.hasWord("forecast") || ps.hasWord("forecasting")
	predict := ps.hasWord("predict") || ps.hasWord("predicting") || ps.hasWord("prediction") || ps.hasWord("predicts")
	linearModel := ps.has("linear") && (ps.hasWord("model") || ps.hasWord("fit"))
	switch {
	case kind == "naive" && !forecast && !predict:
		return false
	case kind == "" && linearModel:
		kind = "linear"
	case kind == "" && forecast:
		s.model = "naive"
		s.decline = "A forecasting model is beyond the built-in rules; they can give a naive forecast (the last value carried forward), clearly labelled as such, if you ask for it"
		s.readings = modelReadings(q, f, "naive")
		return true
	case kind == "" && (ps.has("classifier") || predict):
		return readUnnamedModel(q, ps, f, s)
	case kind == "":
		return false
	}
	s.model = kind
	if kind == "naive" {
		return readNaive(q, ps, f, s)
	}
	s.testSize, s.seed = readSplit(ps, s)
	if !splitAsked(ps) && (kind == "linear" || kind == "poly") {
		s.testSize = 0
	}
	if kind == "kmeans" {
		return readKMeans(q, ps, f, s)
	}
	readRoles(q, ps, f, s)
	return checkModel(q, ps, f, s)
}

// readUnnamedModel answers "predict y from x" with a linear regression when y is numeric, and
// asks back which classifier when y is a category.
func readUnnamedModel(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	s.testSize, s.seed = readSplit(ps, s)
	readRoles(q, ps, f, s)
	c := f.column(s.target)
	if c != nil && c.Kind == "num" && !catLike(c, f) && !ps.has("classifier") {
		s.model = "linear"
		if !splitAsked(ps) {
			s.testSize = 0
		}
		return checkModel(q, ps, f, s)
	}
	s.model = "logistic"
	s.decline = "I understood a prediction of a category, but not with which model"
	s.readings = modelReadings(q, f, "classifier")
	return true
}

// splitAsked reports whether the question speaks of held-out rows at all. A regression asked
// without one ("perform a linear regression … report the slope and the intercept") is fitted
// and scored on every row, as statsmodels or numpy.polyfit would; a classifier's accuracy is
// only meaningful on rows it has not seen, so classifiers are always split. A seed or random
// state only matters to a split, so naming one asks for it.
func splitAsked(ps *parsed) bool {
	for _, t := range ps.toks {
		switch t.low {
		case "test", "testing", "holdout", "held", "split", "train", "training", "validation", "unseen", "seed", "state":
			return true
		}
	}
	return false
}

// readSplit reads the held-out share and the seed: "test size 0.3", "30% test", "70/30 split",
// "random state 7", "seed 1"; by default 0.2 and 42.
func readSplit(ps *parsed, s *statAsk) (size float64, seed int) {
	size, seed = 0.2, 42
	for i, t := range ps.toks {
		switch {
		case t.low == "test" || t.low == "holdout" || t.low == "held":
			if j := ps.numAround(i, 3); j >= 0 {
				if v, pct := parseNum(ps.toks[j].low); v > 0 && (v < 1 || pct && v < 100) {
					size = map[bool]float64{true: v / 100, false: v}[pct]
					s.take(ps, j)
				}
			} else if j := ps.numBefore(i); j >= 0 {
				if v, pct := parseNum(ps.toks[j].low); pct && v > 0 && v < 100 {
					size = v / 100
					s.take(ps, j)
				}
			}
		case t.low == "split" && i >= 2 && ps.toks[i-1].num && ps.toks[i-2].num:
			a, _ := parseNum(ps.toks[i-2].low)
			b, _ := parseNum(ps.toks[i-1].low)
			if a+b == 100 && b > 0 {
				size = b / 100
				s.take(ps, i-2)
				s.take(ps, i-1)
			}
		case t.low == "seed" || t.low == "state":
			if j := ps.numAround(i, 2); j >= 0 {
				seed, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			}
		}
	}
	return size, seed
}

// readRoles finds the target and the features of a supervised model: "predict y from x1 and
// x2", "regress y on x", "regression of y on x", "x predicts y", "classify y using x"; with no
// feature named, every other numeric column is one.
func readRoles(q *Query, ps *parsed, f *Frame, s *statAsk) {
	var cols []string
	var at []int
	for _, m := range ps.mentions {
		if m.end-m.start == 1 && modelNouns[ps.toks[m.start].low] && len(ps.mentions) > 1 {
			continue // "model" or "target" in the question is the word, not a column
		}
		for _, c := range q.columnsOf(m.cols) {
			if name := columnName(f, c, q); name != "" && !contains(cols, name) {
				cols, at = append(cols, name), append(at, m.start)
			}
		}
	}
	split, predictAt := -1, -1
	for i, t := range ps.toks {
		if split < 0 && len(at) > 0 && i > at[0] && (t.low == "from" || t.low == "on" || t.low == "using" || t.low == "with" || t.low == "given" || t.low == "based") {
			split = i
		}
		if predictAt < 0 && (t.low == "predict" || t.low == "predicts" || t.low == "predicting" || t.low == "explain" || t.low == "explains") {
			predictAt = i
		}
	}
	switch {
	case len(cols) == 0:
	case explicitRoles(ps, cols, at, s):
	case split >= 0:
		for i, c := range cols {
			if at[i] < split && s.target == "" {
				s.target = c
			} else if at[i] > split {
				s.features = append(s.features, c)
			}
		}
	case predictAt > 0 && at[0] < predictAt && at[len(at)-1] > predictAt:
		for i, c := range cols {
			if at[i] > predictAt {
				s.target = c
			} else {
				s.features = append(s.features, c)
			}
		}
	default:
		s.target, s.features = cols[0], cols[1:]
	}
	s.degree = 0
	if s.model == "poly" {
		s.degree = readDegree(ps, s)
	}
	if j := ps.at("maxdepth"); j >= 0 {
		if k := ps.numAround(j, 2); k >= 0 {
			s.maxDepth, _ = strconv.Atoi(ps.toks[k].low)
			s.take(ps, k)
		}
	} else if j := ps.wordAt("maxdepth"); j >= 0 {
		if k := ps.numAround(j, 2); k >= 0 {
			s.maxDepth, _ = strconv.Atoi(ps.toks[k].low)
			s.take(ps, k)
		}
	}
	q.Filters = nil // the columns of a model are its roles, not conditions
}

// targetRoles and featureRoles name a column's role after "as": "math_score as the target",
// "study_hours as the predictor", "age as the independent variable".
var (
	targetRoles  = setOf("target", "dependent", "response", "outcome", "label", "y", "output")
	featureRoles = setOf("predictor", "predictors", "feature", "features", "independent", "input", "inputs", "x", "regressor", "explanatory")
)

// explicitRoles reads the roles given by "<column> as the target" and "<column> as the
// predictor"; a target named so takes every other column named as a feature unless some are
// named as features too. It reports whether it found a target.
func explicitRoles(ps *parsed, cols []string, at []int, s *statAsk) bool {
	target, features := "", []string(nil)
	for i, c := range cols {
		j := at[i] + len(nameWords(c))
		if j < len(ps.toks) && ps.toks[j].low != "as" {
			j = at[i] + 1
		}
		if j >= len(ps.toks) || ps.toks[j].low != "as" {
			continue
		}
		k := j + 1
		for k < len(ps.toks) && (ps.toks[k].low == "the" || ps.toks[k].low == "a" || ps.toks[k].low == "an" || ps.toks[k].low == "our") {
			k++
		}
		if k >= len(ps.toks) {
			continue
		}
		switch w := ps.toks[k].low; {
		case targetRoles[w]:
			target = c
		case featureRoles[w]:
			features = append(features, c)
		}
	}
	if target == "" {
		return false
	}
	if len(features) == 0 {
		for _, c := range cols {
			if c != target {
				features = append(features, c)
			}
		}
	}
	s.target, s.features = target, features
	return true
}

// modelNouns are the words that speak of a model's parts; a column of that name ("model" in a
// table of cars) is taken for the word while other columns are named.
var modelNouns = setOf("model", "models", "target", "feature", "features", "predictor", "predictors", "variable", "variables")

// columnName names a mentioned column of the query's frame, or "" for another frame's.
func columnName(f *Frame, c colRef, q *Query) string {
	if c.frame != q.Frame {
		return ""
	}
	if c.col < len(f.Columns) {
		return f.Columns[c.col].Name
	}
	return ""
}

// readDegree reads a polynomial's degree: "degree 3", "3rd degree", "quadratic", "cubic";
// 2 by default.
func readDegree(ps *parsed, s *statAsk) int {
	switch {
	case ps.hasWord("cubic"):
		return 3
	case ps.hasWord("quadratic"):
		return 2
	}
	if i := ps.wordAt("degree"); i >= 0 {
		if j := ps.numAround(i, 2); j >= 0 {
			d, _ := strconv.Atoi(ps.toks[j].low)
			s.take(ps, j)
			return max(1, min(d, 6))
		}
		if i > 0 {
			if d, ok := ordinalNumber(ps.toks[i-1].low); ok && d >= 1 && d <= 6 {
				ps.taken[i-1] = true
				return int(d)
			}
		}
	}
	return 2
}

// checkModel declines a model whose target or features do not fit it.
func checkModel(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	c := f.column(s.target)
	switch {
	case c == nil:
		s.decline = "I understood a " + modelNoun(s.model) + ", but not which column it should predict"
	case (s.model == "linear" || s.model == "poly") && c.Kind != "num":
		s.decline = fmt.Sprintf("A %s predicts a number, and `%s` is a category", modelNoun(s.model), s.target)
	case (s.model == "logistic" || s.model == "tree") && !catLike(c, f):
		s.decline = fmt.Sprintf("A %s predicts a category, and `%s` has %d distinct values", modelNoun(s.model), s.target, c.Unique)
	case s.model == "poly" && len(s.features) > 1:
		s.decline = "A polynomial fit here takes one feature, and the question names " + fmt.Sprint(len(s.features))
	}
	if len(s.features) == 0 && s.decline == "" {
		s.features = without(nonIDs(f, numericColumns(f)), s.target)
		q.Notes = append(q.Notes, "No feature was named, so every other numeric column is one: "+quoteList(s.features)+".")
	}
	if s.decline != "" {
		s.readings = modelReadings(q, f, s.model)
	}
	q.Measures, q.By = append([]string{s.target}, s.features...), nil
	return true
}

// readKMeans reads the k and the columns of a k-means clustering: "3 clusters", "k = 4", "into
// 5 groups"; with no k the rules ask back, since any k they chose would be a guess.
func readKMeans(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	for i, t := range ps.toks {
		if (t.low == "k" || t.low == "n") && s.clusters == 0 {
			if j := ps.numAround(i, 2); j >= 0 {
				s.clusters, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			}
		}
		if (t.low == "clusters" || t.low == "groups" || t.low == "segments" || t.low == "cluster") && s.clusters == 0 {
			if j := ps.numBefore(i); j >= 0 {
				s.clusters, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			} else if j := ps.numAround(i, 2); j >= 0 && t.low == "clusters" {
				s.clusters, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			}
		}
	}
	dropParamFilters(q) // "k = 3 on math_score" is no filter on math_score
	s.features = nonIDs(f, numericOf(q, f))
	if len(s.features) == 0 {
		s.features = numericColumns(f)
		q.Notes = append(q.Notes, "No column was named, so the clustering uses every numeric column: "+quoteList(s.features)+".")
	}
	q.Filters = dropCatFilters(q.Filters)
	switch {
	case s.clusters < 2 || s.clusters > 50:
		s.decline = "I can run k-means, but only with the number of clusters you choose"
		s.readings = modelReadings(q, f, "kmeans")
	case len(s.features) == 0:
		s.decline = "k-means needs numeric columns, and I found none"
	}
	q.Measures, q.By = s.features, nil
	return true
}

func dropCatFilters(fs []Filter) []Filter {
	var out []Filter
	for _, x := range fs {
		if x.Kind != "cat" {
			out = append(out, x)
		}
	}
	return out
}

// readNaive reads a naive forecast: the column, the horizon ("next 7 days", "12 months ahead").
func readNaive(q *Query, ps *parsed, f *Frame, s *statAsk) bool {
	s.horizon = 0
	for i, t := range ps.toks {
		if t.low == "next" || t.low == "coming" {
			if j := ps.numAround(i, 1); j >= 0 {
				s.horizon, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			}
		}
		if (t.low == "ahead" || t.norm == "day" || t.norm == "week" || t.norm == "month" || t.norm == "year" || t.low == "periods" || t.low == "steps") && s.horizon == 0 {
			if j := ps.numBefore(i); j >= 0 {
				s.horizon, _ = strconv.Atoi(ps.toks[j].low)
				s.take(ps, j)
			}
		}
	}
	if s.horizon <= 0 || s.horizon > 1000 {
		s.horizon = 1
	}
	nums := nonIDs(f, numericOf(q, f))
	date := q.DateCol
	if date == "" {
		date = dateColumn(f)
	}
	switch {
	case len(nums) == 0:
		s.decline = "I understood a naive forecast, but not of which numeric column"
		s.readings = modelReadings(q, f, "naive")
	case date == "":
		s.decline = f.Key + " has no date column, so there is no time order to carry the last value forward in"
	}
	if len(nums) > 0 {
		s.target = nums[0]
	}
	s.groupBy = date
	q.Period = "" // "next 7 days" is the horizon, not a resampling
	if k := seriesColumn(f, date); len(q.By) > 0 || k != "" && !picksOne(q, k) {
		s.decline = "A naive forecast runs on one series, and this table holds several (one per `" + k + "`); name one"
		s.readings = modelReadings(q, f, "naive")
	}
	return true
}

// picksOne reports whether the query keeps a single value of column k.
func picksOne(q *Query, k string) bool {
	for _, x := range q.Filters {
		if x.Col == k && x.Op == "==" {
			return true
		}
	}
	return false
}

// seriesFilters lists the category filters of a query (a ticker, a country).
func seriesFilters(q *Query, f *Frame) []Filter {
	var out []Filter
	for _, x := range q.Filters {
		if x.Kind == "cat" {
			out = append(out, x)
		}
	}
	return out
}

// modelNoun names a model kind in a sentence.
func modelNoun(kind string) string {
	return map[string]string{"linear": "linear regression", "poly": "polynomial regression", "logistic": "logistic regression",
		"tree": "decision-tree classifier", "kmeans": "k-means clustering", "naive": "naive forecast"}[kind]
}

// modelReadings offers model questions the rules answer, near what was asked.
func modelReadings(q *Query, f *Frame, kind string) []string {
	nums := numericColumns(f)
	y, x := "y", "x"
	if len(nums) > 0 {
		y = nums[0]
	}
	if len(nums) > 1 {
		x = nums[1]
	}
	if ms := nonIDs(f, numericOf(q, f)); len(ms) > 0 {
		y = ms[0]
		if len(ms) > 1 {
			x = strings.Join(ms[1:], " and ")
		}
	}
	if q.stat.target != "" {
		y = q.stat.target
	}
	if len(q.stat.features) > 0 {
		x = strings.Join(q.stat.features, " and ")
	}
	switch kind {
	case "classifier", "logistic", "tree":
		return []string{"logistic regression predicting " + y + " from " + x, "decision tree classifier predicting " + y + " from " + x}
	case "kmeans":
		return []string{"k-means with 3 clusters on " + strings.Join(nonIDs(f, append(numericOf(q, f), nums...))[:min(2, len(nums))], " and ")}
	case "naive":
		return []string{"naive forecast of " + y + " for the next 7 periods", "plot " + y + " over time"}
	}
	return []string{"linear regression of " + y + " on " + x}
}
