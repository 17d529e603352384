package analyst

// Nearby questions about derived columns and preparation that the rules cannot read: each
// must be declined with what could be done instead, never answered as a nearby question.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "nearby", files: "passengers.csv", q: "create a column Title extracted from Name with a regex and count passengers per Title", decline: true},
		{class: "nearby", files: "passengers.csv", q: "fill missing ages by interpolation and give the mean age", decline: true},
		{class: "nearby", files: "passengers.csv", q: "forward-fill missing Age values and give the median", decline: true},
		{class: "nearby", files: "passengers.csv", q: "average fare by age group", decline: true},
		{class: "nearby", files: "passengers.csv", q: "add a new feature that flags passengers travelling alone, then its mean", decline: true},
		{class: "nearby", files: "passengers.csv", q: "bin Fare into some groups and give the mean Age per group", decline: true},
		{class: "nearby", files: "passengers.csv", q: "winsorize Fare at 5% and give the mean", decline: true},
		{class: "nearby", files: "insurance.csv", q: "create a binary column obese when bmi > 30 and give the mean charges for it", decline: true},
		{class: "nearby", files: "houses.csv", q: "add a column with the log of price and give its mean", decline: true},
		{class: "nearby", files: "students.csv", q: "round the average math_score to 2 significant figures", decline: true},
		{class: "nearby", files: "weather.csv", q: "scale temperature with a robust scaler and give the mean", decline: true},
		{class: "nearby", files: "flights.csv", q: "create a new variable delayed = arr_delay > 15 and give its mean", decline: true},
		{class: "nearby", files: "salaries.csv", q: "impute missing salaries using KNN and give the median salary", decline: true},
		{class: "nearby", files: "releases.csv", q: "add a column support_days = end_of_life - release_date and give the mean", decline: true},
		{class: "nearby", files: "wines.csv", q: "make a new column that is 1 when quality is at least 7 and its mean", decline: true},
		{class: "nearby", files: "cars.csv", q: "discretize horsepower using the Freedman-Diaconis rule and count cars per bin", decline: true},
		{class: "nearby", files: "energy.csv", q: "after interpolating the gaps, give the mean consumption_kwh", decline: true},
		{class: "nearby", files: "diabetes.csv", q: "fill missing Glucose with the group median by Outcome and give the mean Glucose", decline: true},
	}...)
}
