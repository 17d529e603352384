package analyst

// Long-form questions as benchmarks of data-analysis agents and analysts write them: the
// question, then constraints ("Constraints: …"), then an answer format whose placeholders are
// named for what they hold. The reply must end with exactly the format line, each placeholder
// filled with the value its name asks for, computed here independently with pandas and SciPy.
func init() {
	truthCorpus = append(truthCorpus,
		truthCase{class: "constraints", files: "passengers.csv",
			q:    "Identify the outliers in the Fare column using the IQR method (values below Q1 - 1.5*IQR or above Q3 + 1.5*IQR). How many outliers are there? Format: @outlier_count[count] where count is an integer.",
			last: "q1, q3 = df.Fare.quantile(0.25), df.Fare.quantile(0.75)\nn = int(((df.Fare < q1 - 1.5 * (q3 - q1)) | (df.Fare > q3 + 1.5 * (q3 - q1))).sum())\nf'@outlier_count[{n}]'"},
		truthCase{class: "constraints", files: "passengers.csv",
			q:    "Use the Shapiro-Wilk test to check whether the Age column is normally distributed, with a significance level of 0.05. Constraints: drop missing ages first. Format: @is_normal[yes or no] @p_value[p] where p is rounded to four decimal places.",
			last: "p = st.shapiro(df.Age.dropna()).pvalue\nf\"@is_normal[{'yes' if p >= 0.05 else 'no'}] @p_value[{p:.4f}]\""},
		truthCase{class: "constraints", files: "passengers.csv",
			q:    "Is there a significant correlation between Age and Fare? Calculate the Pearson correlation coefficient (r) and the p-value, and assess the significance at alpha = 0.05. Format: @correlation_coefficient[r_value] @p_value[p_value] @significant[\"Yes\" or \"No\"] where both numbers are rounded to 3 decimals.",
			last: "d = df[['Age', 'Fare']].dropna()\nr, p = st.pearsonr(d.Age, d.Fare)\nf\"@correlation_coefficient[{r:.3f}] @p_value[{p:.3f}] @significant[{'Yes' if p < 0.05 else 'No'}]\""},
		truthCase{class: "constraints", files: "passengers.csv",
			q:    "What is the skewness of the Fare column? Use scipy.stats.skew. Format: @fare_skewness[value] rounded to 2 decimals.",
			last: "f'@fare_skewness[{df.Fare.skew():.2f}]'"},
		truthCase{class: "constraints", files: "passengers.csv",
			q:    "What is the median age of female passengers in first class? Format: @median_age[value]",
			last: "v = df[(df.Sex == 'female') & (df.Pclass == 1)].Age.median()\nf'@median_age[{v:g}]'"},
		truthCase{class: "constraints", files: "insurance.csv",
			q:    "Train a linear regression model to predict charges from age and bmi with a test size of 0.3 and random_state 42. Report the RMSE on the test set. Constraints: use scikit-learn. Format: @rmse[value] rounded to two decimals.",
			ref:  "from sklearn.linear_model import LinearRegression\nfrom sklearn.model_selection import train_test_split\nd = df[['age', 'bmi', 'charges']].dropna()\na, b, c, e = train_test_split(d[['age', 'bmi']], d.charges, test_size=0.3, random_state=42)\nm = LinearRegression().fit(a, c)\nround(float(np.sqrt(((m.predict(b) - e) ** 2).mean())), 2)",
			want: []string{"@rmse["}},
		truthCase{class: "constraints", files: "houses.csv",
			q:   "How many houses were built before 1990? Output your answer as a single integer.",
			ref: "int((df.year_built < 1990).sum())"},
	)
}
