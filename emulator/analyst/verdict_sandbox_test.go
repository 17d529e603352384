package analyst

import "testing"

// athletesCSV has a medal column that most rows leave empty, as DataBench's Olympic table does.
const athletesCSV = `Name,Age,Height,Medal,Events
Ana Lopez,24,181,,2
Ben Okafor,35,176,Gold,1
Chen Wei,29,190,,3
Dara Singh,31,168,Silver,5
`

// TestVerdictsOnOneRow holds yes/no questions about the one row a superlative picks, in the
// ways DataBench's authors ask them: "also have a <column>", "is it true that …", a count of a
// column's units after "with".
func TestVerdictsOnOneRow(t *testing.T) {
	askEach(t, "athletes.csv", athletesCSV, []replyCase{
		// the tallest, Chen Wei, has no medal; the oldest, Ben Okafor, has one
		{q: "Does the athlete with the highest height also have a medal?", want: "**No.**"},
		{q: "Does the oldest athlete have a medal?", want: "**Yes.**"},
		// the shortest, Dara Singh, is 31
		{q: "Is it true that the athlete with the lowest height is older than 30 years?", want: "**Yes.**"},
		{q: "Is there any athlete with exactly 3 events?", want: "**Yes.**"},
		{q: "Is there an athlete with exactly 4 events?", want: "**No.**"},
	})
}

// TestAlsoTheExtreme holds "is the X with the highest A also the one with the highest B"
// (DataBench 045, 055): the row the first superlative picks, checked against B's extreme.
func TestAlsoTheExtreme(t *testing.T) {
	askEach(t, "athletes.csv", athletesCSV, []replyCase{
		// the tallest, Chen Wei, has 3 events; Dara Singh has 5
		{q: "Does the athlete with the highest height also have the most events?", want: "**No.** The `Events` of the row with the highest `Height` is **3** (`Height` 190); the highest `Events` is **5**."},
		// the one with the most events, Dara Singh, is the shortest
		{q: "Is the athlete with the most events also the one with the lowest height?", want: "**Yes.** The `Height` of the row with the highest `Events` is **168**"},
	})
}

// chartCSV ranks songs (1 is the best) whose artists repeat: the best and the worst are both
// Ann's, the most played is Bo's.
const chartCSV = `Song,Artist,Rank,Plays
Alpha,Ann,1,50
Beta,Bo,2,90
Gamma,Cy,3,20
Delta,Ann,4,10
`

// TestSameAtExtremes holds "is the X of the row with the highest A the same as the X of the
// row with the highest B" (DataBench 035, 052): the two rows' X compared, whichever rows
// they are; a rank's highest is number 1.
func TestSameAtExtremes(t *testing.T) {
	askEach(t, "chart.csv", chartCSV, []replyCase{
		{q: "Is the artist of the song with the highest rank the same as the artist of the song with the lowest rank?", want: "**Yes.** The `Artist` of the row with the lowest `Rank` is **Ann** (`Rank` 1); the `Artist` of the row with the highest `Rank` is **Ann**."},
		{q: "Is the artist with the most plays the same as the artist with the highest rank?", want: "**No.** The `Artist` of the row with the highest `Plays` is **Bo** (`Plays` 90); the `Artist` of the row with the lowest `Rank` is **Ann**."},
	})
}

// TestDenials holds statements that no row is so, which DataBench asks as yes/no questions
// ("There were no days when …", "No tornado has …"): yes when no row passes.
func TestDenials(t *testing.T) {
	askEach(t, "athletes.csv", athletesCSV, []replyCase{
		{q: "There are no athletes with a height greater than 200.", want: "**Yes.** No row matches: `Height` above 200."},
		{q: "There were no athletes older than 34.", want: "**No.** 1 row matches: `Age` above 34."},
		{q: "No athlete has more than 5 events.", want: "**Yes.** No row matches"},
	})
}

// TestColumnAgainstColumn holds a comparison of two columns of each row (DataBench 007, 049):
// every athlete's age is below their height; only Ana Lopez has fewer events than 24 … none
// has more events than years.
func TestColumnAgainstColumn(t *testing.T) {
	askEach(t, "athletes.csv", athletesCSV, []replyCase{
		{q: "Are there athletes with a greater age than their height?", want: "**No.** No row matches: `Age` above `Height`."},
		{q: "How many athletes have a lower age than height?", want: "**4** of 4 rows match: `Age` below `Height`."},
	})
}

// TestMajority holds questions about more than half of the rows (DataBench 003): two of the
// four athletes are taller than 180, three are older than 25.
func TestMajority(t *testing.T) {
	askEach(t, "athletes.csv", athletesCSV, []replyCase{
		{q: "Do the majority of athletes have a height greater than 180 cm?", want: "**No.** `Height` above 180 in 2 of the 4 rows (50%), not more than half."},
		{q: "Are most athletes older than 25?", want: "**Yes.** `Age` above 25 in 3 of the 4 rows (75%), more than half."},
	})
}

