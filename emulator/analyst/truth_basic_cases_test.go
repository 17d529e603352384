package analyst

// Plain questions the rules already answered before the truth corpus: they hold the harness
// itself to account (a reference, a reply, a tolerance) and keep the basics from slipping.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		{class: "basic", files: "passengers.csv", q: "what is the average fare?", ref: "df['Fare'].mean()"},
		{class: "basic", files: "passengers.csv", q: "how many passengers are there?", ref: "len(df)"},
		{class: "basic", files: "salaries.csv", q: "median salary by department", ref: "df.groupby('department')['salary'].median().round(2).tolist()"},
		{class: "basic", files: "weather.csv", q: "maximum temperature", ref: "df['temperature'].max()"},
		{class: "basic", files: "houses.csv", q: "how many houses per neighborhood?", ref: "df['neighborhood'].value_counts().tolist()"},
		{class: "basic", files: "cars.csv", q: "average mpg by cylinders", ref: "df.groupby('cylinders')['mpg'].mean().tolist()"},
		{class: "entity", files: "happiness.csv", q: "which country has the highest score?", ref: "df.loc[df['Score'].idxmax(), 'Country']"},
	}...)
}
