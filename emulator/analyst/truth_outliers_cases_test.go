package analyst

// Outliers by the rule asked: z-scores (scipy's, population standard deviation), IQR
// multiples, percentile bounds; 1.5×IQR only when no rule is named. Each reference counts the
// outliers itself and names one of the rows the reply must list.

// Reference snippets: the z-scores and the Tukey fences of a column s.
const (
	refZ   = "z = np.abs(st.zscore(s, nan_policy='omit'))\n"
	refIQR = "q1, q3 = s.quantile([0.25, 0.75])\n"
)

func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		// Z-score rules.
		{class: "outliers", files: "passengers.csv", q: "find outliers in Fare using z-score > 3", want: []string{"|z| > 3"},
			ref: "s = df['Fare']\n" + refZ + "[int((z > 3).sum()), float(s[z > 3].max())]"},
		{class: "outliers", files: "insurance.csv", q: "which rows have a z-score above 2.5 for charges?", want: []string{"rule z > 2.5"}, // above, as said: no outliers are named
			ref: "s = df['charges']\n" + refZ + "[int((z > 2.5).sum()), float(s[z > 2.5].max())]"},
		{class: "outliers", files: "weather.csv", q: "outliers in wind_speed with |z| > 3", want: []string{"|z| > 3"}, avoid: []string{"wind_dir is"},
			ref: "s = df['wind_speed']\n" + refZ + "[int((z > 3).sum()), float(s[z > 3].max())]"},
		{class: "outliers", files: "flights.csv", q: "z-score outliers in dep_delay, threshold 2", want: []string{"|z| > 2"},
			ref: "s = df['dep_delay']\n" + refZ + "[int((z > 2).sum()), float(s[z > 2].max())]"},
		{class: "outliers", files: "houses.csv", q: "count the outliers in price by z-score", want: []string{"|z| > 3", "usual threshold"},
			ref: "s = df['price']\n" + refZ + "int((z > 3).sum())"},
		{class: "outliers", files: "weather.csv", q: "how many temperature readings are more than 3 standard deviations from the mean?", want: []string{"|z| > 3"},
			ref: "s = df['temperature']\n" + refZ + "int((z > 3).sum())"},
		{class: "outliers", files: "flights.csv", q: "flag arr_delay values beyond 2 sigma", want: []string{"|z| > 2"},
			ref: "s = df['arr_delay']\n" + refZ + "[int((z > 2).sum()), float(s[z > 2].max())]"},
		{class: "outliers", files: "happiness.csv", q: "z-score outliers in Score at 2", want: []string{"|z| > 2"},
			ref: "s = df['Score']\n" + refZ + "[int((z > 2).sum()), float(s[z > 2].min())]"},
		{class: "outliers", files: "campaigns.csv", q: "any anomalies in spend with a z score threshold of 1.5?", want: []string{"|z| > 1.5"},
			ref: "s = df['spend']\n" + refZ + "[int((z > 1.5).sum()), float(s[z > 1.5].max())]"},
		{class: "outliers", files: "vaccinations.csv", q: "daily_vaccinations outliers, zscore > 3", want: []string{"|z| > 3"},
			ref: "s = df['daily_vaccinations']\n" + refZ + "[int((z > 3).sum()), float(s[z > 3].max())]"},
		{class: "outliers", files: "stocks.csv", q: "outliers in Volume by z-score with k=2", want: []string{"|z| > 2"},
			ref: "s = df['Volume']\n" + refZ + "int((z > 2).sum())"},
		{class: "outliers", files: "cars.csv", q: "cars whose horsepower is more than 2.5 standard deviations from the mean", want: []string{"|z| > 2.5"},
			ref: "s = df['horsepower']\n" + refZ + "int((z > 2.5).sum())"},
		{class: "outliers", files: "diabetes.csv", q: "z-score outliers (|z|>3) in BloodPressure", want: []string{"|z| > 3"},
			ref: "s = df['BloodPressure']\n" + refZ + "int((z > 3).sum())"},
		{class: "outliers", files: "genes.csv", q: "find outliers in expr_treated with z-scores above 2", want: []string{"|z| > 2"},
			ref: "s = df['expr_treated']\n" + refZ + "[int((z > 2).sum()), float(s[z > 2].min())]"},
		{class: "outliers", files: "salaries.csv", q: "salary outliers using a z-score cutoff of 2.5", want: []string{"|z| > 2.5"},
			ref: "s = df['salary']\n" + refZ + "int((z > 2.5).sum())"},

		// IQR rules.
		{class: "outliers", files: "insurance.csv", q: "outliers by IQR in charges", want: []string{"1.5 × IQR"},
			ref: "s = df['charges']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},
		{class: "outliers", files: "campaigns.csv", q: "outliers in clicks using 3 times the IQR", want: []string{"3 × IQR"},
			ref: "s = df['clicks']\n" + refIQR + "int(((s < q1 - 3 * (q3 - q1)) | (s > q3 + 3 * (q3 - q1))).sum())"},
		{class: "outliers", files: "campaigns.csv", q: "IQR rule with k = 3 on conversions", want: []string{"3 × IQR"},
			ref: "s = df['conversions']\n" + refIQR + "m = (s < q1 - 3 * (q3 - q1)) | (s > q3 + 3 * (q3 - q1))\n[int(m.sum()), float(s[m].max())]"},
		{class: "outliers", files: "passengers.csv", q: "extreme outliers (3 IQR) in Fare", want: []string{"3 × IQR"},
			ref: "s = df['Fare']\n" + refIQR + "m = (s < q1 - 3 * (q3 - q1)) | (s > q3 + 3 * (q3 - q1))\n[int(m.sum()), float(s[m].max())]"},
		{class: "outliers", files: "flights.csv", q: "dep_delay outliers with the 1.5 IQR rule", want: []string{"1.5 × IQR"},
			ref: "s = df['dep_delay']\n" + refIQR + "m = (s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))\n[int(m.sum()), float(s[m].max())]"},
		{class: "outliers", files: "weather.csv", q: "precipitation outliers, interquartile range times 2", want: []string{"2 × IQR"},
			ref: "s = df['precipitation']\n" + refIQR + "int(((s < q1 - 2 * (q3 - q1)) | (s > q3 + 2 * (q3 - q1))).sum())"},
		{class: "outliers", files: "vaccinations.csv", q: "Tukey fences outliers for total_vaccinations", want: []string{"1.5 × IQR"},
			ref: "s = df['total_vaccinations']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},

		// Percentile bounds.
		{class: "outliers", files: "vaccinations.csv", q: "values above the 99th percentile of daily_vaccinations", want: []string{"99th percentile"},
			ref: "s = df['daily_vaccinations']\n[int((s > s.quantile(0.99)).sum()), s.quantile(0.99)]"},
		{class: "outliers", files: "weather.csv", q: "outliers outside the 5th and 95th percentiles of precipitation", want: []string{"5th to 95th"},
			ref: "s = df['precipitation']\nint(((s < s.quantile(0.05)) | (s > s.quantile(0.95))).sum())"},
		{class: "outliers", files: "weather.csv", q: "temperature outliers below the 1st percentile", want: []string{"below the 1st percentile"},
			ref: "s = df['temperature']\n[int((s < s.quantile(0.01)).sum()), s.quantile(0.01)]"},
		{class: "outliers", files: "houses.csv", q: "flag prices beyond the 97.5th percentile as outliers", want: []string{"97.5th percentile"},
			ref: "s = df['price']\n[int((s > s.quantile(0.975)).sum()), s.quantile(0.975)]"},
		{class: "outliers", files: "insurance.csv", q: "outliers in bmi by percentile, 2.5th", want: []string{"2.5th to 97.5th"},
			ref: "s = df['bmi']\nint(((s < s.quantile(0.025)) | (s > s.quantile(0.975))).sum())"},
		{class: "outliers", files: "energy.csv", q: "consumption_kwh outliers beyond the 1st and 99th percentiles", want: []string{"1st to 99th"},
			ref: "s = df['consumption_kwh']\nint(((s < s.quantile(0.01)) | (s > s.quantile(0.99))).sum())"},

		// Every numeric column, by the rule asked.
		{class: "outliers", files: "diabetes.csv", q: "count z-score outliers in every numeric column", want: []string{"|z| > 3"},
			ref: "[int((np.abs(st.zscore(df[c], nan_policy='omit')) > 3).sum()) for c in ['Glucose', 'BMI', 'BloodPressure']]"},
		{class: "outliers", files: "wines.csv", q: "IQR outliers (k=3) in all columns", want: []string{"3 × IQR"},
			ref: "def n(s):\n    q1, q3 = s.quantile([0.25, 0.75])\n    return int(((s < q1 - 3 * (q3 - q1)) | (s > q3 + 3 * (q3 - q1))).sum())\n[n(df[c]) for c in ['residual_sugar', 'alcohol']]"},

		// No rule named: 1.5×IQR, as before.
		{class: "outliers", files: "passengers.csv", q: "outliers in Fare", want: []string{"1.5 × IQR"},
			ref: "s = df['Fare']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},
		{class: "outliers", files: "weather.csv", q: "any unusual wind speeds?", want: []string{"1.5 × IQR"},
			ref: "s = df['wind_speed']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},
		{class: "outliers", files: "houses.csv", q: "are there anomalies in area_sqm", want: []string{"1.5 × IQR"},
			ref: "s = df['area_sqm']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},
		{class: "outliers", files: "cars.csv", q: "outliers in weight", want: []string{"1.5 × IQR"},
			ref: "s = df['weight']\n" + refIQR + "int(((s < q1 - 1.5 * (q3 - q1)) | (s > q3 + 1.5 * (q3 - q1))).sum())"},
		{class: "outliers", files: "students.csv", q: "Z-score based outliers in math_score (threshold 2.5)", want: []string{"|z| > 2.5"},
			ref: "s = df['math_score']\n" + refZ + "int((z > 2.5).sum())"},
		{class: "outliers", files: "stocks.csv", q: "which days had AAPL more than 2 sigma from its mean?", want: []string{"|z| > 2"},
			ref: "s = df['AAPL']\n" + refZ + "int((z > 2).sum())"},
	}...)
}
