package meaning

import (
	"errors"
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// Three small tables in the shapes the development corpus has: people ranked by wealth,
// passengers with a flag and categories, and sales whose staff titles hold a word a question
// may use as a restriction.
var (
	billionaires = &schema.Table{File: "forbes.csv", Columns: []schema.Column{
		{Name: "rank", Type: schema.Number}, {Name: "personName", Type: schema.Text},
		{Name: "age", Type: schema.Number}, {Name: "finalWorth", Type: schema.Number},
		{Name: "category", Type: schema.Category, Values: []string{"Technology", "Automotive", "Fashion & Retail"}},
		{Name: "country", Type: schema.Category, Values: []string{"United States", "China", "India"}},
		{Name: "city", Type: schema.Text}, {Name: "source", Type: schema.Text},
		{Name: "selfMade", Type: schema.Boolean, Values: []string{"True", "False"}},
		{Name: "gender", Type: schema.Category, Values: []string{"M", "F"}},
		{Name: "philanthropyScore", Type: schema.Number},
	}}
	passengers = &schema.Table{File: "passengers.csv", Columns: []schema.Column{
		{Name: "Survived", Type: schema.Boolean, Values: []string{"True", "False"}},
		{Name: "Pclass", Type: schema.Number}, {Name: "Name", Type: schema.Text},
		{Name: "Sex", Type: schema.Category, Values: []string{"male", "female"}},
		{Name: "Age", Type: schema.Number}, {Name: "Fare", Type: schema.Number},
	}}
	staff = &schema.Table{File: "salaries.csv", Columns: []schema.Column{
		{Name: "employee_id", Type: schema.Number}, {Name: "title", Type: schema.Category, Values: []string{"Engineering Manager", "Analyst", "Engineer"}},
		{Name: "department", Type: schema.Category, Values: []string{"Sales", "Research"}},
		{Name: "salary", Type: schema.Number},
	}}
	employees = &schema.Table{File: "hr.csv", Columns: []schema.Column{
		{Name: "employee_id", Type: schema.Number}, {Name: "department", Type: schema.Category, Values: []string{"Sales", "Research"}},
		{Name: "salary", Type: schema.Number},
	}}
	schedule = &schema.Table{File: "games.csv", Columns: []schema.Column{
		{Name: "Date", Type: schema.Text}, {Name: "Opponent", Type: schema.Text}, {Name: "Venue", Type: schema.Text},
		{Name: "Result", Type: schema.Category, Values: []string{"W", "L"}}, {Name: "Attendance", Type: schema.Number},
	}}
	flights = &schema.Table{File: "flights.csv", Columns: []schema.Column{
		{Name: "carrier", Type: schema.Category, Values: []string{"WN", "AA"}}, {Name: "dest", Type: schema.Category, Values: []string{"SEA", "ATL"}},
		{Name: "date", Type: schema.Date}, {Name: "distance", Type: schema.Number},
	}}
	champions = &schema.Table{File: "llws.csv", Columns: []schema.Column{
		{Name: "Year", Type: schema.Number}, {Name: "Champion", Type: schema.Text}, {Name: "City", Type: schema.Text},
	}}
	countries = &schema.Table{File: "happiness.csv", Columns: []schema.Column{
		{Name: "Country", Type: schema.Text}, {Name: "Happiness Score", Type: schema.Number},
		{Name: "Generosity", Type: schema.Number}, {Name: "Social support", Type: schema.Number},
	}}
	rebounds = &schema.Table{File: "rebounds.csv", Columns: []schema.Column{
		{Name: "Rebounds", Type: schema.Number}, {Name: "Player", Type: schema.Text},
		{Name: "Team", Type: schema.Category, Values: []string{"Miami Heat", "Chicago Bulls"}},
		{Name: "Date", Type: schema.Date}, {Name: "Time", Type: schema.Text},
		{Name: "ZIP code\nLower", Type: schema.Number},
	}}
	airports = &schema.Table{File: "airports.csv", Columns: []schema.Column{
		{Name: "Community", Type: schema.Category, Values: []string{"Townsville", "Antil Plains"}}, {Name: "Type", Type: schema.Text},
	}}
	songs = &schema.Table{File: "songs.csv", Columns: []schema.Column{
		{Name: "Title", Type: schema.Category, Values: []string{"Topeng", "Membebaniku"}}, {Name: "Length", Type: schema.Category, Values: []string{"4:30", "3:58"}},
	}}
	races = &schema.Table{File: "season.csv", Columns: []schema.Column{
		{Name: "Rd.", Type: schema.Number}, {Name: "Date", Type: schema.Date},
		{Name: "Pole Position", Type: schema.Category, Values: []string{"Ayrton Senna", "Alain Prost"}},
	}}
	contest = &schema.Table{File: "contest.csv", Columns: []schema.Column{
		{Name: "Country", Type: schema.Text}, {Name: "Place", Type: schema.Number},
		{Name: "Rank", Type: schema.Category, Values: []string{"1", "2", "Total"}},
	}}
	towers = &schema.Table{File: "towers.csv", Columns: []schema.Column{
		{Name: "Name", Type: schema.Category, Values: []string{"State Tower Building", "Granger Block", "Hotel Syracuse"}},
		{Name: "Height", Type: schema.Number}, {Name: "Floors", Type: schema.Number},
	}}
	buildings = &schema.Table{File: "buildings.csv", Columns: []schema.Column{
		{Name: "Name", Type: schema.Category, Values: []string{"State Tower Building", "Granger Block"}},
		{Name: "Floors", Type: schema.Number}, {Name: "City", Type: schema.Category, Values: []string{"Syracuse"}},
		{Name: "Built", Type: schema.Date},
	}}
	medals = &schema.Table{File: "standings.csv", Columns: []schema.Column{
		{Name: "Nation", Type: schema.Category, Values: []string{"Guam", "Palau", "Fiji"}},
		{Name: "Gold", Type: schema.Number}, {Name: "Bronze", Type: schema.Number},
	}}
	bracket = &schema.Table{File: "bracket.csv", Columns: []schema.Column{
		{Name: "Round", Type: schema.Category, Values: []string{"1", "2", "3", "4", "QF"}},
		{Name: "Region", Type: schema.Category, Values: []string{"West", "Midwest", "East"}},
		{Name: "Team", Type: schema.Category, Values: []string{"London Lions", "Canterbury Crusaders"}},
		{Name: "Name", Type: schema.Category, Values: []string{"Nate Boyle", "Mark Johnston"}},
		{Name: "Nationality", Type: schema.Category, Values: []string{"United States", "Canada"}},
		{Name: "Height", Type: schema.Number}, {Name: "Attendance", Type: schema.Number},
	}}
	locomotives = &schema.Table{File: "locomotives.csv", Columns: []schema.Column{
		{Name: "Number", Type: schema.Number}, {Name: "Kilometres Travelled", Type: schema.Number},
		{Name: "Code", Type: schema.Category, Values: []string{"BA", "CL", "GH"}},
		{Name: "Surface", Type: schema.Category, Values: []string{"Clay", "Hard", "Grass", "Carpet"}},
		{Name: "Type", Type: schema.Category, Values: []string{"Steam", "Diesel"}},
	}}
	reviews = &schema.Table{File: "trustpilot.csv", Columns: []schema.Column{
		{Name: "company", Type: schema.Text}, {Name: "rating", Type: schema.Number}, {Name: "score", Type: schema.Number},
	}}
	telco = &schema.Table{File: "telco.csv", Columns: []schema.Column{
		{Name: "customerID", Type: schema.Text}, {Name: "MonthlyCharges", Type: schema.Number},
		{Name: "Contract", Type: schema.Category, Values: []string{"Month-to-month", "One year", "Two year"}},
	}}
	foods = &schema.Table{File: "nutrition.csv", Columns: []schema.Column{
		{Name: "name", Type: schema.Text}, {Name: "Sodium (g)", Type: schema.Number}, {Name: "Protein (g)", Type: schema.Number},
		{Name: "n", Type: schema.Number},
	}}
	coasters = &schema.Table{File: "rides.csv", Columns: []schema.Column{
		{Name: "coaster_name", Type: schema.Text}, {Name: "Speed", Type: schema.Number},
	}}
	trips = &schema.Table{File: "taxi.csv", Columns: []schema.Column{
		{Name: "VendorID", Type: schema.Number}, {Name: "trip_distance", Type: schema.Number},
		{Name: "passenger_count", Type: schema.Number},
	}}
	listings = &schema.Table{File: "london.csv", Columns: []schema.Column{
		{Name: "review_scores_location", Type: schema.Number}, {Name: "review_scores_communication", Type: schema.Number},
		{Name: "bedrooms", Type: schema.Number}, {Name: "quality", Type: schema.Number},
	}}
	tweets = &schema.Table{File: "airline.csv", Columns: []schema.Column{
		{Name: "tweet_id", Type: schema.Number}, {Name: "retweet_count", Type: schema.Number},
		{Name: "favorites", Type: schema.Number}, {Name: "author_name", Type: schema.Text}, {Name: "text", Type: schema.Text},
	}}
	clothing = &schema.Table{File: "ecommerce.csv", Columns: []schema.Column{
		{Name: "Age", Type: schema.Number}, {Name: "Rating", Type: schema.Number},
		{Name: "Department Name", Type: schema.Category, Values: []string{"Tops", "Dresses"}},
		{Name: "speed_mph", Type: schema.Number}, {Name: "Precipitation", Type: schema.Number},
	}}
	incidents = &schema.Table{File: "police.csv", Columns: []schema.Column{
		{Name: "Incident Number", Type: schema.Number}, {Name: "Filed Online", Type: schema.Boolean, Values: []string{"True", "False"}},
		{Name: "Resolution", Type: schema.Category, Values: []string{"Open", "Cite or Arrest Adult"}},
	}}
	purses = &schema.Table{File: "tournaments.csv", Columns: []schema.Column{
		{Name: "Tournament", Type: schema.Text}, {Name: "Purse ($)", Type: schema.Number},
	}}
	athletes = &schema.Table{File: "olympics.csv", Columns: []schema.Column{
		{Name: "ID", Type: schema.Number}, {Name: "Age", Type: schema.Number}, {Name: "Year", Type: schema.Number},
		{Name: "Glucose", Type: schema.Number}, {Name: "Insulin", Type: schema.Number},
		{Name: "Height", Type: schema.Number}, {Name: "Medal", Type: schema.Category, Values: []string{"Gold", "Silver"}},
	}}
	charts = &schema.Table{File: "billboard.csv", Columns: []schema.Column{
		{Name: "Rank", Type: schema.Number}, {Name: "Year", Type: schema.Number}, {Name: "Song", Type: schema.Text},
	}}
	complaints = &schema.Table{File: "nyc.csv", Columns: []schema.Column{
		{Name: "unique_key", Type: schema.Number}, {Name: "agency", Type: schema.Category, Values: []string{"NYPD", "HPD"}},
		{Name: "complaint_type", Type: schema.Category, Values: []string{"Noise", "Heat"}},
		{Name: "month_name", Type: schema.Category, Values: []string{"January", "February"}},
		{Name: "weekday_name", Type: schema.Category, Values: []string{"Monday", "Tuesday"}},
		{Name: "tmax", Type: schema.Number},
	}}
	cars = &schema.Table{File: "second_hand.csv", Columns: []schema.Column{
		{Name: "color", Type: schema.Category, Values: []string{"WHITE", "BLACK"}}, {Name: "price", Type: schema.Number},
		{Name: "customer_age", Type: schema.Number}, {Name: "Quantity", Type: schema.Number}, {Name: "doses", Type: schema.Number},
	}}
	students = &schema.Table{File: "students.csv", Columns: []schema.Column{
		{Name: "G3", Type: schema.Number}, {Name: "sex", Type: schema.Category, Values: []string{"F", "M"}},
		{Name: "higher", Type: schema.Category, Values: []string{"yes", "no"}},
		{Name: "match", Type: schema.Number}, {Name: "injuries", Type: schema.Number},
	}}
	services = &schema.Table{File: "services.csv", Columns: []schema.Column{
		{Name: "customerID", Type: schema.Number}, {Name: "Lyrics", Type: schema.Text},
		{Name: "InternetService", Type: schema.Category, Values: []string{"DSL", "Fiber optic", "No"}},
		{Name: "room_type", Type: schema.Category, Values: []string{"Private room", "Entire home/apt"}},
	}}
	vitals = &schema.Table{File: "heart.csv", Columns: []schema.Column{
		{Name: "RestingBP", Type: schema.Number}, {Name: "MaxHR", Type: schema.Number},
		{Name: "DOLocationID", Type: schema.Number}, {Name: "PULocationID", Type: schema.Number},
	}}
	jobs = &schema.Table{File: "jobs.csv", Columns: []schema.Column{
		{Name: "Job Title", Type: schema.Text}, {Name: "job_state", Type: schema.Category, Values: []string{"CA", "NY"}},
		{Name: "avg_salary", Type: schema.Number}, {Name: "property_type", Type: schema.Category, Values: []string{"Loft", "House"}},
		{Name: "bedrooms", Type: schema.Number}, {Name: "review_scores_rating", Type: schema.Number},
	}}
	posts = &schema.Table{File: "posts.csv", Columns: []schema.Column{
		{Name: "author_id", Type: schema.Category, Values: []string{"a1", "a2"}}, {Name: "source", Type: schema.Text},
		{Name: "retweets", Type: schema.Number}, {Name: "URLs", Type: schema.Text}, {Name: "Ranking", Type: schema.Number},
	}}
	releases = &schema.Table{File: "spotify.csv", Columns: []schema.Column{
		{Name: "name", Type: schema.Text}, {Name: "duration_ms", Type: schema.Number},
		{Name: "release_year", Type: schema.Number}, {Name: "favorites", Type: schema.Number}, {Name: "retweets", Type: schema.Number},
	}}
	patents = &schema.Table{File: "patents.csv", Columns: []schema.Column{
		{Name: "title", Type: schema.Text}, {Name: "num_claims", Type: schema.Number},
		{Name: "Calories (kcal)", Type: schema.Number}, {Name: "Number of Existing Loans", Type: schema.Number},
		{Name: "DisbursementGross", Type: schema.Number},
	}}
	players = &schema.Table{File: "fifa.csv", Columns: []schema.Column{
		{Name: "short_name", Type: schema.Text}, {Name: "overall", Type: schema.Number}, {Name: "potential", Type: schema.Number},
		{Name: "nationality", Type: schema.Category, Values: []string{"France", "Brazil"}},
	}}
)

// TestReadComposes holds how the rules compose questions written in DataBench's and analysts'
// ways: each construction once, and their combinations.
func TestReadComposes(t *testing.T) {
	cases := []struct {
		table *schema.Table
		q     string
		want  string
	}{
		// a superlative picks a row; the phrase asked about is what is taken from it
		{billionaires, "What is the age of the youngest billionaire?", "value | order age asc 1 | target age"},
		{billionaires, "Which category does the richest billionaire belong to?", "value | order finalWorth desc 1 | target category"},
		{billionaires, "What's the gender of the billionaire with the highest philanthropy score?", "value | order philanthropyScore desc 1 | target gender"},
		// a value, negated or not, restricts the rows
		{billionaires, "What's the rank of the wealthiest non-self-made billionaire?", "value | where selfMade == False | order finalWorth desc 1 | target rank"},
		{billionaires, "List the top 4 ranks of female billionaires.", "list | where gender == F | order rank asc 4 | target rank"},
		{billionaires, "List the top 5 ranks of billionaires who are not self-made.", "list | where selfMade == False | order rank asc 5 | target rank"},
		// counts, totals and comparisons
		{billionaires, "How many billionaires are there from the 'Technology' category?", "value | where category == Technology | agg count"},
		{billionaires, "What's the total worth of billionaires in the 'Automotive' category?", "value | where category == Automotive | target finalWorth | agg sum"},
		{billionaires, "How many billionaires have a philanthropy score above 3?", "value | where philanthropyScore > 3 | agg count"},
		{billionaires, "List the youngest 3 ages of billionaires who have a philanthropy score of 5.", "list | where philanthropyScore == 5 | order age asc 3 | target age"},
		// groups ranked by their size
		{billionaires, "List the top 3 countries with the most billionaires.", "list | group country | order size desc 3 | target country"},
		{billionaires, "List the 4 categories with the fewest billionaires.", "list | group category | order size asc 4 | target category"},
		{passengers, "What's the most common gender among the survivors?", "value | where Survived == True | group Sex | order size desc 1 | target Sex"},
		// an aggregate inside the ranked phrase ranks the asked column's groups, numeric or not
		{passengers, "Which passenger class has the highest average fare?", "value | group Pclass | order mean(Fare) desc 1 | target Pclass"},
		{passengers, "Which sex has the lowest median age?", "value | group Sex | order median(Age) asc 1 | target Sex"},
		// a participle on the measure only carries it; with restricted rows the filter places them
		{passengers, "What is the mean fare paid by the passengers?", "value | target Fare | agg mean"},
		{passengers, "What is the average fare paid by survivors?", "value | where Survived == True | target Fare | agg mean"},
		{passengers, "What was the average fare paid by the passengers who survived?", "value | where Survived == True | target Fare | agg mean"},
		// a question's last verb whose object the wh-word fronted carries it too (DataBench 002/8)
		{passengers, "On average, how much fare did the passengers pay?", "value | target Fare | agg mean"},
		// an ordinal right before a numeric column's noun is its value (DataBench 002/4)
		{passengers, "How many passengers were in the 2nd class?", "value | where Pclass == 2 | agg count"},
		// an adjective negated by its prefix is the low end of its stem's scale
		{countries, "Which country is the unhappiest?", "value | order Happiness Score asc 1 | target Country"},
		{countries, "Which country is the happiest?", "value | order Happiness Score desc 1 | target Country"},
		// a bare noun after "of" on the column used says what the column holds (DataBench 001/14)
		{billionaires, "What's the source of wealth for the youngest billionaire?", "value | order age asc 1 | target source"},
		{passengers, "Which passenger class has the highest number of survivors?", "value | where Survived == True | group Pclass | order size desc 1 | target Pclass"},
		// yes or no
		{billionaires, "Is the person with the highest net worth self-made?", "verdict | order finalWorth desc 1 | target selfMade | check selfMade == True"},
		{billionaires, "Does the youngest billionaire identify as male?", "verdict | order age asc 1 | target gender | check gender == M"},
		{billionaires, "Is there a non-self-made billionaire in the top 5 ranks?", "verdict | where selfMade == False | order rank asc 5 | exists | within"},
		{passengers, "Were there any passengers who paid a fare of more than $500?", "verdict | where Fare > 500 | exists"},
		{passengers, "Is the average age of the passengers above 30?", "verdict | target Age | agg mean | check Age > 30"},
		// first and last: by the file's order, or by the table's one date column
		{schedule, "Who is the last opponent?", "value | order position desc 1 | target Opponent"},
		{schedule, "What was the attendance of the first game?", "value | order position asc 1 | target Attendance"},
		{flights, "What is the carrier of the last flight?", "value | order date desc 1 | target carrier"},
		// "where" takes the place of the row picked (WTQ nt-840)
		{schedule, "Where was the last game held?", "value | order position desc 1 | target Venue"},
		{flights, "What was the first date?", "value | order date asc 1 | target date"},
		{champions, "Who were the champions in 1961?", "list | where Year == 1961 | target Champion"},
		// a predicate naming no column is about the column asked, not the one ranked by
		{passengers, "Is the fare of the oldest passenger above 50?", "verdict | order Age desc 1 | target Fare | check Fare > 50"},
		{passengers, "Is the oldest passenger above 50?", "verdict | order Age desc 1 | target Age | check Age > 50"},
		// an age class whose bound is spelled out is that bound; alone it stays a gap
		{passengers, "Did any children below the age of 18 survive?", "verdict | where Survived == True | where Age < 18 | exists"},
		{passengers, "Did all passengers survive?", "verdict | all | check Survived == True"},
		{passengers, "Are there more than 100 passengers with a fare above 50?", "verdict | where Fare > 50 | agg count | check > 100"},
		{passengers, "Is every passenger's name unique?", "verdict | target Name | unique"},
		// an aggregate, and groups ranked by one
		{passengers, "What's the maximum age of the passengers?", "value | target Age | agg max"},
		{passengers, "How many unique passenger classes are there?", "value | target Pclass | agg distinct"},
		{passengers, "What are the top 2 genders by average fare?", "list | group Sex | order mean(Fare) desc 2 | target Sex"},
		{passengers, "Which of the passengers did not survive and paid less than 10?", "list | where Survived == False | where Fare < 10 | named by Name"},
		{billionaires, "Who is the oldest?", "value | order age desc 1 | named by personName"},
		{passengers, "How many passengers under the age of 25 survived?", "value | where Survived == True | where Age < 25 | agg count"},
		// a month or a day named with no year is part of the one date column (WTQ nt-11305, nt-9520)
		{rebounds, "How many rebounds were there in February?", "value | where Date[%m] == 02 | target Rebounds | agg sum"},
		{rebounds, "Which player may have the most rebounds?", "value | order Rebounds desc 1 | target Player"}, // the modal
		{rebounds, "What were the rebounds on September 17th?", "list | where Date[%m-%d] == 09-17 | target Rebounds"},
		{rebounds, "How many rebounds were there on the 3rd of March?", "value | where Date[%m-%d] == 03-03 | target Rebounds | agg sum"},
		// a year on a column of dates is the dates' year (WTQ nt-490)
		{rebounds, "How many rebounds were there total, according to this table, in 1978?", "value | where Date[%Y] == 1978 | target Rebounds | agg sum"},
		// "how many" of a measure adds it up; of a code it counts (WTQ nt-280, nt-12950)
		{rebounds, "How many rebounds were there by all Miami Heat players?", "value | where Team == Miami Heat | target Rebounds | agg sum"},
		{rebounds, "How many low zip codes are there in total?", "value | target ZIP code\nLower | agg count"},
		// "other than" excludes, and the "other" after it repeats the exclusion (WTQ nt-6650)
		{airports, "Other than Townsville, how many other communities are listed?", "value | where Community != Townsville | target Community | agg distinct"},
		// a numeric column's noun followed by a number is its value (WTQ nt-4970)
		{rebounds, "What were the rebounds of zip code 80022?", "list | where ZIP code\nLower == 80022 | target Rebounds"},
		// "the same <column> as <value>": that value's rows' column, those rows left out (WTQ nt-5600)
		{songs, "Which other song has the same length as Topeng?", "list | where Length same as (Title == Topeng) | named by Title"},
		// "who had <names> the most times": the names' groups by their rows (WTQ nt-6720)
		{races, "Who had pole position the most times?", "value | group Pole Position | order size desc 1 | target Pole Position"},
		// a verb a column is named after carries it: "top placed" ranks by Place, where 1 is the
		// top; "ranked first" is Rank 1, held as text (WTQ nt-6405, nt-4410)
		{contest, "What is the top placed country?", "value | order Place asc 1 | target Country"},
		{contest, "Which of these countries is ranked first?", "list | where Rank == 1 | target Country"},
		// the table's own rows, though a value spells their noun; a verb naming the date column
		// carries its month
		{buildings, "How many floors do the buildings in Syracuse have?", "value | where City == Syracuse | target Floors | agg sum"},
		{buildings, "How many buildings were built in February?", "value | where Built[%m] == 02 | agg count"},
		// "which is X, A or B": the one of the two that is X (WTQ nt-12565)
		{towers, "Which is taller than 50, the Granger Block or the Hotel Syracuse?", "value | where Name in Granger Block,Hotel Syracuse | where Height > 50 | target Name"},
		// two named rows compared on a scale: which one is on top, or whether the first is
		// (WTQ nt-2170, nt-3325)
		{towers, "Is the State Tower Building or the Granger Block taller?", "value | where Name in State Tower Building,Granger Block | order Height desc 1 | target Name"},
		{towers, "Which has fewer floors, the Granger Block or the Hotel Syracuse?", "value | where Name in Granger Block,Hotel Syracuse | order Floors asc 1 | target Name"},
		{medals, "Does Guam have a larger amount of bronze medals than Palau?", "verdict | where Nation in Guam,Palau | order Bronze desc 1 | target Nation | check Nation == Guam"},
		{medals, "Does Guam have more gold than Palau?", "verdict | where Nation in Guam,Palau | order Gold desc 1 | target Nation | check Nation == Guam"},
		// or by how many rows have each (DataBench 003/2)
		{passengers, "Are there more male passengers than female ones?", "verdict | where Sex in male,female | group Sex | order size desc 1 | target Sex | check Sex == male"},
		// a row placed by the rows around it, in the file's order (WTQ nt-3780, nt-5320, nt-9345,
		// nt-8190): the nearest row with another value when the answer's column is the
		// reference's; a phrase attached to the reference names it further; how many follow
		{bracket, "what region is listed before the midwest?", "value | where before (Region == Midwest) | where Region != Midwest | order position desc 1 | target Region"},
		{bracket, "the round after round 3", "value | where after (Round == 3) | where Round != 3 | order position asc 1 | target Round"},
		{bracket, "who finished before nate boyle for the united states?", "value | where before (Name == Nate Boyle & Nationality == United States) | where Name != Nate Boyle | order position desc 1 | named by Name"},
		{bracket, "what was the attendance right after the london lions?", "value | where after (Team == London Lions) | order position asc 1 | target Attendance"},
		{bracket, "how many teams are listed after the london lions?", "value | where after (Team == London Lions) | target Team | agg distinct"},
		// "above" before a lowercase code is a placement when the code is a value (WTQ nt-11725)
		{locomotives, "which code is above cl", "value | where before (Code == CL) | where Code != CL | order position desc 1 | target Code"},
		// a kind noun counts the values of the column its modifier names, not a column Type (nt-595)
		{locomotives, "how many of the surface types are not clay or hard?", "value | where Surface not in Clay,Hard | target Surface | agg distinct"},
		// "content" leans on its measure; a unit in parentheses says how it is measured (DataBench 056)
		{foods, "How many foods have a sodium content of more than 1 gram?", "value | where Sodium (g) > 1 | agg count"},
		{foods, "What's the highest amount of protein (in grams)?", "value | order Protein (g) desc 1 | target Protein (g)"},
		// a measure said absent or present (DataBench 056)
		{foods, "Are there any foods with zero protein?", "verdict | where Protein (g) == 0 | exists"},
		{foods, "Are there foods that do not contain sodium at all?", "verdict | where Sodium (g) == 0 | exists"},
		{foods, "Do all foods contain protein?", "verdict | all | check Protein (g) > 0"},
		{foods, "How many foods contain no sodium?", "value | where Sodium (g) == 0 | agg count"},
		{telco, "What are the 2 most common types of contract?", "list | group Contract | order size desc 2 | target Contract"}, // DataBench 021
		// a column named by what "how many" counts and the verb (WTQ nt-4970)
		{locomotives, "how many kilometers did number 4110 travel?", "value | where Number == 4110 | target Kilometres Travelled | agg sum"},
		// a verb between the entity asked about and what ranks it only carries it (DataBench
		// 031/10, 017): "received" restricts nothing; a compound noun names the rows (013)
		{reviews, "Which company received the lowest rating?", "value | order rating asc 1 | target company"},
		{reviews, "What's the highest score received by an entry?", "value | order score desc 1 | target score"},
		{coasters, "What is the average speed of all roller coasters?", "value | target Speed | agg mean"},
		// what an id or name column says a row is, ranked by how many rows it has (DataBench 004, 010)
		{trips, "Which vendor has the most trips recorded?", "value | group VendorID | order size desc 1 | target VendorID"},
		{clothing, "Which department has the most reviews?", "value | group Department Name | order size desc 1 | target Department Name"},
		// a comparison is the predicate, never part of the subject (DataBench 010)
		{clothing, "Is the age of the reviewers above 50 years on average?", "verdict | target Age | agg mean | check Age > 50"},
		// "total" in a filtered column's name as said is each row's (DataBench 004)
		{trips, "Are there any trips with a total distance greater than 30 miles?", "verdict | where trip_distance > 30 | exists"},
		// a count of a column's units held by the rows, and a measure noun leaning on a column (014, 026)
		{listings, "Is there a property with exactly 5 bedrooms?", "verdict | where bedrooms == 5 | exists"},
		{listings, "Is there any listing with a quality rating of 10?", "verdict | where quality == 10 | exists"},
		{trips, "Is there any trip with more than 6 passengers?", "verdict | where passenger_count > 6 | exists"},
		// "X for Y" names one column of several; a unit glosses its column (006, 013, 009)
		{listings, "What are the top 3 highest review scores for location?", "list | order review_scores_location desc 3 | target review_scores_location"},
		{clothing, "What are the top 3 speeds (in mph)?", "list | order speed_mph desc 3 | target speed_mph"},
		{clothing, "What are the 3 highest recorded precipitation events in inches?", "list | order Precipitation desc 3 | target Precipitation"},
		// a generic row: "a tweet", "per tweet", the agent of a participle (041, 049, 010)
		{tweets, "What's the maximum number of retweets a tweet has received?", "value | target retweet_count | agg max"},
		{tweets, "What is the average number of favorites per tweet?", "value | target favorites | agg mean"},
		{clothing, "What are the 4 highest ratings given by reviewers?", "list | order Rating desc 4 | target Rating"},
		{incidents, "What is the most common resolution for incidents reported online?", "value | where Filed Online == True | group Resolution | order size desc 1 | target Resolution"},
		// "is it true that" frames a yes/no question; "years" after the number is the age's unit (046)
		{athletes, "Is it true that the athlete with the lowest ID is older than 30 years?", "verdict | order ID asc 1 | target Age | check Age > 30"},
		// "have a <column>" of the one row ranked first: the value is there (046); "from <year>" (035)
		{athletes, "Does the athlete with the highest height also have a medal?", "verdict | order Height desc 1 | target Medal | check Medal notna"},
		{charts, "Is the song with the highest rank from 1965?", "verdict | order Rank asc 1 | target Year | check Year == 1965"},
		// a column before the noun "more" counts (WTQ nt-7350); a count of people in a column (nt-4375)
		{medals, "who had more gold medals, guam or palau?", "value | where Nation in Guam,Palau | order Gold desc 1 | target Nation"},
		{schedule, "which opponent had the least number of people in attendance?", "value | order Attendance asc 1 | target Opponent"},
		// whose a column's values are: "car colors" (DataBench 059); "how old" asks the age (047);
		// "a single transaction" is any one row (065)
		{cars, "List the 3 most common car colors in the dataset.", "list | group color | order size desc 3 | target color"},
		{cars, "How old are the 5 oldest customers in the dataset?", "list | order customer_age desc 5 | target customer_age"},
		{cars, "What is the maximum quantity ordered in a single transaction?", "value | target Quantity | agg max"},
		{cars, "Is there a car color named 'SILVER' listed?", "verdict | where color == SILVER | exists"},
		// a period named by a column of its own is grouped by it (DataBench 005)
		{complaints, "Which month sees the highest number of complaints?", "value | group month_name | order size desc 1 | target month_name"},
		{complaints, "Mention the 2 most common weekdays.", "list | group weekday_name | order size desc 2 | target weekday_name"},
		{complaints, "What are the top 3 months with the highest average tmax?", "list | group month_name | order mean(tmax) desc 3 | target month_name | named by month_name"},
		// a second superlative after "also" checks the row the first picks (DataBench 045, 055)
		{athletes, "Does the athlete with the highest height also have the highest glucose?", "verdict | order Height desc 1 | target Glucose | check Glucose top"},
		{athletes, "Is the athlete with the lowest ID also the one with the lowest insulin?", "verdict | order ID asc 1 | target Insulin | check Insulin bottom"},
		// a column named in parentheses after its description (042); "got a match" as the
		// measure present (040); "caused by a single tornado": any one row (008)
		{students, "What is the gender of the student with the highest final grade (G3)?", "value | order G3 desc 1 | target sex"},
		{students, "How many students got a match?", "value | where match > 0 | agg count"},
		{students, "What is the maximum number of injuries caused by a single tornado?", "value | target injuries | agg max"},
		// a column named again after "in" says which scale a superlative is on (DataBench 003)
		{countries, "Name the 3 happiness scores for the 3 unhappiest countries in the happiness score.", "list | order Happiness Score asc 3 | target Happiness Score"},
		// the rate of a yes/no column is its mean, never a filter on it (DataBench 002)
		{passengers, "Name the top 3 passenger classes by survival rate.", "list | group Pclass | order mean(Survived) desc 3 | target Pclass"},
		{passengers, "What is the survival rate of female passengers?", "value | where Sex == female | target Survived | agg mean"},
		{passengers, "Which passenger class has the highest survival rate?", "value | group Pclass | order mean(Survived) desc 1 | target Pclass"},
		// a degree word says its direction once: "lower than 10" is below 10, "younger than 10" too
		{passengers, "How many passengers have a fare lower than 10?", "value | where Fare < 10 | agg count"},
		{passengers, "How many passengers are younger than 10?", "value | where Age < 10 | agg count"},
		{passengers, "How many passengers paid a fare smaller than 10?", "value | where Fare < 10 | agg count"},
		// a comparison with another column of the same row (DataBench 007, 049)
		{players, "Are there players who have a greater overall score than their potential score?", "verdict | where overall > potential | exists"},
		{players, "How many players have a lower overall score than potential score?", "value | where overall < potential | agg count"},
		// more than half of the rows (DataBench 003)
		{athletes, "Do the majority of athletes have an age greater than 30?", "verdict | all | majority | check Age > 30"},
		{athletes, "Are most athletes older than 25?", "verdict | all | majority | check Age > 25"},
		// a statement that no row is so (DataBench 008, 009)
		{athletes, "There are no athletes older than 40.", "verdict | where Age > 40 | exists | none"},
		{athletes, "No athlete has a height greater than 200 cm.", "verdict | where Height > 200 | exists | none"},
		// the count of the rows a superlative ranks through "with" (028)
		{athletes, "Provide the glucose levels of the 2 individuals with the highest insulin levels.", "list | order Insulin desc 2 | target Glucose"},
		// "unique" is not unique_key's; a participle after a plural opens a clause (005)
		{complaints, "What's the total number of unique agencies handling complaints?", "value | target agency | agg distinct"},
		// the row entity, named or not by the table
		{players, "What is the average overall score of players from France?", "value | where nationality == France | target overall | agg mean"},
		// a column said empty (DataBench 006, 035, 065); "no" that is a value stays one (021)
		{services, "Are there songs without lyrics?", "verdict | where Lyrics isna | exists"},
		{services, "Are there any listings without a specified room type?", "verdict | where room_type isna | exists"},
		{services, "How many rows have a missing customerID?", "value | where customerID isna | agg count"},
		{services, "Are there any customers with no internet service?", "verdict | where InternetService == No | exists"},
		{services, "How many customers do not have any lyrics?", "value | where Lyrics isna | agg count"},
		// one value in every row (DataBench 006, 010)
		{services, "Do all customers come from the same room type?", "verdict | target room_type | alike"},
		{songs, "Are all songs of the same length?", "verdict | target Length | alike"},
		// a text ranked by its length; the row a superlative ranks, named by its column (035)
		{services, "Which customerID has the longest lyrics?", "value | order len(Lyrics) desc 1 | target customerID"},
		{charts, "What is the year of the song with the highest rank?", "value | order Rank asc 1 | target Year"},
		// an aggregate's word that is part of a column's name (012)
		{vitals, "What is the average maximum heart rate?", "value | target MaxHR | agg mean"},
		{vitals, "What is the most common drop-off location?", "value | group DOLocationID | order size desc 1 | target DOLocationID"},
		// the rows named by a word of the table's theme, or by a word only part of a column's name (048, 014)
		{jobs, "Which state has the most number of job listings?", "value | group job_state | order size desc 1 | target job_state"},
		{jobs, "What is the review scores rating for the property with the highest number of bedrooms?", "value | order bedrooms desc 1 | target review_scores_rating"},
		// a column of counts named before "counts"; the rows after "of"; an id column's own word (062, 025, 049)
		{posts, "What are the bottom 3 retweet counts of the tweets?", "list | order retweets asc 3 | target retweets"},
		{posts, "What are the highest 2 rankings of URLs?", "list | order Ranking asc 2 | target Ranking"},
		{posts, "Which author has the most tweets?", "value | group author_id | order size desc 1 | target author_id"},
		// superlatives of time by the one column of years; of length by a duration (045, 013)
		{releases, "What's the name of the oldest song?", "value | order release_year asc 1 | target name"},
		{releases, "What are the 4 latest release years?", "list | order release_year desc 4 | target release_year"},
		{releases, "What's the name of the longest song?", "value | order duration_ms desc 1 | target name"},
		// a participle of a column's verb ranks by that column (050, 054)
		{releases, "What is the name of the most favorited song?", "value | order favorites desc 1 | target name"},
		{releases, "What are the retweet counts for the top 2 most favorited songs?", "list | order favorites desc 2 | target retweets"},
		// a column of counts named by what it counts; a compared number's unit or noun names the column (053, 055, 056)
		{patents, "On average, how many claims do the patents have?", "value | target num_claims | agg mean"},
		{patents, "How many rows have more than 500 kcal?", "value | where Calories (kcal) > 500 | agg count"},
		{patents, "How many borrowers have more than 1 existing loan?", "value | where Number of Existing Loans > 1 | agg count"},
		// groups by a period of the one column of dates, or by the column named for it (008, 017, 018)
		{flights, "In which month do most flights occur?", "value | group date by %B | order size desc 1 | target date"},
		{flights, "Which day of the week has the most flights?", "value | group date by %A | order size desc 1 | target date"},
		{flights, "Which year had the highest total distance?", "value | group date by %Y | order sum(distance) desc 1 | target date"},
		{complaints, "Which day of the week has the most complaints?", "value | group weekday_name | order size desc 1 | target weekday_name"},
		// a word for a point on a scale after a column's whole name is that column (034, 018)
		{countries, "What's the maximum Generosity score among the countries?", "value | target Generosity | agg max"},
		{countries, "What are the top 3 Social support scores?", "list | order Social support desc 3 | target Social support"},
		// verbs of making, getting and using carry the rows (014, 027, 049, 008)
		{jobs, "What is the maximum number of bedrooms a property has received?", "value | target bedrooms | agg max"},
		{cars, "What is the maximum quantity of cars bought in a single purchase?", "value | target Quantity | agg max"},
		{cars, "List the 2 least common colors used in the cars.", "list | group color | order size asc 2 | target color"},
		// an adverb of the participle before the head stays in the noun phrase (011, 049)
		{complaints, "Name the 4 most frequently occurring agencies.", "list | group agency | order size desc 4 | target agency"},
		{complaints, "What is the most commonly reported complaint type?", "value | group complaint_type | order size desc 1 | target complaint_type"},
		// two rows compared by the column asked about, each picked by an extreme (035, 052)
		{charts, "Is the song of the row with the highest rank the same as the song of the row with the lowest rank?", "verdict | order Rank asc 1 | target Song | check Song at Rank top"},
		{countries, "Is the country with the highest Generosity the same as the country with the lowest Social support?", "verdict | order Generosity desc 1 | target Country | check Country at Social support bottom"},
		// British spelling names an American column (054)
		{releases, "What is the name of the song with the most favourites?", "value | order favorites desc 1 | target name"},
		// a row noun whose own attachment restricts it names the rows (043); "in a property" is
		// one row (014); an adjective a column's name puts after its noun (043)
		{billionaires, "What is the average age for billionaires in the 'Technology' category?", "value | where category == Technology | target age | agg mean"},
		{jobs, "What is the maximum number of bedrooms in a property?", "value | target bedrooms | agg max"},
		{patents, "What is the average disbursement gross for the patents?", "value | target DisbursementGross | agg mean"},
		// "in terms of entry count" ranks groups by their rows; "column" after a name restates it (017, 024)
		{complaints, "Provide the bottom 4 agencies in terms of entry count.", "list | group agency | order size asc 4 | target agency"},
		{complaints, "How many unique agencies are present in the 'agency' column?", "value | target agency | agg distinct"},
		// "zero" is a number wherever it stands (047, 023)
		{complaints, "Are there any complaints with a tmax below zero?", "verdict | where tmax < 0 | exists"},
	}
	for _, c := range cases {
		ix := schema.NewIndex(c.table)
		s, r := ix.Read(c.q)
		m, err := Read(s, r, ix)
		if err != nil {
			t.Errorf("%q: %v", c.q, err)
			continue
		}
		if got := m.String(); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.q, got, c.want)
		}
	}
}

