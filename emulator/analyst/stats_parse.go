package analyst

import (
	"slices"
	"strconv"
	"strings"
)

// The parse of what goes beyond a plain aggregate: a statistical test with its α, an outlier
// rule with its threshold, or a model with its target, features and split. Every word and
// number it reads is consumed (taken), so that thresholds never become row filters and the
// word accounting sees them as understood.

// statAsk is what a question asks of statistics; the zero value asks nothing.
type statAsk struct {
	test    string  // see testNames
	method  string  // a variant asked by name: shapiro, dagostino, pearson, spearman, kendall, student
	alpha   float64 // the significance level asked, or 0 for the default 0.05
	value   float64 // the hypothesised mean of a one-sample t-test
	level   float64 // the confidence level of an interval: 0.95
	side    string  // "two-sided", "greater" or "less"
	linear  bool    // the question asks whether a relationship is linear
	skew    bool    // asks for the skewness
	kurt    bool    // asks for the kurtosis
	groupBy string  // the column splitting the groups of a two-group or many-group test
	groups  []string

	outlier  string  // zscore, iqr or percentile
	k        float64 // the z or IQR multiple
	lowPct   float64 // percentile bounds, 0 or 100 when one-sided
	highPct  float64
	defaultK bool // no threshold was named: the usual one is used and said
	// zSide is "above" or "below" for a one-sided z threshold that names no outliers: "how
	// many have a z-score above 2"; "" for |z| > k, as outliers are.
	zSide string

	model    string // linear, poly, logistic, tree, kmeans, naive
	target   string
	features []string
	degree   int
	clusters int
	horizon  int
	maxDepth int
	testSize float64
	seed     int

	decline  string   // why a question that was understood asks what the rules do not do
	readings []string // questions offered instead when declining
	numbers  []string // the numbers read as parameters, which must never filter rows
	measures []string // the query's measures when this was read, to tell a follow-up that changed them
}

// phrase rewrites of the statistical vocabulary, so that each name is one token.
var statPhrases = strings.NewReplacer(
	" z-scores", " zscore", " z-score", " zscore", " z scores", " zscore", " z score", " zscore",
	" t-test", " ttest", " t test", " ttest", " t-tests", " ttest", " chi-squared", " chisquare", " chi-square", " chisquare",
	" chi squared", " chisquare", " chi square", " chisquare", " chi2", " chisquare", " k-means", " kmeans", " k means", " kmeans",
	" mann-whitney", " mannwhitney", " mann whitney", " mannwhitney", " shapiro-wilk", " shapiro", " shapiro wilk", " shapiro",
	" d'agostino-pearson", " dagostino", " d'agostino", " dagostino", " dagostino-pearson", " dagostino", " kruskal-wallis", " kruskal", " kruskal wallis", " kruskal",
	" r-squared", " r2", " r squared", " r2", " r^2", " r2", " p-value", " pvalue", " p value", " pvalue", " p-values", " pvalue",
	" one-way anova", " anova", " one way anova", " anova", " decision tree", " dtree", " decision-tree", " dtree",
	" random forest", " randomforest", " random_forest", " randomforest", " neural network", " neuralnet", " neural net", " neuralnet",
	" signed-rank", " signedrank", " signed rank", " signedrank", " rank-sum", " ranksum", " rank sum", " ranksum",
	" u-test", " mannwhitney", " u test", " mannwhitney", " train/test", " train test", " test_size", " test size",
	" random_state", " random state", " n_clusters", " clusters", " max_depth", " maxdepth", " max depth", " maxdepth",
	" anderson-darling", " anderson", " jarque-bera", " jarque", " kolmogorov-smirnov", " kolmogorov",
	" two-way anova", " twowayanova", " two way anova", " twowayanova", " cross-validated", " crossvalidation",
	" cross-validation", " crossvalidation", " cross validation", " crossvalidation", " cross validated", " crossvalidation",
	" non-normal", " not normal", " nonnormal", " not normal", " post-hoc", " posthoc", " post hoc", " posthoc",
)

