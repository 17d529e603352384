package analyst

import "sort"

// keywords maps each canonical keyword to the words people use for it. Column names are matched
// separately (columns.go); these are the words that choose what to do.
var keywords = map[string][]string{
	"mean":      {"mean", "average", "avg", "averages", "typical", "rate"},
	"median":    {"median", "middle"},
	"sum":       {"sum", "total", "totals", "overall"},
	"min":       {"min", "minimum", "lowest", "smallest", "least", "cheapest", "worst", "lower", "smaller", "worse", "fewest"},
	"max":       {"max", "maximum", "highest", "largest", "biggest", "most", "best", "greatest", "higher", "greater", "larger", "bigger", "better"},
	"std":       {"std", "stdev", "stddev", "deviation", "spread", "volatility", "volatile"},
	"var":       {"variance", "var"},
	"cv":        {"cv"},       // "coefficient of variation", joined by phrases
	"valrange":  {"valrange"}, // "the range of", joined by phrases
	"meanad":    {"meanad"},   // "mean absolute deviation", joined by phrases
	"medad":     {"medad"},    // "median absolute deviation", joined by phrases
	"count":     {"count", "howmany", "number"},
	"plot":      {"plot", "chart", "graph", "visualize", "visualise", "visualization", "draw", "figure", "diagram", "plotting"},
	"line":      {"line"},
	"bar":       {"bar", "bars", "column-chart"},
	"barh":      {"barh", "horizontal", "sideways"},
	"hist":      {"histogram", "hist", "distribution", "distributed", "frequency-chart"},
	"box":       {"boxplot", "box", "whisker", "whiskers"},
	"scatter":   {"scatter", "scatterplot"},
	"pie":       {"pie", "donut", "doughnut"},
	"area":      {"area", "stacked"},
	"heatmap":   {"heatmap"},
	"trendline": {"trendline", "regression", "fit"},
	"corr":      {"correlation", "correlate", "correlated", "correlations", "relationship", "related", "relate", "association", "corr"},
	"matrix":    {"matrix"},
	"missing":   {"missing", "null", "nulls", "nan", "nans", "empty", "blank", "blanks", "gaps", "incomplete"},
	"unique":    {"unique", "distinct", "different"},
	"counts":    {"counts", "frequency", "frequencies", "occurrences", "often", "tally", "breakdown"},
	"top":       {"top", "first-n"},
	"bottom":    {"bottom"},
	"head":      {"head", "first", "preview", "sample", "peek", "glimpse", "rows", "row", "records", "entries"},
	"tail":      {"tail", "last"},
	"recent":    {"recent", "recently", "latest", "newest", "lately"},
	"oldest":    {"oldest", "earliest", "first-ever"},
	"size":      {"size", "shape", "dimensions", "big", "long", "length", "rowcount"},
	"columns":   {"columns", "column", "fields", "field", "variables", "schema", "dtypes", "types", "headers", "header"},
	"overview":  {"overview", "summary", "summarize", "summarise", "summarize", "eda", "explore", "lookslike"},
	"describe":  {"describe", "statistics", "stats", "statistic", "describes"},
	"peak":      {"peak", "peaked", "record", "high-point", "topped"},
	"growth":    {"growth", "grow", "grew", "growing", "change", "changed", "increase", "increased", "decrease", "decreased", "return", "returns", "cagr", "yoy", "gain", "gained", "performed", "perform", "performance"},
	"compare":   {"compare", "comparison", "compared", "comparing"},
	"trend":     {"trend", "trends", "trending", "evolve", "evolved", "evolution", "progression"},
	"overtime":  {"overtime"},
	"outlier":   {"outlier", "outliers", "anomaly", "anomalies", "unusual", "extreme", "abnormal", "weird"},
	"join":      {"join", "merge", "combine", "joined", "merged", "combined", "lookup", "enrich"},
	"save":      {"save", "export", "download", "write", "store", "dump", "output"},
	"csv":       {"csv"},
	"excel":     {"excel", "xlsx", "spreadsheet", "workbook", "xls"},
	"filter":    {"filter", "where", "only", "just", "subset", "exclude", "excluding", "keep"},
	"sort":      {"sort", "sorted", "ordered", "rank", "ranked", "ranking", "arrange"},
	"asc":       {"ascending", "asc", "increasing"},
	"desc":      {"descending", "desc", "decreasing"},
	"pivot":     {"pivot", "pivoted"},
	"day":       {"daily", "day", "days"},
	"week":      {"weekly", "week", "weeks"},
	"month":     {"monthly", "month", "months"},
	"quarter":   {"quarterly", "quarter", "quarters"},
	"weekday":   {"weekday", "weekdays", "dow"},
	"decade":    {"decade", "decades"},
	"duration":  {"duration", "durations", "lasted", "lasting", "longest", "shortest", "tenure", "took", "supported", "maintained"},
	"year":      {"yearly", "year", "years", "annual", "annually", "annualy"},
	"resample":  {"resample", "resampled", "aggregate", "aggregated", "bucket", "rollup"},
	"rolling":   {"rolling"},
	"by":        {"by", "per", "across", "each", "every", "grouped", "split"},
	"vs":        {"vs", "versus", "against"},
	"after":     {"after", "later"},
	"before":    {"before", "earlier", "prior", "until", "till"},
	"since":     {"since", "from", "starting"},
	"between":   {"between"},
	"in":        {"in", "during"},
	"all":       {"all", "every-column", "everything"},
	"same":      {"same", "again", "similarly", "likewise"},
	"instead":   {"instead", "rather"},
	"now":       {"now", "also", "then"},
	"help":      {"help", "capabilities"},
	"when":      {"when"},
	"clean":     {"clean", "cleaned", "tidy", "tidied", "cleaning"},
	"time":      {"time", "timeline", "timeseries", "chronological"},
	"file":      {"file", "files", "dataset", "datasets", "data", "table", "tables", "sheet", "sheets", "dataframe"},
	"what":      {"what", "which", "whats"},
	"show":      {"show", "display", "list", "give", "print", "see", "view", "get", "tell"},
	"not":       {"not", "isnt", "without", "except"},
	"percent":   {"percent", "percentage", "percentages", "%", "fraction", "share", "proportion", "proportions"},
	// The statistical vocabulary of tests, outlier rules and models (stats_parse.go).
	"normal":     {"normal", "normally", "normality", "gaussian", "shapiro", "dagostino", "normaltest"},
	"skew":       {"skew", "skewness", "skewed", "asymmetry", "asymmetric", "symmetric", "symmetrical"},
	"kurtosis":   {"kurtosis", "kurt", "tails", "tailedness", "leptokurtic", "platykurtic", "peakedness"},
	"signif":     {"significant", "significantly", "significance", "pvalue", "insignificant"},
	"ttest":      {"ttest", "ttests"},
	"mwu":        {"mannwhitney", "ranksum", "nonparametric"},
	"wilcoxon":   {"wilcoxon", "signedrank"},
	"chi2":       {"chisquare", "contingency", "independence"},
	"anova":      {"anova"},
	"kruskal":    {"kruskal"},
	"pearson":    {"pearson", "pearsons"},
	"spearman":   {"spearman", "spearmans", "rho"},
	"kendall":    {"kendall", "kendalls", "tau"},
	"differ":     {"differ", "differs", "difference", "differences"},
	"linear":     {"linear", "linearly", "linearity", "monotonic"},
	"paired":     {"paired"},
	"zscore":     {"zscore", "zscores", "sigma", "sigmas"},
	"iqr":        {"iqr", "interquartile", "tukey", "fences"},
	"percentile": {"percentile", "percentiles", "quantile", "quantiles", "centile", "centiles"},
	"kmeans":     {"kmeans"},
	"classifier": {"classifier", "classifiers", "classification", "logistic", "logit", "dtree"},
	"beyond": {"forecast", "forecasting", "predict", "prediction", "predictions", "cluster", "clustering", "classify", "sentiment", "translate", "arima", "train",
		"why", "cause", "causes", "caused", "causing", "reason", "reasons"},
}

