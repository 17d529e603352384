package analyst

// DataBench-style plain questions over one file of houses: yes/no questions answered Yes or
// No first, a median year written as a year, the correlation asked as a yes/no question
// answered by its test. Each expected value is computed here by plain pandas and SciPy.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "basic", files: "houses.csv", q: "Is there any house with more than 5 bedrooms?",
			ref: "['Yes' if (df.bedrooms > 5).any() else 'No', int((df.bedrooms > 5).sum())]"},
		{class: "basic", files: "houses.csv", q: "Are all houses built after 1900?",
			ref: "'Yes' if (df.year_built > 1900).all() else 'No'"},
		{class: "entity", files: "houses.csv", q: "Does the house with the largest area also have the most bedrooms?",
			ref: "'Yes' if df.loc[df.area_sqm.idxmax(), 'bedrooms'] == df.bedrooms.max() else 'No'"},
		{class: "conditions", files: "houses.csv", q: "Is the average price of houses in Old Town above 300000?",
			ref: "m = df[df.neighborhood == 'Old Town'].price.mean()\n['Yes' if m > 300000 else 'No', m]"},
		{class: "conditions", files: "houses.csv", q: "What is the median year_built of houses in Riverside?",
			ref: "df[df.neighborhood == 'Riverside'].year_built.median()", want: []string{"1969.5"}},
		{class: "tests", files: "houses.csv", q: "Is there a correlation between area_sqm and price?",
			ref: "['Yes' if st.pearsonr(df.area_sqm, df.price)[1] < 0.05 else 'No', df.area_sqm.corr(df.price)]"},
		{class: "entity", files: "houses.csv", q: "Do houses in Riverside cost more on average than houses in Old Town?",
			ref: "m = df.groupby('neighborhood').price.mean()\n['Yes' if m['Riverside'] > m['Old Town'] else 'No', m['Old Town']]"},
		{class: "conditions", files: "houses.csv", q: "What percentage of houses have at least 2 bathrooms?",
			ref: "100 * (df.bathrooms >= 2).mean()"},
		{class: "conditions", files: "houses.csv", q: "How many houses were built before 1950?",
			ref: "int((df.year_built < 1950).sum())", want: []string{"rows** of the 500"}, avoid: []string{"Using the"}},
	}...)
}