// testNames lists the tests the rules run, by statAsk.test.
var testNames = setOf("normality", "shape", "ttest1", "ttest2", "paired", "mwu", "wilcoxon", "chi2", "anova", "kruskal", "corrtest")

// unsupportedStats names methods a question may ask for that the rules do not run; an answer
// with another method would answer a nearby question, so these decline.
var unsupportedStats = map[string]string{
	"anderson": "the Anderson–Darling test", "jarque": "the Jarque–Bera test", "kolmogorov": "the Kolmogorov–Smirnov test",
	"lilliefors": "the Lilliefors test", "levene": "Levene's test", "bartlett": "Bartlett's test", "fisher": "Fisher's exact test",
	"mcnemar": "McNemar's test", "hsd": "Tukey's HSD", "posthoc": "post-hoc tests", "bonferroni": "a Bonferroni correction",
	"friedman": "the Friedman test", "grubbs": "Grubbs' test", "dixon": "Dixon's Q test", "isolation": "an isolation forest",
	"dbscan": "DBSCAN", "lof": "a local outlier factor", "mahalanobis": "the Mahalanobis distance", "mad": "the median absolute deviation rule", "medad": "the median absolute deviation rule",
	"modified": "a modified z-score", "randomforest": "a random forest", "forest": "a random forest", "xgboost": "XGBoost",
	"boosting": "gradient boosting", "gradient": "gradient boosting", "svm": "a support vector machine", "neuralnet": "a neural network",
	"neural": "a neural network", "deep": "deep learning", "lstm": "an LSTM", "arima": "ARIMA", "sarima": "SARIMA", "prophet": "Prophet",
	"holt": "Holt–Winters smoothing", "smoothing": "exponential smoothing", "knn": "k-nearest neighbours", "neighbors": "k-nearest neighbours",
	"neighbours": "k-nearest neighbours", "hierarchical": "hierarchical clustering", "pca": "a principal component analysis",
	"lasso": "a lasso regression", "ridge": "a ridge regression", "bayes": "naive Bayes", "bayesian": "a Bayesian model",
	"granger": "a Granger causality test", "dickey": "an augmented Dickey–Fuller test", "adf": "an augmented Dickey–Fuller test",
	"stationary": "a stationarity test", "stationarity": "a stationarity test", "durbin": "the Durbin–Watson test", "vif": "variance inflation factors",
	"cox": "a Cox model", "kaplan": "a Kaplan–Meier estimate", "bootstrap": "a bootstrap", "permutation": "a permutation test",
	"mixed": "a mixed model", "multivariate": "a multivariate test", "manova": "MANOVA", "ancova": "ANCOVA", "twowayanova": "a two-way ANOVA",
	"causal": "a causal claim", "causality": "a causal claim", "causation": "a causal claim",
	"cross-validation": "cross-validation", "crossvalidation": "cross-validation", "cv": "cross-validation", "fold": "k-fold cross-validation",
	"folds": "k-fold cross-validation", "auc": "the ROC AUC", "roc": "the ROC curve", "f1": "the F1 score", "precision": "precision",
	"recall": "recall", "shap": "SHAP values", "gmm": "a Gaussian mixture", "mixture": "a Gaussian mixture", "elbow": "the elbow method",
	"silhouette": "silhouette scores", "seasonal": "a seasonal forecast", "seasonality": "a seasonal decomposition", "decompose": "a seasonal decomposition",
}

// readStatAsk reads a test, an outlier rule or a model from the question.
func readStatAsk(q *Query, ps *parsed, f *Frame) {
	s := &q.stat
	s.alpha = readAlpha(ps, s)
	dropParamFilters(q)
	switch {
	case readUnsupported(ps, s):
		s.readings = nearestReadings(q, f, s.method)
	case readOutlierRule(ps, s, q):
		if len(q.By) > 0 {
			s.decline = "Outliers within each group of `" + q.By[0] + "` are not something the rules find; they find them over the whole column"
			s.readings = nearestReadings(q, f, "mad")
		}
	case readModel(q, ps, f, s):
	case readTest(q, ps, f, s):
		if ps.has("outlier") && s.decline == "" {
			s.decline = "A test on the data with its outliers removed is not something the rules run"
			s.readings = testReadings(q, f, s.test)
		}
	}
	dropParamFilters(q)
	consumeStatWords(ps, q)
	s.measures = slices.Clone(q.Measures)
}