// vocabulary maps every surface word to its canonical keyword; vocabWords lists the surface
// words for spelling correction, in a fixed order so that corrections are deterministic.
var vocabulary, vocabWords = buildVocabulary()

func buildVocabulary() (map[string]string, []string) {
	m := map[string]string{}
	var words []string
	for canon, surfaces := range keywords {
		for _, s := range surfaces {
			m[s] = canon
			words = append(words, s)
		}
	}
	sort.Strings(words)
	return m, words
}

// standInMeasures are the columns that stand for a table's quantity when a question names
// none, in order: the closing price of a price table ("plot AAPL" plots its Close).
var standInMeasures = []string{"Close"}

// stopwords never count as column mentions or get spelling-corrected.
var stopwords = setOf("a", "an", "the", "of", "for", "to", "and", "or", "me", "my", "our", "is", "are", "was",
	"were", "be", "it", "its", "this", "that", "these", "those", "with", "on", "at", "as", "please", "pls", "plz",
	"could", "would", "you", "your", "i", "we", "us", "do", "does", "did", "there", "their", "them", "they", "some",
	"any", "how", "much", "many", "want", "need", "like", "let", "lets", "know", "into", "out", "up", "down", "so",
	"hey", "hi", "thanks", "thank", "ok", "okay", "quick", "quickly", "really", "whole", "using", "use", "make",
	"create", "build", "produce", "generate", "have", "has", "had", "than", "value", "values", "one", "look",
	"over", "under", "above", "below", "same", "what", "which", "who", "where", "by", "per", "each",
	"is", "vs", "versus", "against", "about", "time", "times", "kind", "sort", "type", "across", "within",
	"will", "should", "too", "other", "can", "may", "might", "get", "got", "here", "okay", "now")

