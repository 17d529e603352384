package analyst

import "testing"

// richCSV has countries of one billionaire each, listed out of alphabetical order, and one
// country of three: the least numerous are tied, as in DataBench's Forbes table.
const richCSV = `personName,country,finalWorth
Ana,Peru,10
Ben,Chile,20
Cy,Spain,30
Di,Spain,40
Ed,Spain,50
Fay,Angola,60
`

// TestTiesBrokenAsAsked holds rankings whose question says how to break ties in a sentence
// after it (DataBench 001, 010, 059): alphabetically, in reverse, or in the file's order.
func TestTiesBrokenAsAsked(t *testing.T) {
	askEach(t, "forbes.csv", richCSV, []replyCase{
		// Peru, Chile and Angola have one each: A to Z, the first two are Angola and Chile
		{q: "List the 2 countries with the least number of billionaires. If there are more than two with the same number take the first two alphabetically.", want: "**Angola** (1 row), **Chile** (1 row)", not: "Peru", anywhere: true},
		{q: "List the 2 countries with the fewest billionaires. If there is a tie, use reverse alphabetical order.", want: "**Peru** (1 row), **Chile** (1 row)", not: "Angola", anywhere: true},
		{q: "Which 2 countries have the fewest billionaires? If you find a tie answer with row order.", want: "**Peru** (1 row), **Chile** (1 row)", not: "Angola", anywhere: true},
		{q: "Which country has the fewest billionaires? If there is a tie then use alphabetical order.", want: "is **Angola**", not: "is a tie", anywhere: true},
		// a sentence naming no order the rules know is not dropped
		{q: "Which country has the fewest billionaires? If there is a tie choose the richest.", want: "did not", not: "**", anywhere: true},
	})
}