// unsupportedNeeds lists the words that make an ambiguous method name mean the method.
var unsupportedNeeds = map[string][]string{"modified": {"zscore"}, "deep": {"learning"}, "mixed": {"model", "effects"},
	"smoothing": {"exponential"}, "gradient": {"boosting", "boosted"}, "seasonal": {"forecast", "forecasting", "decomposition"},
	"forest": {"random", "isolation"}, "fold": {"cross", "validation"}, "folds": {"cross", "validation"}, "cv": {"model", "validation"},
	"precision": {"classifier", "model", "recall"}, "recall": {"classifier", "model", "precision"},
	"medad": {"outlier", "anomaly", "anomalies"}} // "the median absolute deviation of bmi" is a statistic

// readUnsupported declines a method the rules do not run, naming it.
func readUnsupported(ps *parsed, s *statAsk) bool {
	for i, t := range ps.toks {
		name, ok := unsupportedStats[t.low]
		if !ok || ps.taken[i] {
			continue
		}
		if needs, ok := unsupportedNeeds[t.low]; ok && !slices.ContainsFunc(needs, func(w string) bool { return ps.hasWord(w) || ps.has(w) }) {
			continue
		}
		s.decline = capital(name) + " is beyond the methods the built-in rules run"
		s.method = t.low
		ps.taken[i] = true
		return true
	}
	return false
}

// unsupportedFamily groups the methods the rules do not run by the readings offered instead.
var unsupportedFamily = map[string]string{
	"anderson": "normality", "jarque": "normality", "kolmogorov": "normality", "lilliefors": "normality",
	"levene": "ttest2", "bartlett": "ttest2", "hsd": "ttest2", "posthoc": "ttest2", "bonferroni": "ttest2", "friedman": "ttest2",
	"manova": "ttest2", "ancova": "ttest2", "twowayanova": "ttest2", "permutation": "ttest2", "bootstrap": "ttest2",
	"fisher": "chi2", "mcnemar": "chi2", "grubbs": "outlier", "dixon": "outlier", "isolation": "outlier", "lof": "outlier",
	"mahalanobis": "outlier", "mad": "outlier", "medad": "outlier", "modified": "outlier", "dbscan": "kmeans", "hierarchical": "kmeans",
	"gmm": "kmeans", "mixture": "kmeans", "elbow": "kmeans", "silhouette": "kmeans", "arima": "naive", "sarima": "naive",
	"prophet": "naive", "holt": "naive", "smoothing": "naive", "lstm": "naive", "seasonal": "naive", "seasonality": "naive",
	"decompose": "naive", "randomforest": "classifier", "forest": "classifier", "xgboost": "classifier", "boosting": "classifier",
	"gradient": "classifier", "svm": "classifier", "knn": "classifier", "neighbors": "classifier", "neighbours": "classifier",
	"bayes": "classifier", "crossvalidation": "classifier", "cv": "classifier", "fold": "classifier", "folds": "classifier",
	"auc": "classifier", "roc": "classifier", "f1": "classifier", "precision": "classifier", "recall": "classifier", "shap": "classifier",
}

