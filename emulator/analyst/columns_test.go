package analyst

import (
	"slices"
	"testing"
)

// widePrices is a profile of a price table in wide form: one column per ticker.
var widePrices = &Profile{Frames: []Frame{{Key: "wide.csv", File: "wide.csv", Rows: 500, Columns: []Column{
	{Name: "Date", Kind: "date", Unique: 500}, {Name: "AAPL", Kind: "num", Unique: 480}, {Name: "MSFT", Kind: "num", Unique: 470},
	{Name: "GOOG", Kind: "num", Unique: 490}, {Name: "Volume_AAPL", Kind: "num", Unique: 500},
}}}}

func TestPlan_TickersAsColumns(t *testing.T) {
	tests := []struct {
		q        string
		intent   intent
		measures []string
	}{
		{q: "plot MSFT and AAPL", intent: intentChart, measures: []string{"MSFT", "AAPL"}},
		{q: "correlation between goog and msft", intent: intentCorr, measures: []string{"GOOG", "MSFT"}},
		{q: "when did AAPL peak", intent: intentPeak, measures: []string{"AAPL"}},
		{q: "aapl volume over time", intent: intentChart, measures: []string{"Volume_AAPL"}},
	}
	for _, tt := range tests {
		pl := makePlan(tt.q, nil, widePrices)
		if pl.Query.Intent != tt.intent || !slices.Equal(pl.Query.Measures, tt.measures) {
			t.Errorf("%q: intent %s measures %q, want %s %q (reply %q)", tt.q, pl.Query.Intent, pl.Query.Measures, tt.intent, tt.measures, pl.Reply)
		}
	}
}

func TestMentions_LongestBestFirst(t *testing.T) {
	p := &Profile{Frames: []Frame{{Key: "s.csv", Rows: 10, Columns: []Column{
		{Name: "units", Kind: "num"}, {Name: "unit_price", Kind: "num"}, {Name: "Q1_satisfaction", Kind: "num"}, {Name: "Q2_satisfaction", Kind: "num"},
	}}}}
	ix := newColIndex(p)
	tests := []struct {
		q    string
		want [][]string // per mention, the candidate columns
	}{
		{q: "unit price", want: [][]string{{"unit_price"}}},
		{q: "units", want: [][]string{{"units"}}},
		{q: "UNIT-PRICE vs units", want: [][]string{{"unit_price"}, {"units"}}},
		{q: "satisfaction", want: [][]string{{"Q1_satisfaction", "Q2_satisfaction"}}},
		{q: "q2 satisfation", want: [][]string{{"Q2_satisfaction"}}},
	}
	for _, tt := range tests {
		var got [][]string
		for _, m := range ix.mentions(splitWords(tt.q)) {
			var names []string
			for _, c := range m.cols {
				names = append(names, ix.column(c).Name)
			}
			got = append(got, names)
		}
		if !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("%q: mentions %q, want %q", tt.q, got, tt.want)
		}
	}
}
