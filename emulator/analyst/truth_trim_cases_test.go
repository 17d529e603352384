package analyst

// Preparations the long form asks before a statistic, and statistics it names: outliers
// removed by a rule, a log transform, the mean and median absolute deviations, a confidence
// interval of a mean, and the ratio of two values' results. Each expected value is computed
// here by plain pandas and SciPy.
func init() {
	const iqrKeep = "q1, q3 = df['charges'].quantile([0.25, 0.75]); iqr = q3 - q1\n" +
		"t = df[df['charges'].between(q1 - 1.5 * iqr, q3 + 1.5 * iqr)]\n"
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "constraints", files: "insurance.csv", q: "Calculate the mean charges after removing outliers from the charges column using the IQR method. Format: @mean_charges[value] rounded to 2 decimals.",
			last: iqrKeep + "f'@mean_charges[{t.charges.mean():.2f}]'", want: []string{"Removed the", "outliers of `charges`"}},
		{class: "constraints", files: "insurance.csv", q: "How many rows remain after removing outliers from charges using the IQR method? Format: @rows[n]",
			last: iqrKeep + "f'@rows[{len(t)}]'", want: []string{"remain"}},
		{class: "constraints", files: "insurance.csv", q: "Calculate the mean charges after removing outliers.",
			ref: iqrKeep + "t.charges.mean()", want: []string{"1.5×IQR rule as no rule was named"}},
		{class: "constraints", files: "insurance.csv", q: "Remove outliers in bmi using the z-score method with a threshold of 3, then calculate the average bmi. Format: @avg_bmi[value] rounded to 2 decimals.",
			last: "z = st.zscore(df['bmi'])\nf'@avg_bmi[{df.bmi[abs(z) <= 3].mean():.2f}]'", want: []string{"|z| > 3"}},
		{class: "constraints", files: "insurance.csv", q: "After removing outliers from age and bmi (z-score greater than 3), what is the correlation between age and bmi?",
			ref: "za, zb = st.zscore(df['age']), st.zscore(df['bmi'])\nt = df[(abs(za) <= 3) & (abs(zb) <= 3)]\nt['age'].corr(t['bmi'])"},
		{class: "constraints", files: "passengers.csv", q: "is Fare normally distributed after removing outliers?",
			ref:  "q1, q3 = df['Fare'].quantile([0.25, 0.75]); iqr = q3 - q1\nint((~df['Fare'].between(q1 - 1.5 * iqr, q3 + 1.5 * iqr)).sum())",
			want: []string{"not normally distributed", "Removed the"}},
		{class: "outliers", files: "insurance.csv", q: "Identify and remove outliers in the charges column using the IQR method. How many outliers were removed? Format: @n_outliers[n]",
			last: iqrKeep + "f'@n_outliers[{len(df) - len(t)}]'"},
		{class: "constraints", files: "insurance.csv", q: "Apply a natural log transformation to the charges column and calculate the skewness of the transformed values. Format: @skewness[value] rounded to 3 decimals.",
			last: "f'@skewness[{np.log(df.charges).skew():.3f}]'", want: []string{"natural logarithm"}},
		{class: "constraints", files: "insurance.csv", q: "What is the skewness of the log-transformed charges?",
			ref: "np.log(df.charges).skew()", want: []string{"natural logarithm"}},
		{class: "constraints", files: "houses.csv", q: "Log-transform price and report its mean. Format: @mean_log[value] rounded to 4 decimals.",
			last: "f'@mean_log[{np.log(df.price).mean():.4f}]'"},
		{class: "constraints", files: "insurance.csv", q: "What is the mean absolute deviation of age? Format: @mad[value] rounded to 2 decimals.",
			last: "f'@mad[{(df.age - df.age.mean()).abs().mean():.2f}]'"},
		{class: "constraints", files: "insurance.csv", q: "What is the mean absolute deviation (MAD) of age?",
			ref: "(df.age - df.age.mean()).abs().mean()"},
		{class: "constraints", files: "insurance.csv", q: "Calculate the median absolute deviation of bmi.",
			ref: "st.median_abs_deviation(df.bmi)"},
		{class: "nearby", files: "insurance.csv", q: "Find outliers in bmi using the median absolute deviation.", decline: true},
		{class: "tests", files: "insurance.csv", q: "Calculate the 95% confidence interval for the mean of bmi. Format: @lower[value], @upper[value] rounded to 2 decimals.",
			last: "lo, hi = st.t.interval(0.95, len(df) - 1, loc=df.bmi.mean(), scale=st.sem(df.bmi))\nf'@lower[{lo:.2f}], @upper[{hi:.2f}]'"},
		{class: "tests", files: "insurance.csv", q: "What is the 99% confidence interval of the average charges?",
			ref: "list(st.t.interval(0.99, len(df) - 1, loc=df.charges.mean(), scale=st.sem(df.charges)))", want: []string{"99% confidence interval"}},
		{class: "conditions", files: "insurance.csv", q: "What is the ratio of smokers to non-smokers? Format: @ratio[value] rounded to 3 decimals.",
			last: "c = df.smoker.value_counts()\nf\"@ratio[{c['yes'] / c['no']:.3f}]\""},
		{class: "conditions", files: "insurance.csv", q: "What is the ratio of the average charges of smokers to non-smokers?",
			ref: "m = df.groupby('smoker').charges.mean()\nm['yes'] / m['no']"},
		{class: "conditions", files: "insurance.csv", q: "What is the difference between the average charges of smokers and non-smokers?",
			ref: "m = df.groupby('smoker').charges.mean()\nm['yes'] - m['no']"},
		{class: "conditions", files: "insurance.csv", q: "What is the difference in average bmi between males and females? Format: @difference[value] rounded to 2 decimals.",
			last: "m = df.groupby('sex').bmi.mean()\nf\"@difference[{m['male'] - m['female']:.2f}]\""},
		{class: "conditions", files: "insurance.csv", q: "How many males and females are there?",
			ref: "[int((df.sex == 'male').sum()), int((df.sex == 'female').sum())]"},
		{class: "conditions", files: "insurance.csv", q: "How many smokers and non-smokers are there?",
			ref: "[int((df.smoker == 'yes').sum()), int((df.smoker == 'no').sum())]"},
	}...)
}