// TestReadLeavesGaps holds the questions Read must not answer: each has a phrase that changes
// what is computed and maps to nothing, and answering without it would answer a nearby
// question.
func TestReadLeavesGaps(t *testing.T) {
	cases := []struct {
		table *schema.Table
		q     string
	}{
		{staff, "average salary of managers"},                                       // managers: part of a title
		{staff, "How many employees left the company?"},                             // left: the condition itself
		{passengers, "How many passengers survived the iceberg?"},                   // the iceberg
		{services, "Which customerID has the highest lyrics?"},                      // text has no height
		{posts, "Which URL is the most expensive?"},                                 // no price: a ranking is no price
		{charts, "What is the song of the top rank produced in the earliest year?"}, // two rankings
		{passengers, "median age of the crew"},                                      // the crew are not the passengers
		{passengers, "How many children survived?"},                                 // an age class with no bound given
		{passengers, "average fare of passengers with a pool"},
		{passengers, "which passenger is listed below Braund?"}, // Braund names no row the table lists
		{passengers, "Is the mean Age significantly greater than 30?"},
		{passengers, "average fare by class"},                                  // grouping: the keyword rules' job
		{passengers, "plot the fare"},                                          // a chart
		{schedule, "How many times was the opponent first?"},                   // first: a place, not a position
		{passengers, "pivot"},                                                  // nothing to select or compute
		{billionaires, "which year had the most billionaires"},                 // a period of dates
		{passengers, "How many passengers paid?"},                              // paid: the condition itself, no object fronted
		{passengers, "What is the average age of passengers who paid?"},        // a relative clause's verb is a condition
		{passengers, "which passenger is listed before Braund?"},               // the same
		{rebounds, "How many rebounds were there by players?"},                 // by players: maybe groups
		{songs, "Is the length of Topeng the same as Membebaniku?"},            // two rows compared: a verdict it cannot check
		{songs, "Which song has the same length?"},                             // same as what
		{medals, "How many more bronze medals does Guam have than Palau?"},     // a difference, not which is more
		{medals, "Which nation has more medals, Guam or Palau?"},               // medals: no column holds them all
		{rebounds, "Which two players have the most rebounds in May?"},         // events ranked: the sum of each player's
		{reviews, "Which company received a fine?"},                            // what was received is the condition
		{coasters, "What is the average speed of all wooden roller coasters?"}, // wooden: a kind the table may not hold
		{bracket, "is the midwest listed before the east?"},                    // two rows' places compared: a verdict
		{bracket, "what was the tallest team after the london lions?"},         // a ranking and a placement
		{bracket, "what was the average height after the london lions?"},       // a summary of the rows that follow: not read
		{tweets, "Who is the author of the post with the most words?"},         // posts ranked by their words, not authors by posts
		{purses, "which purse has the most money?"},
		{athletes, "Does the tallest athlete also have the most medals?"}, // medals counted per athlete: not a column's scale
		{cars, "What is the total of booster doses?"},                     // a booster dose is a kind of dose: some doses
		{schedule, "What is the average home attendance?"},                // home: a place, some of the games                            // money: an amount, not the rows (WTQ nt-12460)
	}
	for _, c := range cases {
		ix := schema.NewIndex(c.table)
		s, r := ix.Read(c.q)
		m, err := Read(s, r, ix)
		var g *Gap
		if !errors.As(err, &g) {
			t.Errorf("%q: read as %v, want a gap", c.q, m)
		}
	}
}