func setOf[T comparable](words ...T) map[T]bool {
	m := make(map[T]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// abbreviations expand short forms people type for column words.
var abbreviations = map[string][]string{
	"qty": {"quantity", "unit"}, "amt": {"amount"}, "rev": {"revenue"}, "vol": {"volume"}, "pct": {"percent"},
	"temp": {"temperature", "temperatur"}, "num": {"number"}, "no": {"number"}, "dept": {"department"},
	"yr": {"year"}, "cust": {"customer"}, "prod": {"product"}, "desc": {"description"}, "sat": {"satisfaction"},
	"emp": {"employee"}, "perf": {"performance"}, "pop": {"population"}, "cat": {"category"}, "qtr": {"quarter"},
	"rep": {"representative", "rep"}, "sales": {"revenue", "sale"}, "income": {"income", "revenue"}, "id": {"id", "identifier"},
	"pay": {"salary", "wage"}, "wage": {"salary"}, "earnings": {"salary", "income"}, "rain": {"niederschlag", "rainfall", "precipitation"},
	"temperature": {"temperatur"}, "visitor": {"besucher"}, "station": {"station"}, "close": {"close"},
	"closing": {"close"}, "opening": {"open"}, "trading": {"volume"}, "turnover": {"revenue", "volume"},
	"score": {"score", "rating"}, "rating": {"rating", "score"}, "age": {"age"}, "gender": {"gender", "sex"}, "sex": {"gender"},
	"country": {"country", "nation"}, "city": {"city", "location"}, "date": {"date", "datum"}, "location": {"location", "city", "station"},
	"rainfall": {"niederschlag", "rain", "rainfall", "precipitation"}, "precipitation": {"niederschlag", "rain", "rainfall"},
	"hottest": {"temperature", "temperatur", "temp"}, "warmest": {"temperature", "temperatur", "temp"},
	"coldest": {"temperature", "temperatur", "temp"}, "wettest": {"niederschlag", "rain", "rainfall"}, "rainiest": {"niederschlag", "rain", "rainfall", "precipitation"},
	"busiest": {"besucher", "visitor", "volume"}, "note": {"notiz", "note", "comment"}, "comment": {"notiz", "note"}, "paid": {"salary", "pay", "wage"}, "sell": {"revenue", "sale"}, "sold": {"unit", "quantity"}, "earn": {"salary", "income"}, "cost": {"cost", "price"}, "price": {"price", "close", "kurs", "preis"}, "stock": {"close"}, "share": {"close"}, "budget": {"budget"}, "headcount": {"employee"},
}
