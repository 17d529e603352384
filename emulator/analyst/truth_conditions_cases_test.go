package analyst

// Conditions, which-entity questions, the loader's harder files and follow-ups: the classes
// where the rules misread a filter, answered a value for an entity, or dropped a new
// dimension of a follow-up.
func init() {
	truthCorpus = append(truthCorpus, []truthCase{
		// conditions
		{class: "conditions", files: "passengers.csv", q: "average fare of female passengers", ref: "df[df.Sex == 'female'].Fare.mean()"},
		// a measure said absent or present: the column at 0, or above it (DataBench 056)
		{class: "conditions", files: "diabetes.csv", q: "How many patients have zero pregnancies?", ref: "int((df.Pregnancies == 0).sum())"},
		{class: "conditions", files: "diabetes.csv", q: "Are there any patients with no pregnancies?", ref: "'Yes' if (df.Pregnancies == 0).any() else 'No'"},
		{class: "conditions", files: "houses.csv", q: "Do all houses have bathrooms?", ref: "'Yes' if (df.bathrooms > 0).all() else 'No'"},
		{class: "conditions", files: "passengers.csv", q: "average fare for each class", ref: "df.groupby('Pclass').Fare.mean().tolist()"},
		{class: "conditions", files: "passengers.csv", q: "mean fare for passengers older than 60", ref: "df[df.Age > 60].Fare.mean()"},
		// a participle and a relative clause carry the condition; read word by word, "survived"
		// became a grouping
		{class: "conditions", files: "passengers.csv", q: "What was the average fare paid by the passengers who survived?", ref: "df[df.Survived == 1].Fare.mean()"},
		{class: "conditions", files: "passengers.csv", q: "How many female passengers survived?", ref: "len(df[(df.Sex == 'female') & (df.Survived == 1)])"},
		// the predicate is about the fare asked, not the age ranked by (69 > 50 said yes)
		{class: "conditions", files: "passengers.csv", q: "Is the fare of the oldest passenger above 50?", ref: "df.loc[df.Age.idxmax()].Fare", want: []string{"No"}, avoid: []string{"Yes"}},
		// first and last: the file's order when the table has no dates; the rows an order chose
		// from are the filtered ones (it said "over the 1 of 600 rows")
		{class: "conditions", files: "passengers.csv", q: "What is the name of the last passenger?", ref: "df.Name.iloc[-1]"},
		{class: "conditions", files: "passengers.csv", q: "What was the fare of the first passenger?", ref: "df.Fare.iloc[0]"},
		{class: "conditions", files: "passengers.csv", q: "What is the age of the female passenger who paid the highest fare?", ref: "df[df.Sex == 'female'].sort_values('Fare').Age.iloc[-1]", want: []string{"303 of 600 rows"}},
		// a yes/no question the rules cannot check is asked back, not answered by a summary
		{class: "conditions", files: "passengers.csv", q: "Is passenger 3 older than passenger 5?", decline: true},
		// a question asking for a name is not answered with a summary of the column
		{class: "conditions", files: "passengers.csv", q: "What is the name of the passenger listed after Passenger5?", decline: true},
		{class: "conditions", files: "passengers.csv", q: "median fare of male passengers with Pclass 3", ref: "df[(df.Sex == 'male') & (df.Pclass == 3)].Fare.median()"},
		{class: "conditions", files: "passengers.csv", q: "how many passengers have Fare above 100?", ref: "int((df.Fare > 100).sum())"},
		{class: "conditions", files: "salaries.csv", q: "average salary in the Engineering department", ref: "df[df.department == 'Engineering'].salary.mean()"},
		{class: "conditions", files: "salaries.csv", q: "how many employees have more than 20 years of experience", ref: "int((df.years_experience > 20).sum())"},
		{class: "conditions", files: "salaries.csv", q: "average salary of Remote employees", ref: "df[df.work_mode == 'Remote'].salary.mean()"},
		{class: "conditions", files: "salaries.csv", q: "median salary of Senior employees in Sales", ref: "df[(df.level == 'Senior') & (df.department == 'Sales')].salary.median()"},
		{class: "conditions", files: "salaries.csv", q: "average salary for employees with age between 30 and 40", ref: "df[(df.age >= 30) & (df.age <= 40)].salary.mean()"},
		{class: "conditions", files: "weather.csv", q: "average temperature in July 2021", read: "pd.read_csv(p, parse_dates=['date'])", ref: "df[(df.date.dt.year == 2021) & (df.date.dt.month == 7)].temperature.mean()"},
		{class: "conditions", files: "weather.csv", q: "how many days had more than 10 mm of precipitation", ref: "int((df.precipitation > 10).sum())"},
		{class: "conditions", files: "weather.csv", q: "average wind speed when wind_dir is SW", ref: "df[df.wind_dir == 'SW'].wind_speed.mean()"},
		{class: "conditions", files: "weather.csv", q: "max temperature in 2022", read: "pd.read_csv(p, parse_dates=['date'])", ref: "df[df.date.dt.year == 2022].temperature.max()"},
		{class: "conditions", files: "weather.csv", q: "how many days was the temperature below 0", ref: "int((df.temperature < 0).sum())"},
		{class: "conditions", files: "houses.csv", q: "average price of houses in Riverside", ref: "df[df.neighborhood == 'Riverside'].price.mean()"},
		{class: "conditions", files: "houses.csv", q: "how many houses have more than 3 bedrooms", ref: "int((df.bedrooms > 3).sum())"},
		{class: "conditions", files: "houses.csv", q: "median price of houses with year_built after 2000", ref: "df[df.year_built > 2000].price.median()"},
		{class: "conditions", files: "flights.csv", q: "how many flights from JFK", ref: "int((df.origin == 'JFK').sum())"},
		{class: "conditions", files: "flights.csv", q: "average distance of flights to SEA", ref: "df[df.dest == 'SEA'].distance.mean()"},
		{class: "conditions", files: "flights.csv", q: "average arr_delay of carrier B6", ref: "df[df.carrier == 'B6'].arr_delay.mean()"},
		{class: "conditions", files: "students.csv", q: "how many students have math_score above 90", ref: "int((df.math_score > 90).sum())"},
		{class: "conditions", files: "students.csv", q: "average reading score of students whose test preparation is completed", ref: "df[df.test_preparation == 'completed'].reading_score.mean()"},
		{class: "conditions", files: "insurance.csv", q: "average bmi in the southeast region", ref: "df[df.region == 'southeast'].bmi.mean()"},
		{class: "conditions", files: "insurance.csv", q: "average charges where smoker is yes", ref: "df[df.smoker == 'yes'].charges.mean()"},
		{class: "conditions", files: "cars.csv", q: "average mpg of cars from japan", ref: "df[df.origin == 'japan'].mpg.mean()"},
		{class: "conditions", files: "cars.csv", q: "how many cars have 8 cylinders", ref: "int((df.cylinders == 8).sum())"},
		{class: "conditions", files: "campaigns.csv", q: "total spend on the Email channel", ref: "df[df.channel == 'Email'].spend.sum()"},
		{class: "conditions", files: "vaccinations.csv", q: "total daily_vaccinations in Elbonia", ref: "df[df.country == 'Elbonia'].daily_vaccinations.sum()"},
		{class: "conditions", files: "happiness.csv", q: "average Score of Western Europe", ref: "df[df.Region == 'Western Europe'].Score.mean()"},
		// Values named with "and" under an average are one group each; with "or", one set of
		// rows; a total of both stays one.
		{class: "conditions", files: "salaries.csv", q: "What is the average salary of male and female employees?", ref: "df.groupby('gender').salary.mean().tolist()"},
		{class: "conditions", files: "salaries.csv", q: "Compare the average salary of male and female employees.", ref: "df.groupby('gender').salary.mean().tolist()"},
		{class: "conditions", files: "cars.csv", q: "Compare the average mpg of 4-cylinder cars and 6-cylinder cars.", ref: "df[df.cylinders.isin([4, 6])].groupby('cylinders').mpg.mean().tolist()"},
		{class: "conditions", files: "cars.csv", q: "What is the average mpg of cars with 4 or 6 cylinders?", ref: "df[df.cylinders.isin([4, 6])].mpg.mean()"},
		{class: "conditions", files: "cars.csv", q: "average horsepower of 4, 6 or 8 cylinder cars", ref: "df[df.cylinders.isin([4, 6, 8])].horsepower.mean()"},
		// a unit after the number is the column's, named before it
		{class: "conditions", files: "flights.csv", q: "Is there any flight with an arrival delay greater than 300 minutes?", want: []string{"**No.**"}, avoid: []string{"Yes"}},
		{class: "conditions", files: "flights.csv", q: "Is there any flight with an arrival delay greater than 100 minutes?", want: []string{"**Yes"}, ref: "int((df.arr_delay > 100).sum())"},
		{class: "conditions", files: "flights.csv", q: "How many flights have a distance of more than 2500 miles?", ref: "int((df.distance > 2500).sum())"},
		{class: "conditions", files: "flights.csv", q: "List the 4 carriers with the lowest median distance.", ref: "df.groupby('carrier').distance.median().nsmallest(4).index.tolist()"},
		// where a row belongs said with a verb ("work in"); a value said as an adverb; a share asked
		{class: "conditions", files: "salaries.csv", q: "How many employees work in Engineering?", ref: "int((df.department == 'Engineering').sum())"},
		{class: "conditions", files: "salaries.csv", q: "What percentage of employees work remotely?", ref: "round((df.work_mode == 'Remote').mean() * 100, 2)"},
		{class: "conditions", files: "cars.csv", q: "What percentage of cars come from usa?", ref: "round((df.origin == 'usa').mean() * 100, 2)"},
		{class: "conditions", files: "salaries.csv", q: "What is the median salary of employees with more than 10 years of experience?", ref: "df[df.years_experience > 10].salary.median()"},
		{class: "conditions", files: "salaries.csv", q: "What is the employee_id of the youngest employee?", want: []string{"**1002**"}},
		{class: "conditions", files: "insurance.csv", q: "How many smokers are there?", ref: "int((df.smoker == 'yes').sum())"},
		// a condition against a statistic of the column: never the number of an ordinal
		{class: "conditions", files: "insurance.csv", q: "How many people have charges greater than the 75th percentile of charges?", ref: "int((df.charges > df.charges.quantile(0.75)).sum())"},
		{class: "conditions", files: "insurance.csv", q: "How many rows have charges above the median?", ref: "int((df.charges > df.charges.median()).sum())"},
		{class: "conditions", files: "insurance.csv", q: "What is the average age of people whose charges exceed the mean charges?", ref: "df[df.charges > df.charges.mean()].age.mean()"},
		// groups ranked by how many different values of another column they hold; ties named
		{class: "conditions", files: "happiness.csv", q: "Which region has the most countries?", want: []string{"a tie"}, ref: "df.groupby('Region').Country.nunique().index.tolist()"},
		{class: "conditions", files: "vaccinations.csv", q: "Which vaccine is used by the most countries?", want: []string{"a tie"}, ref: "df.groupby('vaccine').country.nunique().index.tolist()"},
		// "by" a yes/no column groups by it; it keeps no rows
		{class: "conditions", files: "passengers.csv", q: "median Fare by Survived", ref: "df.groupby('Survived').Fare.median().tolist()"},
		{class: "conditions", files: "insurance.csv", q: "median charges by smoker", ref: "df.groupby('smoker').charges.median().tolist()"},
		{class: "conditions", files: "insurance.csv", q: "What is the average bmi of non-smokers?", ref: "df[df.smoker == 'no'].bmi.mean()"},
		{class: "conditions", files: "insurance.csv", q: "What is the average charges of smokers?", ref: "df[df.smoker == 'yes'].charges.mean()"},

		// which entity
		{class: "entity", files: "happiness.csv", q: "which region has the lowest average score?", ref: "df.groupby('Region').Score.mean().idxmin()"},
		{class: "entity", files: "salaries.csv", q: "which department pays the most on average?", ref: "df.groupby('department').salary.mean().idxmax()"},
		{class: "entity", files: "salaries.csv", q: "which employee has the highest salary?", ref: "int(df.loc[df.salary.idxmax(), 'employee_id'])"},
		{class: "entity", files: "weather.csv", q: "which day was the hottest?", ref: "df.loc[df.temperature.idxmax(), 'date']"},
		{class: "entity", files: "houses.csv", q: "which neighborhood has the highest average price?", ref: "df.groupby('neighborhood').price.mean().idxmax()"},
		{class: "entity", files: "cars.csv", q: "which origin has the best mpg on average?", ref: "df.groupby('origin').mpg.mean().idxmax()"},
		{class: "entity", files: "cars.csv", q: "which model has the highest horsepower?", ref: "df.loc[df.horsepower.idxmax(), 'model']"},
		{class: "entity", files: "flights.csv", q: "which carrier has the longest average arr_delay?", ref: "df.groupby('carrier').arr_delay.mean().idxmax()"},
		{class: "entity", files: "vaccinations.csv", q: "which country gave the most daily_vaccinations in total?", ref: "df.groupby('country').daily_vaccinations.sum().idxmax()"},
		{class: "entity", files: "campaigns.csv", q: "which channel has the most conversions?", ref: "df.groupby('channel').conversions.sum().idxmax()"},
		{class: "entity", files: "genes.csv", q: "which gene has the highest expr_treated?", ref: "df.loc[df.expr_treated.idxmax(), 'gene_id']"},
		{class: "entity", files: "insurance.csv", q: "which region has the highest average charges?", ref: "df.groupby('region').charges.mean().idxmax()"},
		{class: "entity", files: "students.csv", q: "which gender has the higher average reading_score?", ref: "df.groupby('gender').reading_score.mean().idxmax()"},
		{class: "entity", files: "happiness.csv", q: "which country had the lowest Freedom?", ref: "df.loc[df.Freedom.idxmin(), 'Country']"},

		{class: "entity", files: "degrees.csv", q: "which fields grew the most between 1970 and 2011?", ref: "d = df.set_index('Year')\n(d.loc[2011] - d.loc[1970]).idxmax()"},
		{class: "entity", files: "releases.csv", q: "how many days was each release supported?", read: "pd.read_csv(p, parse_dates=['release_date', 'end_of_life'])", ref: "(df.end_of_life - df.release_date).dt.days.mean()"},
		{class: "basic", files: "passengers.csv", q: "survival rate by sex", ref: "df.groupby('Sex').Survived.mean().tolist()"},
		{class: "basic", files: "stocks.csv", q: "describe the AAPL and MSFT columns", ref: "[df.AAPL.mean(), df.MSFT.mean()]"},

		// the loader's harder files
		{class: "loader", files: "sensors.csv", q: "average temp_c", ref: "df['temp_c'].mean()"},
		{class: "loader", files: "sensors.csv", q: "average humidity_pct by sensor", ref: "df.groupby('sensor').humidity_pct.mean().tolist()"},
		{class: "loader", files: "sensors.csv", q: "how many rows are there?", ref: "len(df)"},
		{class: "loader", files: "umsatz.csv", q: "total Umsatz", read: "pd.read_csv(p, sep=';', decimal=',', thousands='.', skiprows=1)", ref: "df.Umsatz.sum()"},
		{class: "loader", files: "umsatz.csv", q: "average Umsatz by Filiale", read: "pd.read_csv(p, sep=';', decimal=',', thousands='.', skiprows=1)", ref: "df.groupby('Filiale').Umsatz.mean().tolist()"},
		{class: "loader", files: "umsatz.csv", q: "sum of Menge", read: "pd.read_csv(p, sep=';', decimal=',', thousands='.', skiprows=1)", ref: "df.Menge.sum()"},
		{class: "loader", files: "energy.csv", q: "average consumption_kwh", ref: "df.consumption_kwh.mean()"},
		{class: "loader", files: "cars.csv+broken.csv", q: "average mpg", ref: "df.mpg.mean()", want: []string{"broken.csv could not be read", "line 4 has 4 fields"}},
		{class: "loader", files: "regional_sales.csv+region_targets.csv", q: "total sales by region", ref: "df.groupby('region').sales.sum().tolist()"},
		{class: "loader", files: "regional_sales.csv+region_targets.csv", q: "average annual_target in region_targets.csv", read: "pd.read_csv('/mnt/data/region_targets.csv')", ref: "df.annual_target.mean()"},

		// follow-ups that change one dimension and keep the rest
		{class: "followup", files: "passengers.csv", prior: []string{"average fare by sex"}, q: "and by Pclass?", ref: "df.groupby('Pclass').Fare.mean().tolist()"},
		{class: "followup", files: "salaries.csv", prior: []string{"average salary by department"}, q: "now by level", ref: "df.groupby('level').salary.mean().tolist()"},
		{class: "followup", files: "cars.csv", prior: []string{"average mpg by origin"}, q: "and by cylinders?", ref: "df.groupby('cylinders').mpg.mean().tolist()"},
		{class: "followup", files: "weather.csv", prior: []string{"plot temperature over time"}, q: "what was its average?", ref: "df.temperature.mean()"},
		{class: "followup", files: "salaries.csv", prior: []string{"average salary by department"}, q: "only Remote", ref: "df[df.work_mode == 'Remote'].groupby('department').salary.mean().tolist()"},
		{class: "followup", files: "houses.csv", prior: []string{"average price by neighborhood"}, q: "same for area_sqm", ref: "df.groupby('neighborhood').area_sqm.mean().tolist()"},
		{class: "followup", files: "regional_sales.csv+region_targets.csv", prior: []string{"total sales by region"}, q: "now by month", ref: "df.groupby('month').sales.sum().tolist()"},
	}...)
}