// songsCSV leaves one song's lyrics empty and another's blank, and writes a missing service
// as the value "No", as DataBench's Billboard and Telco tables do.
const songsCSV = `Song,Artist,Lyrics,Service
Alpha,Ann,la la,DSL
Beta,Bo,,No
Gamma,Cy,   ,Fiber optic
Delta,Di,do re,DSL
`

// TestEmptyColumns holds a column said empty ("without lyrics", "missing", "no …"): a missing
// or blank cell, or the value the table writes for none.
func TestEmptyColumns(t *testing.T) {
	askEach(t, "songs.csv", songsCSV, []replyCase{
		{q: "Are there songs without lyrics?", want: "**Yes.**"},
		{q: "How many rows have no lyrics?", want: "**2** of 4 rows match: `Lyrics` has no value."},
		{q: "Is there a song with no service?", want: "**Yes.**"},
		{q: "Are there any songs without an artist?", want: "**No.**"},
	})
}

// TestAllAlike holds "are all … the same X" (DataBench 006, 010): one value in every row.
func TestAllAlike(t *testing.T) {
	askEach(t, "songs.csv", songsCSV, []replyCase{
		{q: "Do all songs come from the same service?", want: "**No.** `Service` has **3** different values; the most common is **DSL** (2 rows)."},
		{q: "Are all songs in the same service?", want: "**No.**"},
	})
	askEach(t, "songs.csv", "Song,Genre\nA,pop\nB,pop\n", []replyCase{
		{q: "Are all songs of the same genre?", want: "**Yes.** Every row has the same `Genre`: **pop**."},
	})
}

// lyricsCSV has lyrics of different lengths, and ranks where 1 is the top of the chart.
const lyricsCSV = `Rank,Song,Artist,Lyrics
1,Alpha,Ann,la la la la la la
2,Beta,Bo,do re mi fa so la ti do re mi
3,Gamma,Cy,oh
`

// TestTextByLength holds superlatives of length on a column of text (DataBench 035, 050): by
// how long each text is, never alphabetically; and the song the superlative ranks is the row.
func TestTextByLength(t *testing.T) {
	askEach(t, "songs.csv", lyricsCSV, []replyCase{
		{q: "What's the rank of the song with the longest lyrics?", want: "The `Rank` of the row with the longest `Lyrics` is **2** (length of `Lyrics` 29)."},
		{q: "Who is the artist of the song with the shortest lyrics?", want: "The `Artist` of the row with the shortest `Lyrics` is **Cy** (length of `Lyrics` 2)."},
		{q: "Who is the artist of the song with the highest rank?", want: "The `Artist` of the row with the lowest `Rank` is **Ann** (`Rank` 1)."},
	})
}

// releasesCSV has songs by year, with durations and favorites.
const releasesCSV = `name,release_year,duration_ms,favorites
Alpha,1999,200000,10
Beta,1987,310000,3
Gamma,2021,150000,42
`

// TestTimeAndVerbSuperlatives holds superlatives of time ranked by the one column of years,
// of length by the duration, and of a column's verb by that column (DataBench 045, 050).
func TestTimeAndVerbSuperlatives(t *testing.T) {
	askEach(t, "songs.csv", releasesCSV, []replyCase{
		{q: "What's the name of the oldest song?", want: "**Beta**", anywhere: true},
		{q: "What's the name of the most recent song?", want: "**Gamma**", anywhere: true},
		{q: "What's the name of the longest song?", want: "**Beta**", anywhere: true},
		{q: "What is the name of the most favorited song?", want: "**Gamma**", anywhere: true},
	})
}

// stormsCSV has dates on three Tuesdays, two of them in March.
const stormsCSV = `date,state,injuries
2021-01-05,TX,3
2021-03-07,OK,1
2021-03-09,TX,0
2022-03-01,KS,5
2022-06-01,TX,2
`

// TestPeriodGroups holds groups by a period of the dates (DataBench 008, 017, 018): the
// month, weekday or year of each date, ranked by their number of rows.
func TestPeriodGroups(t *testing.T) {
	askEach(t, "storms.csv", stormsCSV, []replyCase{
		{q: "Which day of the week has the most entries?", want: "The weekday of `date` with the most rows is **Tuesday** (3 rows)."},
		{q: "In which month do most storms occur?", want: "The month of `date` with the most rows is **March** (3 rows)."},
		{q: "What are the 2 years with the most entries?", want: "The 2 years of `date` with the most rows: **2021** (3 rows), **2022** (2 rows)."},
		// ranked by a total or a mean: 2022 has 7 injuries in all, Tuesdays 2.67 on average
		{q: "Which year had the highest number of injuries?", want: "The year of `date` with the highest total of `injuries` is **2022** (7)."},
		{q: "Which day of the week had the highest average injuries?", want: "The weekday of `date` with the highest average of `injuries` is **Tuesday** (2.67)."},
	})
}
