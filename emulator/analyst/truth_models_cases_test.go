package analyst

import (
	"fmt"
	"strings"
)

// Models within reach: each reference fits the model with scikit-learn on the same rows and
// returns the scores the reply must state. A classifier is scored on a held-out split (test_size
// 0.2 and random_state 42 unless the question says otherwise); a regression only when the
// question asks for a split, else on every row.

// refSplit writes the reference's rows, design matrix and split for a supervised model.
func refSplit(target string, features []string, testSize float64, seed int) string {
	cols := "['" + target + "', '" + strings.Join(features, "', '") + "']"
	return "from sklearn.model_selection import train_test_split\n" +
		"d = df[" + cols + "].dropna()\n" +
		"X = pd.get_dummies(d[['" + strings.Join(features, "', '") + "']], drop_first=True).astype(float)\n" +
		split(target, testSize, seed)
}

// split writes the reference's train and test rows; a test size of 0 is every row for both.
func split(target string, testSize float64, seed int) string {
	if testSize == 0 {
		return fmt.Sprintf("Xtr, Xte, ytr, yte = X, X, d['%s'], d['%s']\n", target, target)
	}
	return fmt.Sprintf("Xtr, Xte, ytr, yte = train_test_split(X, d['%s'], test_size=%g, random_state=%d)\n", target, testSize, seed)
}

// refLinear is the reference of a linear regression: R², RMSE and the first coefficient.
func refLinear(target string, features []string, testSize float64, seed int) string {
	return refSplit(target, features, testSize, seed) +
		"from sklearn.linear_model import LinearRegression\nfrom sklearn.metrics import r2_score, mean_squared_error\n" +
		"m = LinearRegression().fit(Xtr, ytr)\npr = m.predict(Xte)\n" +
		"[r2_score(yte, pr), mean_squared_error(yte, pr) ** 0.5, m.coef_[0]]"
}

// refPoly is the reference of a one-feature polynomial regression: R² and RMSE.
func refPoly(target, feature string, degree int) string {
	return refSplit(target, []string{feature}, 0, 42) +
		"from sklearn.linear_model import LinearRegression\nfrom sklearn.metrics import r2_score, mean_squared_error\n" +
		fmt.Sprintf("from sklearn.preprocessing import PolynomialFeatures\npf = PolynomialFeatures(degree=%d, include_bias=False)\n", degree) +
		"m = LinearRegression().fit(pf.fit_transform(Xtr), ytr)\npr = m.predict(pf.transform(Xte))\n" +
		"[r2_score(yte, pr), mean_squared_error(yte, pr) ** 0.5]"
}

// refClassifier is the reference of a classifier: the accuracy and the confusion matrix.
func refClassifier(model, target string, features []string) string {
	return refSplit(target, features, 0.2, 42) +
		"from sklearn.linear_model import LogisticRegression\nfrom sklearn.tree import DecisionTreeClassifier\n" +
		"from sklearn.metrics import accuracy_score, confusion_matrix\n" +
		"m = " + model + ".fit(Xtr, ytr)\npr = m.predict(Xte)\n" +
		"[accuracy_score(yte, pr)] + confusion_matrix(yte, pr, labels=sorted(d['" + target + "'].unique())).ravel().tolist()"
}

// refKMeans is the reference of a k-means clustering: the cluster sizes, largest first.
func refKMeans(k int, features []string) string {
	return "from sklearn.cluster import KMeans\nd = df[['" + strings.Join(features, "', '") + "']].dropna()\n" +
		fmt.Sprintf("m = KMeans(n_clusters=%d, n_init=10, random_state=42).fit(d)\n", k) +
		"sorted(pd.Series(m.labels_).value_counts().tolist(), reverse=True)"
}

// refNaive is the reference of a naive forecast: the last observed value of the series.
func refNaive(date, col string) string {
	return "d = df[['" + date + "', '" + col + "']].dropna()\nd['" + date + "'] = pd.to_datetime(d['" + date + "'])\n" +
		"d.groupby('" + date + "')['" + col + "'].mean().sort_index().iloc[-1]"
}