// TestPlaced holds the words Placed lets pass whatever the rest of the question means, and the
// restricting words it never lets pass: the keyword planner drops the first from its unknown
// words and must still stop at the second.
func TestPlaced(t *testing.T) {
	cases := []struct {
		table *schema.Table
		q     string
		want  []string
	}{
		{passengers, "plot a histogram of the fare paid by the passengers", []string{"paid", "passengers"}},
		{passengers, "What is the mean fare paid by the passengers?", []string{"paid", "passengers"}},
		{passengers, "How many children survived?", nil},
		{passengers, "average fare weighted by age", nil}, // weighted by a column changes the mean
		{passengers, "median age of the crew", nil},
		{staff, "average salary of managers", nil},
		{billionaires, "box plot of the final worth of billionaires by gender", []string{"billionaires"}},
	}
	for _, c := range cases {
		ix := schema.NewIndex(c.table)
		s, r := ix.Read(c.q)
		if got := Placed(s, r, ix); !slices.Equal(got, c.want) {
			t.Errorf("%q: placed %q, want %q", c.q, got, c.want)
		}
	}
}

// TestAsksEntity holds which questions ask for something by name: their answer must name it.
func TestAsksEntity(t *testing.T) {
	cases := []struct {
		table *schema.Table
		q     string
		want  string
	}{
		{schedule, "Who is the last opponent?", "Who"},
		{billionaires, "Which country has the most billionaires?", "Which country"},
		{passengers, "What is the name of the oldest passenger?", "the name of the oldest passenger"},
		{passengers, "What is the average fare?", ""},
		{passengers, "What's the average passenger?", ""},
		{passengers, "How many passengers survived?", ""},
		{passengers, "Is the oldest passenger female?", ""},
		{flights, "What was the first date?", ""}, // a date is a value, not a name
		// the one of the values offered (WTQ nt-12565)
		{towers, "Which is taller than 50, the Granger Block or the Hotel Syracuse?", "Which"},
	}
	for _, c := range cases {
		ix := schema.NewIndex(c.table)
		s, r := ix.Read(c.q)
		if got := AsksEntity(s, r, ix); got != c.want {
			t.Errorf("%q: asks for %q, want %q", c.q, got, c.want)
		}
	}
	ix := schema.NewIndex(towers)
	s, r := ix.Read("Which is a tower, the Granger Block or the Hotel Syracuse?")
	if got := EntityColumn(s, r, ix); got != "Name" {
		t.Errorf("the values offered are named by %q, want Name", got)
	}
}
