package analyst

import (
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/meaning"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// droppedCase is a question, the keyword rules' filters, and what a check of dropped phrases
// must return for them.
type droppedCase struct {
	q       string
	filters []Filter
	want    []string
}

// checkDropped runs dropped on each case's question, read with the vocabulary v.
func checkDropped(t *testing.T, v *language.Vocabulary, cases []droppedCase, dropped func(questionReading, *Query) []string) {
	t.Helper()
	for _, c := range cases {
		rd := questionReading{s: language.Read(c.q, v)}
		if got := dropped(rd, &Query{Intent: intentSize, Filters: c.filters}); !slices.Equal(got, c.want) {
			t.Errorf("%q with %+v: dropped %q, want %q", c.q, c.filters, got, c.want)
		}
	}
}

// TestComparisonsDropped: a comparison with a number or a date that the keyword rules' query
// does not carry is what was dropped, and is asked back; one a filter carries, in its direction
// or, for a comparative on its own scale ("younger"), in either, is not.
func TestComparisonsDropped(t *testing.T) {
	t.Parallel()
	checkDropped(t, language.NewVocabulary("founded", "club", "age", "type", "established"), []droppedCase{
		{"what is the number of clubs that were founded after 1950?", nil, []string{"after 1950"}},
		{"what is the number of clubs that were founded after 1950?", []Filter{{Col: "founded", Op: ">", Value: "1950"}}, nil},
		{"which was the only diocese established before 1900?", []Filter{{Col: "type", Op: "==", Value: "Diocese"}}, []string{"before 1900"}},
		{"which was the only diocese established before 1900?", []Filter{{Col: "established", Op: "<", Value: "1900-01-01"}}, nil},
		{"how many respondents are younger than 25?", []Filter{{Col: "age", Op: "<", Value: "25"}}, nil},
		{"how many respondents are over 25?", []Filter{{Col: "age", Op: "<", Value: "25"}}, []string{"over 25"}},
	}, questionReading.comparisonsDropped)
}

// TestMonthDaysDropped: a month or a day named without a year ("in April", "on September
// 17th") is dropped when the keyword rules' query has no date filter, which would answer for
// every date (WTQ nt-7280, nt-9520); a date filter carries it, and "may" the modal is no month.
func TestMonthDaysDropped(t *testing.T) {
	t.Parallel()
	checkDropped(t, language.NewVocabulary("attendance", "release date"), []droppedCase{
		{"how many release dates were in april?", nil, []string{"in april"}},
		{"what is the total in attendance for september 17th?", nil, []string{"for september 17th"}},
		{"what was the attendance on the 3rd of March?", nil, []string{"on the 3rd of March"}},
		{"what was the attendance in March 2011?", []Filter{{Col: "Date", Op: "month", Value: "2011-03", Kind: "date"}}, nil},
		{"which game may have the highest attendance?", nil, nil},
	}, questionReading.monthDaysDropped)
}

// TestKeywordMisreads: a keyword reading that keeps the value the meaning excludes, counts the
// cells of a measure the meaning adds up or reads, or counts the rows where the meaning adds a
// measure up, gives way to the meaning (WTQ nt-6650, nt-280, nt-1715, nt-1505); one that agrees
// with it does not.
func TestKeywordMisreads(t *testing.T) {
	t.Parallel()
	town := meaning.Condition{Column: "Community", Op: "==", Value: "Townsville"}
	other := town
	other.Op = "!="
	cases := []struct {
		name string
		q    Query
		m    meaning.Meaning
		want bool
	}{
		{"excluded kept", Query{Intent: intentSize, Filters: []Filter{{Col: "Community", Op: "==", Value: "Townsville"}}},
			meaning.Meaning{Filters: []meaning.Condition{other}, Target: "Community", Agg: meaning.Distinct}, true},
		{"same filter", Query{Intent: intentSize, Filters: []Filter{{Col: "Community", Op: "==", Value: "Townsville"}}},
			meaning.Meaning{Filters: []meaning.Condition{town}, Agg: meaning.Count}, false},
		{"cells counted", Query{Intent: intentStat, Agg: "count", Measures: []string{"Rebounds"}},
			meaning.Meaning{Target: "Rebounds", Agg: meaning.Sum}, true},
		{"value counted", Query{Intent: intentStat, Agg: "count", Measures: []string{"Starters"}},
			meaning.Meaning{Target: "Starters"}, true},
		{"rows counted", Query{Intent: intentSize}, meaning.Meaning{Target: "# of Employees", Agg: meaning.Sum}, true},
		{"a count both", Query{Intent: intentStat, Agg: "count", Measures: []string{"ZIP"}},
			meaning.Meaning{Target: "ZIP", Agg: meaning.Count}, false},
	}
	for _, c := range cases {
		if got := keywordMisreads(&c.q, &c.m); got != c.want {
			t.Errorf("%s: misreads %v, want %v", c.name, got, c.want)
		}
	}
}

// TestClockTimes: a column pandas dated from times of day alone is no calendar date, so a table
// with it and a Date column still has one column of dates for "in February" and "the last
// game" (WTQ 204-csv/55.csv).
func TestClockTimes(t *testing.T) {
	t.Parallel()
	clock := Column{Name: "Time", Kind: "date", Min: "2026-12-06 12:00:00", Max: "2026-12-06 20:00:00"}
	date := Column{Name: "Date", Kind: "date", Min: "2005-09-03 00:00:00", Max: "2006-01-02 00:00:00"}
	oneDay := Column{Name: "Date", Kind: "date", Min: "2005-09-03 00:00:00", Max: "2005-09-03 00:00:00"}
	if !clock.clockTimes() || date.clockTimes() || oneDay.clockTimes() {
		t.Errorf("clock times: %v %v %v, want true false false", clock.clockTimes(), date.clockTimes(), oneDay.clockTimes())
	}
	tbl := schemaTable(&Frame{Columns: []Column{date, clock}})
	if tbl.Columns[0].Type != schema.Date || tbl.Columns[1].Type == schema.Date {
		t.Errorf("schema types %v, %v: want the Date alone a date", tbl.Columns[0].Type, tbl.Columns[1].Type)
	}
}

// TestGroupingUnsaid: a keyword reading that sums up by a column the question neither groups by
// nor asks for is a nearby one, and the words it took for groups are what was not understood
// (WTQ nt-5985, nt-13300); "by", "per" or "each", the groups asked for ("which team"), and rows
// counted by a noun ("how many films") keep it.
func TestGroupingUnsaid(t *testing.T) {
	t.Parallel()
	tbl := &schema.Table{File: "roster.csv", Columns: []schema.Column{
		{Name: "Name", Type: schema.Text}, {Name: "Weight", Type: schema.Number},
		{Name: "Team", Type: schema.Category, Values: []string{"Bulls", "Heat"}},
	}}
	ix := schema.NewIndex(tbl)
	cases := []struct {
		q    string
		agg  string
		want []string
	}{
		{"who weighs the most on the team?", "max", []string{"team"}},
		{"what is the heaviest weight by team?", "max", nil},
		{"what is the average weight per team?", "mean", nil},
		{"which team has the highest average weight?", "mean", nil},
		{"how many players are on the team?", "count", nil},
	}
	for _, c := range cases {
		s, r := ix.Read(c.q)
		rd := questionReading{s: s, r: r, ix: ix}
		got := rd.groupingUnsaid(&Query{Intent: intentStat, Agg: c.agg, By: []string{"Team"}})
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: unsaid %q, want %q", c.q, got, c.want)
		}
	}
}
