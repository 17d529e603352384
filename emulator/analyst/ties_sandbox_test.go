package analyst

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "forbes.csv"), []byte(richCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{"forbes.csv"}
	k := newKernelFrom(t, dir, files)
	k.exec(profileCode(files, ""))
	cases := []struct{ q, want, not string }{
		// Peru, Chile and Angola have one each: A to Z, the first two are Angola and Chile
		{"List the 2 countries with the least number of billionaires. If there are more than two with the same number take the first two alphabetically.", "**Angola** (1 row), **Chile** (1 row)", "Peru"},
		{"List the 2 countries with the fewest billionaires. If there is a tie, use reverse alphabetical order.", "**Peru** (1 row), **Chile** (1 row)", "Angola"},
		{"Which 2 countries have the fewest billionaires? If you find a tie answer with row order.", "**Peru** (1 row), **Chile** (1 row)", "Angola"},
		{"Which country has the fewest billionaires? If there is a tie then use alphabetical order.", "is **Angola**", "is a tie"},
		// a sentence naming no order the rules know is not dropped
		{"Which country has the fewest billionaires? If there is a tie choose the richest.", "did not", "**"},
	}
	for _, c := range cases {
		reply, _, failed := k.ask(c.q, nil, files)
		if failed != "" || !strings.Contains(reply, c.want) || strings.Contains(reply, c.not) {
			t.Errorf("%q:\n got %s %s\nwant %s, not %s", c.q, reply, failed, c.want, c.not)
		}
	}
}