// nearestReadings offers the questions the rules answer nearest to a method they do not run.
func nearestReadings(q *Query, f *Frame, method string) []string {
	switch fam := unsupportedFamily[method]; fam {
	case "normality", "ttest2", "chi2":
		return testReadings(q, f, fam)
	case "outlier":
		col := "x"
		if nums := append(nonIDs(f, numericOf(q, f)), numericColumns(f)...); len(nums) > 0 {
			col = nums[0]
		}
		return []string{"outliers in " + col + " by z-score above 3", "outliers in " + col + " by 1.5 IQR", "values of " + col + " above the 99th percentile"}
	case "kmeans", "naive", "classifier":
		return modelReadings(q, f, fam)
	}
	if c := f.column(q.stat.target); c != nil && catLike(c, f) || len(categoryOf(q, f)) > 0 {
		return modelReadings(q, f, "classifier")
	}
	return modelReadings(q, f, "linear")
}

// readAlpha reads the significance level asked: "at alpha 0.01", "α = 0.1", "at the 1% level",
// "p < 0.01", "95% confidence"; 0 when none is named.
func readAlpha(ps *parsed, s *statAsk) float64 {
	for i, t := range ps.toks {
		lead := t.low == "alpha" || t.low == "α" || t.norm == "signif" || t.low == "level" || t.low == "confidence" || t.low == "p" || t.low == "pvalue"
		if !lead {
			continue
		}
		for j := i + 1; j < len(ps.toks) && j <= i+4; j++ {
			if !ps.toks[j].num {
				continue
			}
			v, pct := parseNum(ps.toks[j].low)
			percent := pct || j+1 < len(ps.toks) && ps.toks[j+1].norm == "percent"
			if percent {
				v /= 100
			}
			if t.low == "confidence" && v >= 0.5 && v < 1 {
				v = 1 - v
			}
			if v > 0 && v <= 0.2 {
				s.take(ps, j)
				ps.taken[i] = true
				return v
			}
			break
		}
	}
	// "at the 1% level": the number comes first.
	for i, t := range ps.toks {
		if (t.low == "level" || t.norm == "signif") && i > 1 && ps.toks[i-1].num {
			v, pct := parseNum(ps.toks[i-1].low)
			if pct {
				v /= 100
			}
			if v > 0 && v <= 0.2 {
				s.take(ps, i-1)
				ps.taken[i] = true
				return v
			}
		}
	}
	return 0
}

// parseNum reads a typed number, reporting a percent sign.
func parseNum(w string) (float64, bool) {
	pct := strings.HasSuffix(w, "%")
	v, err := strconv.ParseFloat(cleanNumber(w), 64)
	if err != nil {
		return 0, false
	}
	return v, pct
}

// take consumes token i as a parameter: a number kept out of the filters, a word understood.
func (s *statAsk) take(ps *parsed, i int) {
	ps.taken[i] = true
	if ps.toks[i].num {
		s.numbers = append(s.numbers, cleanNumber(ps.toks[i].low))
	}
}

// numAround returns the position of the first number within n tokens after i, skipping the
// small words between ("above 3", "threshold of 2.5", "k = 4"), or -1.
func (ps *parsed) numAround(i, n int) int {
	for j := i + 1; j < len(ps.toks) && j <= i+n; j++ {
		t := ps.toks[j]
		if t.num && !ps.taken[j] {
			return j
		}
		if !t.num && !isOp(t.low) && !stopwords[t.low] && !paramGlue[t.low] {
			return -1
		}
	}
	return -1
}

// paramGlue are the words between a parameter's name and its number.
var paramGlue = setOf("threshold", "cutoff", "cut", "off", "k", "x", "times", "level", "equal", "=", "more", "larger", "bigger",
	"exceeds", "exceeding", "beyond", "outside", "greater", "absolute", "abs", "magnitude", "score", "scores", "set", "value", "limit", "multiplier", "rule", "method", "approach", "fence", "factor", "range", "times", "based", "size", "split", "fraction", "ratio", "share")

// numBefore returns the position of a number just before i (one glue word allowed), or -1.
func (ps *parsed) numBefore(i int) int {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		t := ps.toks[j]
		if t.num && !ps.taken[j] {
			return j
		}
		if !paramGlue[t.low] && !stopwords[t.low] && t.low != "*" {
			return -1
		}
	}
	return -1
}

