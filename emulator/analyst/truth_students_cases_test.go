package analyst

// Long-form questions over one file of students' scores, in the styles of data-analysis
// benchmarks: a column named "test_preparation" beside "the Shapiro-Wilk test", statistics of
// several columns per row, correlations within groups, one-sided z thresholds and columns of
// two labels. Each expected value is computed here by plain pandas and SciPy.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "derived", files: "students.csv", q: `Create a new column called performance that is "High" if math_score is above the mean math_score and "Low" otherwise. How many students have High performance? Format: @high_count[n]`,
			last: "f'@high_count[{int((df.math_score > df.math_score.mean()).sum())}]'"},
		{class: "conditions", files: "students.csv", q: "Calculate the Pearson correlation between study_hours and math_score for each gender. Format: @female_r[value], @male_r[value] rounded to 3 decimals.",
			last: "r = {k: st.pearsonr(p.study_hours, p.math_score)[0] for k, p in df.groupby('gender')}\nf\"@female_r[{r['female']:.3f}], @male_r[{r['male']:.3f}]\""},
		{class: "tests", files: "students.csv", q: "Perform a chi-square test of independence between gender and lunch. Report the p-value. Format: @p_value[p] rounded to 4 decimals.",
			last: "f'@p_value[{st.chi2_contingency(pd.crosstab(df.gender, df.lunch))[1]:.4f}]'"},
		{class: "tests", files: "students.csv", q: "Does study_hours follow a normal distribution? Use the Shapiro-Wilk test with alpha 0.05. Format: @is_normal[yes/no]",
			last: "f\"@is_normal[{'yes' if st.shapiro(df.study_hours)[1] >= 0.05 else 'no'}]\"", want: []string{"n = 350"}},
		{class: "derived", files: "students.csv", q: "Calculate the average of math_score, reading_score and writing_score for each student and report the mean of this average. Format: @mean_avg[value] rounded to 2 decimals.",
			last: "f\"@mean_avg[{df[['math_score', 'reading_score', 'writing_score']].mean(axis=1).mean():.2f}]\""},
		{class: "basic", files: "students.csv", q: "What is the mean of math_score, reading_score and writing_score?",
			ref: "[df.math_score.mean(), df.reading_score.mean(), df.writing_score.mean()]"},
		{class: "entity", files: "students.csv", q: "Which lunch type has the higher average writing_score? Format: @lunch[type]",
			last: "f\"@lunch[{df.groupby('lunch').writing_score.mean().idxmax()}]\""},
		{class: "conditions", files: "students.csv", q: "Calculate the variance of reading_score for female students. Format: @variance[value] rounded to 2 decimals.",
			last: "f\"@variance[{df[df.gender == 'female'].reading_score.var():.2f}]\""},
		{class: "outliers", files: "students.csv", q: "Standardize math_score using z-scores and count how many students have a z-score above 2. Format: @count[n]",
			last: "f'@count[{int((st.zscore(df.math_score) > 2).sum())}]'"},
		{class: "entity", files: "students.csv", q: "Find the top 3 students by study_hours and report their student ids.",
			ref: "df.sort_values('study_hours', ascending=False).head(3).student_id.tolist()"},
	}...)
}
