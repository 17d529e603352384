package analyst

import (
	"strings"
	"testing"
)

func TestLabelsHaveNoThousandsSeparators(t *testing.T) {
	tests := []struct {
		m    marker
		want string
	}{
		{marker{"kind": "stat", "agg": "max", "col": "Year", "value": 2011.0, "n": 12.0}, "The maximum of `Year` is **2011** (over 12 values)."},
		{marker{"kind": "stat", "agg": "sum", "col": "revenue", "value": 2011.0, "n": 12.0}, "The total of `revenue` is **2,011** (over 12 values)."},
		{marker{"kind": "group", "agg": "sum", "col": "Papers", "by": "Year", "groups": 2.0, "items": []any{[]any{2010.0, 1500.0}, []any{2011.0, 2500.0}}},
			"The total of `Papers` by `Year` (2 groups): 2010 (1,500), 2011 (2,500). Highest: **2011** with 2,500."},
		{marker{"kind": "peak", "which": "max", "col": "Papers", "date": 2011.0, "value": "2,500", "row": map[string]any{"customer_id": 100234.0}},
			"`Papers` was highest on **2011**, at **2,500** (customer_id 100234)."},
	}
	for _, tt := range tests {
		if got := sentence(tt.m); got != tt.want {
			t.Errorf("got  %s\nwant %s", got, tt.want)
		}
	}
}

// TestLinesSentence_APeakInAYear: a series over years peaks "in 1983", one
// over days "on" its day (issue 40: "peaking at 37.10 on 1983").
func TestLinesSentence_APeakInAYear(t *testing.T) {
	for _, c := range []struct {
		when any
		want string
	}{{1983.0, "peaking at 37.10 in 1983"}, {"2024-03", "peaking at 37.10 in 2024-03"}, {"2024-03-05", "peaking at 37.10 on 2024-03-05"}} {
		got := linesSentence(marker{"items": []any{map[string]any{"name": "mpg", "first": 18.0, "first_date": 1970.0,
			"last": 31.0, "last_date": 1982.0, "max": 37.1, "max_date": c.when}}})
		if !strings.Contains(got, c.want) {
			t.Errorf("%v: %q, want %q in it", c.when, got, c.want)
		}
	}
}

// TestOverviewSentence_SaysWhatItLeftOut: an overview that sums up only
// some number columns says how many more the table holds (issue 40: "the
// overview lists 8 of 10 numeric columns").
func TestOverviewSentence_SaysWhatItLeftOut(t *testing.T) {
	nums := map[string]any{}
	for _, c := range []string{"a", "b"} {
		nums[c] = map[string]any{"mean": 1.0, "min": 0.0, "max": 2.0}
	}
	got := overviewSentence(marker{"key": "wide.csv", "rows": 3.0, "cols": 30.0, "missing": 0.0, "numeric": nums, "numeric_n": 25.0})
	if !strings.Contains(got, "and 23 more number columns") {
		t.Errorf("overview %q does not say 23 number columns were left out", got)
	}
	if got := overviewSentence(marker{"key": "w.csv", "rows": 3.0, "cols": 2.0, "missing": 0.0, "numeric": nums, "numeric_n": 2.0}); strings.Contains(got, "more number") {
		t.Errorf("overview %q speaks of more columns than there are", got)
	}
}
