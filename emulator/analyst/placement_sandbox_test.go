package analyst

import "testing"

// buildingsCSV is a small table in the file's own order: rows placed by their neighbours, a
// measure some rows lack, and heights two ranges hold equally many of.
const buildingsCSV = `Name,Height,Floors,City,Built
State Tower Building,96,23,Syracuse,1928-03-03
Granger Block,40,5,Syracuse,1869-02-09
Hotel Syracuse,78,19,Syracuse,1924-02-11
Monroe Tower,60,0,Rochester,1931-04-02
Bell Hall,30,4,Rochester,1931-02-02
`

// TestPlacedRowsAndTies asks what analysts ask of such a table (WTQ's "listed after", DataBench's
// ranges and absent measures) and holds the replies: the row next in the file, never the named
// one; a tie at the top named as a tie; "zero floors" as the rows at 0, said in plain words.
func TestPlacedRowsAndTies(t *testing.T) {
	askEach(t, "buildings.csv", buildingsCSV, []replyCase{
		// the row after Granger Block is the third line of the file
		{q: "which building is listed after the granger block?", want: "The `Name` listed after Granger Block in the file's order is **Hotel Syracuse**.", anywhere: true},
		{q: "which building comes before bell hall?", want: "is **Monroe Tower**", anywhere: true},
		{q: "what is the height of the building right after hotel syracuse?", want: "is **60**", anywhere: true},
		// heights 30 and 40 are in 0-50, 60 and 78 in 50-80, 96 above: two ranges of two
		{q: "What's the most common height range among buildings: (0-50, 50-80, 80+)?", want: "is a tie: **0-50** (2 rows) and **50-80** (2 rows)", anywhere: true},
		// Monroe Tower has no floors recorded as 0
		{q: "are there any buildings with zero floors?", want: "**Yes.** 1 row matches: `Floors` is 0.", anywhere: true},
		{q: "are there any buildings with zero height?", want: "**No.** No row matches: `Height` is 0.", anywhere: true},
	})
}
