package analyst

import (
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// TestComparisonsDropped: a comparison with a number or a date that the keyword rules' query
// does not carry is what was dropped, and is asked back; one a filter carries, in its direction
// or, for a comparative on its own scale ("younger"), in either, is not.
func TestComparisonsDropped(t *testing.T) {
	t.Parallel()
	v := language.NewVocabulary("founded", "club", "age", "type", "established")
	cases := []struct {
		q       string
		filters []Filter
		want    []string
	}{
		{"what is the number of clubs that were founded after 1950?", nil, []string{"after 1950"}},
		{"what is the number of clubs that were founded after 1950?", []Filter{{Col: "founded", Op: ">", Value: "1950"}}, nil},
		{"which was the only diocese established before 1900?", []Filter{{Col: "type", Op: "==", Value: "Diocese"}}, []string{"before 1900"}},
		{"which was the only diocese established before 1900?", []Filter{{Col: "established", Op: "<", Value: "1900-01-01"}}, nil},
		{"how many respondents are younger than 25?", []Filter{{Col: "age", Op: "<", Value: "25"}}, nil},
		{"how many respondents are over 25?", []Filter{{Col: "age", Op: "<", Value: "25"}}, []string{"over 25"}},
	}
	for _, c := range cases {
		rd := questionReading{s: language.Read(c.q, v)}
		got := rd.comparisonsDropped(&Query{Intent: intentSize, Filters: c.filters})
		if !slices.Equal(got, c.want) {
			t.Errorf("%q with %+v: dropped %q, want %q", c.q, c.filters, got, c.want)
		}
	}
}
