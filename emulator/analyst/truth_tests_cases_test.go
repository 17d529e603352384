package analyst

// Tests and distribution shape: each reference computes the statistic and the p-value with
// scipy as an analyst would, and states the verdict in the words the reply must use, so that
// the verdict is judged from the reference's own p-value, never from the analyst's.

// Verdict phrases the references return, chosen by their own p-value.
const (
	refNormal = "'not normally distributed' if pv < a else 'looks normally distributed'"
	refSignif = "'is statistically significant' if pv < a else 'is not statistically significant'"
)

func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		// Normality: Shapiro–Wilk (n ≤ 5,000), or the test named.
		{class: "tests", files: "passengers.csv", q: "Is Fare normally distributed?", want: []string{"shapiro", "n = 600"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['Fare'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "diabetes.csv", q: "does Glucose follow a normal distribution?", want: []string{"shapiro"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['Glucose'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "weather.csv", q: "check normality of humidity", want: []string{"shapiro"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['humidity'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "weather.csv", q: "shapiro-wilk test on temperature", want: []string{"shapiro"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['temperature'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "insurance.csv", q: "is bmi gaussian?",
			ref: "a = 0.05\nW, pv = st.shapiro(df['bmi'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "insurance.csv", q: "are the charges normally distributed? use alpha 0.01", want: []string{"α = 0.01"},
			ref: "a = 0.01\nW, pv = st.shapiro(df['charges'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "wines.csv", q: "test alcohol for normality at the 1% level", want: []string{"α = 0.01"},
			ref: "a = 0.01\nW, pv = st.shapiro(df['alcohol'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "wines.csv", q: "is density normally distributed", avoid: []string{"not normally"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['density'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "students.csv", q: "hey, quick one: is math_score normal?",
			ref: "a = 0.05\nW, pv = st.shapiro(df['math_score'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "happiness.csv", q: "Is the happiness Score normally distributed at alpha = 0.1?", want: []string{"α = 0.1"},
			ref: "a = 0.1\nW, pv = st.shapiro(df['Score'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "flights.csv", q: "is dep_delay normally distributed? use D'Agostino", want: []string{"D'Agostino", "as asked"},
			ref: "a = 0.05\nK, pv = st.normaltest(df['dep_delay'].dropna())\n[K, pv, " + refNormal + "]"},
		{class: "tests", files: "energy.csv", q: "normality test for outdoor_temp",
			ref: "a = 0.05\nW, pv = st.shapiro(df['outdoor_temp'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "flowers.csv", q: "is sepal_width normally distributed for each species?", want: []string{"species = setosa"},
			ref: "a = 0.05\nps = [st.shapiro(g.dropna())[1] for _, g in df.groupby('species')['sepal_width']]\nps"},
		{class: "tests", files: "genes.csv", q: "Is expr_control normally distributed (Shapiro-Wilk)?", want: []string{"shapiro", "as asked"},
			ref: "a = 0.05\nW, pv = st.shapiro(df['expr_control'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "cars.csv", q: "can I assume mpg is normally distributed?",
			ref: "a = 0.05\nW, pv = st.shapiro(df['mpg'].dropna())\n[W, pv, " + refNormal + "]"},
		{class: "tests", files: "salaries.csv", q: "is salary normally distributed at 0.01 significance?", want: []string{"α = 0.01"},
			ref: "a = 0.01\nW, pv = st.shapiro(df['salary'].dropna())\n[W, pv, " + refNormal + "]"},

		// Skewness and kurtosis, as pandas computes them.
		{class: "tests", files: "passengers.csv", q: "skewness of Fare", want: []string{"highly right-skewed"}, ref: "df['Fare'].skew()"},
		{class: "tests", files: "insurance.csv", q: "how skewed are the charges?", want: []string{"moderately right-skewed"}, ref: "df['charges'].skew()"},
		{class: "tests", files: "weather.csv", q: "kurtosis of wind_speed", want: []string{"heavier tails"}, ref: "df['wind_speed'].kurt()"},
		{class: "tests", files: "flights.csv", q: "skewness and kurtosis of dep_delay", want: []string{"right-skewed", "leptokurtic"},
			ref: "[df['dep_delay'].skew(), df['dep_delay'].kurt()]"},
		{class: "tests", files: "houses.csv", q: "is the price distribution symmetric?", want: []string{"approximately symmetric"}, ref: "df['price'].skew()"},
		{class: "tests", files: "campaigns.csv", q: "what's the skew of conversions", want: []string{"highly right-skewed"}, ref: "df['conversions'].skew()"},
		{class: "tests", files: "stocks.csv", q: "kurtosis of Volume please", want: []string{"platykurtic"}, ref: "df['Volume'].kurt()"},
		{class: "tests", files: "vaccinations.csv", q: "skewness of daily_vaccinations", want: []string{"highly right-skewed"}, ref: "df['daily_vaccinations'].skew()"},
		{class: "tests", files: "wines.csv", q: "Skewness and kurtosis of residual_sugar?", want: []string{"approximately symmetric", "mesokurtic"},
			ref: "[df['residual_sugar'].skew(), df['residual_sugar'].kurt()]"},

		// Two groups: Welch's t-test unless Student's is asked; Mann–Whitney U when asked.
		{class: "tests", files: "passengers.csv", q: "is the difference in Fare between male and female passengers significant?", want: []string{"welch"},
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.Sex == 'male', 'Fare'], df.loc[df.Sex == 'female', 'Fare'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "insurance.csv", q: "t-test of charges by smoker", want: []string{"welch"},
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.smoker == 'no', 'charges'], df.loc[df.smoker == 'yes', 'charges'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "students.csv", q: "does lunch make a significant difference to math_score?",
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.lunch == 'free/reduced', 'math_score'], df.loc[df.lunch == 'standard', 'math_score'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "salaries.csv", q: "is the salary difference between genders statistically significant?",
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.gender == 'F', 'salary'], df.loc[df.gender == 'M', 'salary'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "insurance.csv", q: "is there a significant difference in bmi between male and female at alpha 0.01?", want: []string{"α = 0.01"},
			ref: "a = 0.01\nt, pv = st.ttest_ind(df.loc[df.sex == 'male', 'bmi'], df.loc[df.sex == 'female', 'bmi'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "students.csv", q: "student's t-test reading_score by lunch, assuming equal variances", want: []string{"Student's t-test"},
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.lunch == 'free/reduced', 'reading_score'], df.loc[df.lunch == 'standard', 'reading_score'])\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "wines.csv", q: "is alcohol significantly different between red and white wines?",
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.color == 'red', 'alcohol'], df.loc[df.color == 'white', 'alcohol'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "genes.csv", q: "compare expr_treated between chr1 and chr2 - is the difference significant?",
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.chromosome == 'chr1', 'expr_treated'], df.loc[df.chromosome == 'chr2', 'expr_treated'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "insurance.csv", q: "mann-whitney u test of charges by smoker", want: []string{"Mann–Whitney"},
			ref: "a = 0.05\nU, pv = st.mannwhitneyu(df.loc[df.smoker == 'no', 'charges'], df.loc[df.smoker == 'yes', 'charges'], alternative='two-sided')\n[U, pv, " + refSignif + "]"},
		{class: "tests", files: "salaries.csv", q: "Mann Whitney test: salary by gender", want: []string{"Mann–Whitney"},
			ref: "a = 0.05\nU, pv = st.mannwhitneyu(df.loc[df.gender == 'F', 'salary'], df.loc[df.gender == 'M', 'salary'], alternative='two-sided')\n[U, pv, " + refSignif + "]"},
		{class: "tests", files: "diabetes.csv", q: "is Glucose significantly different by Outcome?",
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.Outcome == 0, 'Glucose'], df.loc[df.Outcome == 1, 'Glucose'], equal_var=False)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "passengers.csv", q: "is Fare significantly higher for female than for male passengers?", want: []string{"one-sided"},
			ref: "a = 0.05\nt, pv = st.ttest_ind(df.loc[df.Sex == 'female', 'Fare'], df.loc[df.Sex == 'male', 'Fare'], equal_var=False, alternative='greater')\n[t, pv, " + refSignif + "]"},

		// Many groups: one-way ANOVA, or Kruskal–Wallis when asked.
		{class: "tests", files: "salaries.csv", q: "is there a significant difference in salary across departments?", want: []string{"anova"},
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g.dropna() for _, g in df.groupby('department')['salary']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "houses.csv", q: "one-way anova of price by neighborhood", want: []string{"anova"},
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g for _, g in df.groupby('neighborhood')['price']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "flowers.csv", q: "ANOVA: sepal_length across species", want: []string{"anova"},
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g for _, g in df.groupby('species')['sepal_length']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "flights.csv", q: "kruskal-wallis test of arr_delay by carrier", want: []string{"Kruskal"},
			ref: "a = 0.05\nH, pv = st.kruskal(*[g for _, g in df.groupby('carrier')['arr_delay']])\n[H, pv, " + refSignif + "]"},
		{class: "tests", files: "insurance.csv", q: "do charges differ significantly by region?",
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g for _, g in df.groupby('region')['charges']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "cars.csv", q: "anova of mpg by origin at alpha 0.01", want: []string{"α = 0.01"},
			ref: "a = 0.01\nF, pv = st.f_oneway(*[g for _, g in df.groupby('origin')['mpg']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "happiness.csv", q: "Does Score vary significantly between regions? run an ANOVA",
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g for _, g in df.groupby('Region')['Score']])\n[F, pv, " + refSignif + "]"},
		{class: "tests", files: "passengers.csv", q: "one way anova Fare by Pclass",
			ref: "a = 0.05\nF, pv = st.f_oneway(*[g for _, g in df.groupby('Pclass')['Fare']])\n[F, pv, " + refSignif + "]"},

		// One sample against a value.
		{class: "tests", files: "insurance.csv", q: "is the mean bmi significantly different from 30?", want: []string{"one-sample"},
			ref: "a = 0.05\nt, pv = st.ttest_1samp(df['bmi'], 30)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "cars.csv", q: "one-sample t-test: is average mpg different from 25?",
			ref: "a = 0.05\nt, pv = st.ttest_1samp(df['mpg'], 25)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "students.csv", q: "is the mean math_score significantly greater than 65?", want: []string{"one-sided"},
			ref: "a = 0.05\nt, pv = st.ttest_1samp(df['math_score'], 65, alternative='greater')\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "weather.csv", q: "test whether the average temperature differs from 10",
			ref: "a = 0.05\nt, pv = st.ttest_1samp(df['temperature'].dropna(), 10)\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "wines.csv", q: "t-test fixed_acidity against 7",
			ref: "a = 0.05\nt, pv = st.ttest_1samp(df['fixed_acidity'], 7)\n[t, pv, " + refSignif + "]"},

		// Paired.
		{class: "tests", files: "genes.csv", q: "paired t-test between expr_control and expr_treated", want: []string{"paired t-test"},
			ref: "a = 0.05\nt, pv = st.ttest_rel(df['expr_control'], df['expr_treated'])\n[t, pv, " + refSignif + "]"},
		{class: "tests", files: "genes.csv", q: "wilcoxon signed-rank test expr_control vs expr_treated", want: []string{"Wilcoxon"},
			ref: "a = 0.05\nW, pv = st.wilcoxon(df['expr_control'], df['expr_treated'])\n[W, pv, " + refSignif + "]"},
		{class: "tests", files: "students.csv", q: "paired test of reading_score and writing_score at alpha 0.01",
			ref: "a = 0.01\nt, pv = st.ttest_rel(df['reading_score'], df['writing_score'])\n[t, pv, " + refSignif + "]"},

		// Chi-square of independence.
		{class: "tests", files: "insurance.csv", q: "chi-square test of independence between sex and smoker", want: []string{"chi-square"},
			ref: "a = 0.05\nc, pv, dof, e = st.chi2_contingency(pd.crosstab(df.sex, df.smoker))\n[c, pv, " +
				"'are associated' if pv < a else 'look independent']"},
		{class: "tests", files: "passengers.csv", q: "is Survived independent of Pclass?",
			ref: "a = 0.05\nc, pv, dof, e = st.chi2_contingency(pd.crosstab(df.Survived, df.Pclass))\n[c, pv, dof, " +
				"'are associated' if pv < a else 'look independent']"},
		{class: "tests", files: "students.csv", q: "chi2 test lunch vs test_preparation",
			ref: "a = 0.05\nc, pv, dof, e = st.chi2_contingency(pd.crosstab(df.lunch, df.test_preparation))\n[c, pv, " +
				"'are associated' if pv < a else 'look independent']"},
		{class: "tests", files: "salaries.csv", q: "are department and work_mode associated? chi square please",
			ref: "a = 0.05\nc, pv, dof, e = st.chi2_contingency(pd.crosstab(df.department, df.work_mode))\n[c, pv, dof, " +
				"'are associated' if pv < a else 'look independent']"},
		{class: "tests", files: "passengers.csv", q: "is there a significant association between Sex and Survived?",
			ref: "a = 0.05\nc, pv, dof, e = st.chi2_contingency(pd.crosstab(df.Sex, df.Survived))\n[c, pv, " +
				"'are associated' if pv < a else 'look independent']"},

		// Correlation tests.
		{class: "tests", files: "cars.csv", q: "is the correlation between horsepower and mpg significant?", want: []string{"pearson"},
			ref: "a = 0.05\nr, pv = st.pearsonr(df.horsepower, df.mpg)\n[r, pv, " + refSignif + "]"},
		{class: "tests", files: "students.csv", q: "spearman correlation between study_hours and math_score with p-value", want: []string{"spearman", "ρ"},
			ref: "a = 0.05\nr, pv = st.spearmanr(df.study_hours, df.math_score)\n[r, pv, " + refSignif + "]"},
		// Kendall's tau asked without a test: the coefficient, as a correlation is answered.
		{class: "tests", files: "wines.csv", q: "kendall tau between alcohol and quality", want: []string{"kendall"},
			ref: "st.kendalltau(df.alcohol, df.quality)[0]"},
		{class: "tests", files: "houses.csv", q: "is the relationship between area_sqm and price linear?", want: []string{"Yes", "strong positive linear"},
			ref: "r, pv = st.pearsonr(df.area_sqm, df.price)\n[r, pv]"},
		{class: "tests", files: "happiness.csv", q: "pearson correlation test of GDP per capita and Score", want: []string{"pearson"},
			ref: "a = 0.05\nr, pv = st.pearsonr(df['GDP per capita'], df['Score'])\n[r, pv, " + refSignif + "]"},
		{class: "tests", files: "flights.csv", q: "is there a significant correlation between distance and arr_delay? use Spearman", want: []string{"spearman"},
			ref: "a = 0.05\nr, pv = st.spearmanr(df.distance, df.arr_delay)\n[r, pv, " + refSignif + "]"},
		{class: "tests", files: "weather.csv", q: "Are temperature and humidity linearly related?",
			ref: "r, pv = st.pearsonr(df.temperature, df.humidity)\n[r, 'not linear' if abs(r) < 0.2 else 'linear relationship']"},
		{class: "tests", files: "diabetes.csv", q: "is the correlation of BMI with Glucose significant at the 1% level?", want: []string{"α = 0.01"},
			ref: "a = 0.01\nr, pv = st.pearsonr(df.BMI, df.Glucose)\n[r, pv, " + refSignif + "]"},
	}...)
}
