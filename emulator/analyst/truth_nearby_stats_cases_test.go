package analyst

// Nearby questions in tests, outliers and models that the rules cannot answer as asked: a
// method they do not run, a model they do not fit, a parameter they would have to guess. Each
// must be declined (or asked back), never answered with the nearest method the rules know.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "nearby", files: "passengers.csv", q: "run an Anderson-Darling test on Fare", decline: true},
		{class: "nearby", files: "insurance.csv", q: "jarque-bera test for normality of charges", decline: true},
		{class: "nearby", files: "weather.csv", q: "kolmogorov-smirnov test: is temperature normal?", decline: true},
		{class: "nearby", files: "salaries.csv", q: "levene's test for equal variances of salary by department", decline: true},
		{class: "nearby", files: "houses.csv", q: "anova of price by neighborhood followed by a tukey hsd post-hoc test", decline: true},
		{class: "nearby", files: "passengers.csv", q: "fisher's exact test for Sex and Survived", decline: true},
		{class: "nearby", files: "salaries.csv", q: "two-way anova of salary by department and gender", decline: true},
		{class: "nearby", files: "passengers.csv", q: "random forest predicting Survived from Age and Fare", decline: true},
		{class: "nearby", files: "houses.csv", q: "train a neural network to predict price from area_sqm", decline: true},
		{class: "nearby", files: "weather.csv", q: "ARIMA forecast of temperature for the next 30 days", decline: true},
		{class: "nearby", files: "stocks.csv", q: "forecast AAPL for next month", decline: true},
		{class: "nearby", files: "insurance.csv", q: "isolation forest to find outliers in charges", decline: true},
		{class: "nearby", files: "passengers.csv", q: "outliers in Fare by modified z-score", decline: true},
		{class: "nearby", files: "flowers.csv", q: "DBSCAN clustering of the flowers", decline: true},
		{class: "nearby", files: "flowers.csv", q: "cluster the flowers with k-means", decline: true},
		{class: "nearby", files: "diabetes.csv", q: "cross-validated accuracy of a logistic regression for Outcome using Glucose", decline: true},
		{class: "nearby", files: "diabetes.csv", q: "ROC AUC of a logistic regression predicting Outcome from Glucose and BMI", decline: true},
		{class: "nearby", files: "houses.csv", q: "lasso regression of price on area_sqm and bedrooms", decline: true},
		{class: "nearby", files: "insurance.csv", q: "is the effect of smoking on charges causal?", decline: true},
		{class: "nearby", files: "passengers.csv", q: "predict Survived from Age and Fare", decline: true},
		{class: "nearby", files: "salaries.csv", q: "bonferroni corrected t-tests of salary between all pairs of departments", decline: true},
		{class: "nearby", files: "vaccinations.csv", q: "naive forecast of daily_vaccinations for the next 7 days", decline: true},
		{class: "nearby", files: "salaries.csv", q: "t-test of salary by department", decline: true},
		{class: "nearby", files: "houses.csv", q: "outliers in price by neighborhood using z-score > 3", decline: true},
		{class: "nearby", files: "insurance.csv", q: "is the median of charges significantly different between regions?", decline: true},
		{class: "nearby", files: "flights.csv", q: "grubbs test for outliers in dep_delay", decline: true},
	}...)
}
