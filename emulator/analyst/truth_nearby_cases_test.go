package analyst

// Nearby questions: each names something the files or the rules do not have (a column, a
// concept, a method), next to things they do. Answering any of them would answer a different
// question with confidence; each must be declined or asked back.
func init() {
	nearby := func(files string, qs ...string) {
		for _, q := range qs {
			truthCorpus = append(truthCorpus, truthCase{class: "nearby", files: files, q: q, decline: true})
		}
	}
	nearby("passengers.csv",
		"fit a neural network to predict Survived",
		"what is the survival rate of passengers with cabin numbers",
		"average fare for passengers whose ticket starts with PC",
		"how many passengers travelled alone",
		"which deck had the highest survival rate",
		"average fare weighted by age",
		"what share of passengers were rescued by lifeboat 7",
		"explain why women survived more often",
		"how many passengers survived the iceberg",
		"median age of the crew",
		"what is the sentiment of the passenger names",
		"chart the fare of passengers on a log scale",
		// "last" is no synonym of "survive" as an adjective; a year asked is never the first rows
		"in what year did the last passenger board?",
		"where did the oldest passengers sit?",
		"when did the passengers board?",
	)
	nearby("weather.csv",
		"what was the average temperature during heatwaves",
		"how many days had frost",
		"average humidity on days with thunderstorms",
		"what was the wind chill on the coldest day",
		"the dew point in July 2021",
		"how much sunshine was recorded in 2021",
		"average temperature anomaly relative to the 1990 baseline",
		"interpolate the missing temperatures with a spline",
		"correlation of temperature and humidity by month",
		"outliers of temperature by month",
	)
	nearby("salaries.csv",
		"what is the gender pay gap adjusted for experience",
		"average salary of managers",
		"which employees are due for promotion",
		"how many employees left the company",
		"median bonus by department",
		"salary after tax by department",
		"what would the average salary be after a 5% raise",
		"which department has the highest turnover",
		"average tenure by department",
	)
	nearby("houses.csv",
		"price per square foot by neighborhood",
		"which houses have a garden",
		"how many houses were renovated after 2000",
		"mortgage payment for the median house",
		"average price of houses with a pool",
	)
	nearby("happiness.csv",
		"which country improved its rank the most",
		"average score of landlocked countries",
		"which countries are in the european union",
		"correlation between score and corruption",
		"population weighted average score by region",
		"the correlation of score and freedom lagged by one year",
		"how many countries have a democracy index above 8",
	)
	nearby("vaccinations.csv",
		"how many booster doses were given in Aland",
		"which vaccine has the fewest side effects",
		"when will Borduria reach herd immunity",
		"vaccinations per capita by country",
	)
	nearby("genes.csv",
		"what is the GC content of GENE0001",
		"which pathways are enriched among the treated genes",
		"fold change of GENE0010 adjusted with Benjamini Hochberg",
		"how many genes overlap each other",
	)
	nearby("stocks.csv",
		"what was the Sharpe ratio of AAPL",
		"what was the beta of MSFT against the market",
		"dividend yield of AAPL",
		"which stock had the biggest drawdown",
		"moving average crossover points for AAPL",
		"which stock is undervalued",
		"outliers in monthly returns",
	)
	nearby("regional_sales.csv+region_targets.csv",
		"which regions met their target",
		"how far is each region from its quota",
	)
	nearby("students.csv",
		"what is the pass rate in math",
		"average score of students who attend tutoring",
		"which teacher has the best results",
		"grade distribution by school",
		"GPA of female students",
	)
	nearby("cars.csv",
		"average mpg of electric cars",
		"fuel cost per year by origin",
		"which manufacturer makes the most efficient cars",
		"acceleration by cylinders",
	)
	nearby("insurance.csv",
		"average charges for people with diabetes",
		"premium by region",
		"how much more do obese smokers pay",
	)
	nearby("diabetes.csv",
		"insulin levels by outcome",
		"what is the risk for a 50 year old",
	)
	nearby("flowers.csv",
		"which species has the most colorful flowers",
		"average stem length by species",
	)
	nearby("campaigns.csv",
		"cost per acquisition by channel",
		"which campaign had the best CTR",
		"attribution of conversions across touchpoints",
		"return on ad spend by channel",
	)
	nearby("flights.csv",
		"how many flights were cancelled",
		"which airline has the most lost luggage",
		"average taxi time by origin",
		// a comparison read into no condition: never an answer over every row
		"How many flights have a dep_delay greater than the arr_delay divided by 2?",
	)
	nearby("releases.csv",
		"how many security patches did version 3.0 get",
		"which release had the most bugs",
	)
	nearby("degrees.csv",
		"which field had the most female graduates",
		"degrees per capita by field",
	)
	nearby("sensors.csv",
		"average temperature when the door was open",
		"battery level by sensor",
	)
	nearby("umsatz.csv",
		"profit margin by Warengruppe",
	)
	nearby("wines.csv",
		"which grape variety scores best",
		"vintage with the highest quality",
	)
	nearby("energy.csv",
		"what is the peak demand charge",
		"carbon emissions per day",
		"how much did the solar panels generate",
	)
}
