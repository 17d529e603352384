package analyst

import (
	"strconv"
)

// The cells of models. scikit-learn is imported inside the cell that fits, never by the
// loader, so a kernel that fits nothing does not carry it. Supervised models are scored on a
// held-out split with a fixed seed, so the same question gives the same numbers.

func (g *gen) model() {
	g.prelude()
	switch g.q.stat.model {
	case "linear", "poly":
		g.modelData()
		g.regression()
	case "logistic", "tree":
		g.modelData()
		g.classifier()
	case "kmeans":
		g.kmeans()
	case "naive":
		g.naiveForecast()
	}
}

// modelData writes the rows with the target and every feature present, the features one-hot
// encoded (first level dropped), and the split; a test size of 0 fits and scores on every row.
func (g *gen) modelData() {
	s := &g.q.stat
	g.line("from sklearn.model_selection import train_test_split")
	g.line("data = df[%s].dropna()", pyList(append([]string{s.target}, s.features...)))
	g.line("X = pd.get_dummies(data[%s], drop_first=True).astype(float)", pyList(s.features))
	g.line("y = data[%s]", py(s.target))
	g.line("test_size, seed = %s, %d", strconv.FormatFloat(s.testSize, 'g', -1, 64), s.seed)
	if s.testSize == 0 {
		g.line("X_train, X_test, y_train, y_test = X, X, y, y")
	} else {
		g.line("X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=test_size, random_state=seed)")
	}
	g.line("split = dict(n_train=len(X_train), n_test=len(X_test), dropped=len(df) - len(data), test_size=test_size, seed=seed)")
}

func (g *gen) regression() {
	s := &g.q.stat
	g.line("from sklearn.linear_model import LinearRegression")
	g.line("from sklearn.metrics import r2_score, mean_squared_error")
	if s.model == "poly" {
		g.line("from sklearn.preprocessing import PolynomialFeatures")
		g.line("poly = PolynomialFeatures(degree=%d, include_bias=False)", s.degree)
		g.line("X_train = pd.DataFrame(poly.fit_transform(X_train), columns=poly.get_feature_names_out(X.columns), index=X_train.index)")
		g.line("X_test = pd.DataFrame(poly.transform(X_test), columns=X_train.columns, index=X_test.index)")
	}
	g.line("model = LinearRegression().fit(X_train, y_train)")
	g.line("pred = model.predict(X_test)")
	g.line("r2, rmse = r2_score(y_test, pred), mean_squared_error(y_test, pred) ** 0.5")
	g.line("coefs = [[c, float(v)] for c, v in zip(X_train.columns, model.coef_)]")
	g.line("print(\"R2\", round(r2, 4), \"RMSE\", round(rmse, 4))")
	g.line("print(pd.Series(dict(coefs), name=\"coefficient\").to_string())")
	g.line("_emit(\"regression\", model=%s, degree=%d, target=%s, coefs=coefs[:20], intercept=float(model.intercept_), r2=float(r2), rmse=float(rmse), r2_train=float(model.score(X_train, y_train)), **split)",
		py(s.model), s.degree, py(s.target))
}

func (g *gen) classifier() {
	s := &g.q.stat
	g.line("from sklearn.metrics import accuracy_score, confusion_matrix")
	if s.model == "tree" {
		depth := "None"
		if s.maxDepth > 0 {
			depth = strconv.Itoa(s.maxDepth)
		}
		g.line("from sklearn.tree import DecisionTreeClassifier")
		g.line("model = DecisionTreeClassifier(max_depth=%s, random_state=seed).fit(X_train, y_train)", depth)
		g.line("weights = sorted([[c, float(v)] for c, v in zip(X.columns, model.feature_importances_)], key=lambda r: -r[1])[:6]")
	} else {
		g.line("from sklearn.linear_model import LogisticRegression")
		g.line("model = LogisticRegression(max_iter=1000).fit(X_train, y_train)")
		g.line("weights = [[c, float(v)] for c, v in zip(X.columns, model.coef_[0])][:12] if len(model.classes_) == 2 else []")
	}
	g.line("pred = model.predict(X_test)")
	g.line("labels = sorted(y.unique().tolist())")
	g.line("matrix = confusion_matrix(y_test, pred, labels=labels)")
	g.line("acc = accuracy_score(y_test, pred)")
	g.line("majority = float((y_test == y_train.mode()[0]).mean())")
	g.line("print(\"accuracy\", round(acc, 4))")
	// The reply shows the confusion matrix with its axes named: printed here too, it would be
	// shown twice.
	g.line("_emit(\"classifier\", model=%s, target=%s, accuracy=float(acc), labels=[str(v) for v in labels], matrix=matrix.tolist(), weights=weights, majority=majority, max_depth=%d, **split)",
		py(s.model), py(s.target), s.maxDepth)
}

func (g *gen) kmeans() {
	s := &g.q.stat
	g.line("from sklearn.cluster import KMeans")
	g.line("data = df[%s].dropna()", pyList(s.features))
	g.line("model = KMeans(n_clusters=%d, n_init=10, random_state=42).fit(data)", s.clusters)
	g.line("sizes = pd.Series(model.labels_).value_counts().sort_index()")
	g.line("centers = pd.DataFrame(model.cluster_centers_, columns=data.columns).round(3)")
	g.line("centers.insert(0, \"cluster\", range(%d))", s.clusters)
	g.line("centers.insert(1, \"size\", sizes.values)")
	g.line("result = centers.sort_values(\"size\", ascending=False)")
	g.line("print(result.to_string(index=False))")
	g.line("_emit(\"kmeans\", k=%d, features=%s, n=len(data), dropped=len(df) - len(data), inertia=float(model.inertia_), sizes=sorted(sizes.tolist(), reverse=True), **_rows(result, %d))",
		s.clusters, pyList(s.features), s.clusters)
	g.exportResult("kmeans_" + strconv.Itoa(s.clusters) + "_clusters")
}

// naiveForecast carries the last observed value forward over the horizon, at the series' own
// step; it is a baseline, and the sentence says so.
func (g *gen) naiveForecast() {
	s := &g.q.stat
	g.line("series = df[[%s, %s]].dropna().sort_values(%s)", py(s.groupBy), py(s.target), py(s.groupBy))
	g.line("series = series.groupby(%s)[%s].mean()", py(s.groupBy), py(s.target))
	g.line("step = pd.Series(series.index).diff().median()")
	g.line("future = [series.index[-1] + step * (i + 1) for i in range(%d)]", s.horizon)
	g.line("last = float(series.iloc[-1])")
	g.line("result = pd.DataFrame({%s: future, %s: last})", py(s.groupBy), py(s.target+"_naive_forecast"))
	g.line("print(result.to_string(index=False))")
	g.line("_emit(\"naive\", col=%s, date=%s, last=last, last_date=str(series.index[-1]), horizon=%d, first=str(future[0]), end=str(future[-1]), step=str(step).replace(\"0 days \", \"\"))",
		py(s.target), py(s.groupBy), s.horizon)
	g.exportResult(s.target + "_naive_forecast")
}
