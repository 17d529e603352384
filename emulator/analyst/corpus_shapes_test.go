package analyst

// More file shapes for the corpus: contracts with start and end dates, a wide year-by-field
// table, daily prices with day-first dates, and a second daily file that joins on the date.
const (
	ct = "contracts.csv"
	fl = "fields.csv"
	dy = "daily.csv"
	dr = "daily.csv+rates.csv"
)

var corpusShapes = []corpusCase{
	{set: ct, q: "overview", intent: intentOverview},
	{set: fl, q: "overview", intent: intentOverview},
	{set: dy, q: "overview", intent: intentOverview},
	{set: dr, q: "overview", intent: intentOverview},
}
