package analyst

import "testing"

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