func init() {
	split := []string{"test_size 0.2", "random_state 42"}
	all := []string{"no test split was asked for"}
	truthCorpus = append(truthCorpus, []truthCase{
		// Linear regression.
		{class: "models", files: "houses.csv", q: "linear regression of price on area_sqm", want: all,
			ref: refLinear("price", []string{"area_sqm"}, 0, 42)},
		{class: "models", files: "houses.csv", q: "fit a linear regression predicting price from area_sqm, bedrooms and bathrooms", want: all,
			ref: refLinear("price", []string{"area_sqm", "bedrooms", "bathrooms"}, 0, 42)},
		{class: "models", files: "houses.csv", q: "regress price on area_sqm and year_built with a 30% test set", want: []string{"test_size 0.3"},
			ref: refLinear("price", []string{"area_sqm", "year_built"}, 0.3, 42)},
		{class: "models", files: "houses.csv", q: "predict price from area_sqm", want: []string{"Linear regression"},
			ref: refLinear("price", []string{"area_sqm"}, 0, 42)},
		{class: "models", files: "insurance.csv", q: "linear model of charges using age, bmi and smoker", want: []string{"smoker_yes"},
			ref: refLinear("charges", []string{"age", "bmi", "smoker"}, 0, 42)},
		{class: "models", files: "students.csv", q: "linear regression: math_score ~ study_hours", want: all,
			ref: refLinear("math_score", []string{"study_hours"}, 0, 42)},
		{class: "models", files: "students.csv", q: "predict writing_score from reading_score and study_hours, random state 7", want: []string{"random_state 7"},
			ref: refLinear("writing_score", []string{"reading_score", "study_hours"}, 0.2, 7)},
		{class: "models", files: "happiness.csv", q: "regress Score on GDP per capita and Freedom", want: all,
			ref: refLinear("Score", []string{"GDP per capita", "Freedom"}, 0, 42)},
		{class: "models", files: "campaigns.csv", q: "linear regression of conversions on clicks and spend, test size 0.25", want: []string{"test_size 0.25"},
			ref: refLinear("conversions", []string{"clicks", "spend"}, 0.25, 42)},
		{class: "models", files: "salaries.csv", q: "predict salary from years_experience and age with a 70/30 split", want: []string{"test_size 0.3"},
			ref: refLinear("salary", []string{"years_experience", "age"}, 0.3, 42)},

		// Polynomial regression.
		{class: "models", files: "cars.csv", q: "polynomial regression of degree 2 of mpg on horsepower", want: []string{"degree 2"},
			ref: refPoly("mpg", "horsepower", 2)},
		{class: "models", files: "cars.csv", q: "quadratic fit of mpg vs weight", want: []string{"degree 2"}, ref: refPoly("mpg", "weight", 2)},
		{class: "models", files: "cars.csv", q: "cubic regression mpg on horsepower", want: []string{"degree 3"}, ref: refPoly("mpg", "horsepower", 3)},

		// Classifiers.
		{class: "models", files: "passengers.csv", q: "logistic regression predicting Survived from Age, Fare and Pclass", want: split,
			ref: refClassifier("LogisticRegression(max_iter=1000)", "Survived", []string{"Age", "Fare", "Pclass"})},
		{class: "models", files: "passengers.csv", q: "decision tree classifier predicting Survived from Pclass, Fare and Sex, max depth 3", want: []string{"max depth 3"},
			ref: refClassifier("DecisionTreeClassifier(max_depth=3, random_state=42)", "Survived", []string{"Pclass", "Fare", "Sex"})},
		{class: "models", files: "diabetes.csv", q: "logistic regression for Outcome using Glucose, BMI and Age", want: split,
			ref: refClassifier("LogisticRegression(max_iter=1000)", "Outcome", []string{"Glucose", "BMI", "Age"})},
		{class: "models", files: "diabetes.csv", q: "decision tree predicting Outcome from Glucose and BMI with max depth 3",
			ref: refClassifier("DecisionTreeClassifier(max_depth=3, random_state=42)", "Outcome", []string{"Glucose", "BMI"})},
		{class: "models", files: "flowers.csv", q: "decision tree classifier for species using petal_length and petal_width",
			ref: refClassifier("DecisionTreeClassifier(random_state=42)", "species", []string{"petal_length", "petal_width"})},
		{class: "models", files: "flowers.csv", q: "logistic regression to classify species from sepal_length and sepal_width",
			ref: refClassifier("LogisticRegression(max_iter=1000)", "species", []string{"sepal_length", "sepal_width"})},
		{class: "models", files: "wines.csv", q: "train a decision tree to classify color from alcohol, pH and density",
			ref: refClassifier("DecisionTreeClassifier(random_state=42)", "color", []string{"alcohol", "pH", "density"})},
		{class: "models", files: "insurance.csv", q: "fit a logistic regression of smoker on charges and bmi",
			ref: refClassifier("LogisticRegression(max_iter=1000)", "smoker", []string{"charges", "bmi"})},

		// k-means with the k asked.
		{class: "models", files: "flowers.csv", q: "k-means with 3 clusters on petal_length and petal_width", want: []string{"k = 3"},
			ref: refKMeans(3, []string{"petal_length", "petal_width"})},
		{class: "models", files: "houses.csv", q: "cluster the houses into 4 groups using area_sqm and price", want: []string{"k = 4"},
			ref: refKMeans(4, []string{"area_sqm", "price"})},
		{class: "models", files: "wines.csv", q: "kmeans k=2 on alcohol and residual_sugar", want: []string{"k = 2"},
			ref: refKMeans(2, []string{"alcohol", "residual_sugar"})},
		{class: "models", files: "students.csv", q: "k-means clustering, k = 3, on math_score and reading_score", want: []string{"k = 3"},
			ref: refKMeans(3, []string{"math_score", "reading_score"})},

		// Naive forecasts, labelled as such.
		{class: "models", files: "weather.csv", q: "naive forecast of temperature for the next 7 days", want: []string{"naive forecast", "not a model", "next 7"},
			ref: refNaive("date", "temperature")},
		{class: "models", files: "stocks.csv", q: "baseline forecast of AAPL for the next 5 days", want: []string{"naive forecast", "next 5"},
			ref: refNaive("Date", "AAPL")},
		{class: "models", files: "energy.csv", q: "naive forecast of consumption_kwh, 24 steps ahead", want: []string{"naive forecast", "next 24"},
			ref: refNaive("timestamp", "consumption_kwh")},
	}...)
}