// dropParamFilters removes the numeric filters a threshold or a parameter became: "above 3
// standard deviations" is a z threshold, not "temperature > 3".
func dropParamFilters(q *Query) {
	if len(q.stat.numbers) == 0 {
		return
	}
	q.Filters = slices.DeleteFunc(q.Filters, func(x Filter) bool {
		param := x.Kind == "num" && slices.Contains(q.stat.numbers, x.Value) || x.Op == "year" && slices.Contains(q.stat.numbers, x.Value)
		if param && x.Kind == "num" {
			q.Measures = appendNew(q.Measures, x.Col) // "above 2.5 for charges": charges is the column tested
		}
		return param
	})
}

// statWords are the words of the statistical vocabulary that are not keywords (they name
// columns elsewhere, or only count in this context); they are consumed once a test, rule or
// model was read.
var statWords = setOf("test", "tests", "testing", "level", "threshold", "cutoff", "size", "state", "random", "seed", "degree",
	"order", "model", "models", "fit", "fitted", "train", "training", "holdout", "held", "split", "target", "feature", "features",
	"predictor", "predictors", "predict", "predicting", "prediction", "predictions", "forecast", "forecasting", "next", "ahead",
	"periods", "period", "cluster", "clusters", "clustering", "groups", "group", "segments", "segment", "clustered", "regression",
	"regress", "regressed", "classify", "classifier", "classification", "logistic", "logit", "tree", "dtree", "polynomial",
	"quadratic", "cubic", "naive", "baseline", "outcome", "variable", "variables", "dependent", "independent", "means", "sample", "samples",
	"hypothesis", "null", "statistically", "two", "one", "alpha", "α", "confidence", "interval", "intervals", "ci", "assume", "assuming", "equal", "variances", "variance",
	"welch", "student", "unequal", "tailed", "sided", "welchs", "strong", "strength", "direction", "weak", "coefficient", "coefficients", "reading",
	"scaled", "accuracy", "confusion", "rmse", "r2", "mse", "error", "evaluate", "evaluation", "score", "scores", "standard", "deviations",
	"sigma", "sd", "rule", "method", "fences", "percentile", "percentiles", "quantile", "quantiles", "th", "using", "use", "run", "perform",
	"conduct", "compute", "calculate", "check", "verdict", "whether", "difference", "differences", "differ", "differs", "between", "across",
	"versus", "vs", "against", "paired", "follow", "follows", "distribution", "distributions", "approximately", "roughly",
	"assumption", "shape", "set", "steps", "step", "find", "beyond", "outside", "range", "based", "numeric", "readings",
	"higher", "lower", "greater", "less", "whose", "associated", "association", "flag", "exact", "wilk", "vary", "varies", "related", "tau", "rho", "tail", "mean", "average", "relationship", "correlation", "tested", "significantly", "kmeans", "k", "maxdepth", "depth", "linear", "linearly", "linearity", "ols", "least", "squares", "absolute", "abs")

// outlierVerbs are what is done to outliers once a rule finds them: "identify and remove the
// outliers … how many outliers were removed?" counts them.
var outlierVerbs = setOf("remove", "removed", "removing", "detect", "detected", "detecting", "identified", "flagged",
	"drop", "dropped", "exclude", "excluded", "filter", "filtered")

// consumeStatWords marks the statistical words of a question that asked a test, rule or model
// as understood, and drops them from the words that named nothing.
func consumeStatWords(ps *parsed, q *Query) {
	s := &q.stat
	if s.test == "" && s.outlier == "" && s.model == "" && s.decline == "" {
		return
	}
	known := func(w string) bool { return statWords[w] || s.outlier != "" && outlierVerbs[w] }
	for i, t := range ps.toks {
		if known(t.low) || ps.toks[i].norm == "signif" {
			ps.taken[i] = true
		}
	}
	var left []string
	for _, w := range q.unknown {
		if !known(strings.ToLower(w)) {
			left = append(left, w)
		}
	}
	q.unknown = left
}
