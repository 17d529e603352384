package analyst

import "testing"

func TestShownName(t *testing.T) {
	tests := map[string]string{
		"file-7c18049cad957aca5f63d706-sales.csv":                               "sales.csv",
		"assistant-XoFcRwENZLR9RMVypCZuHh-synthetic_500_quarterly_results.csv":  "synthetic_500_quarterly_results.csv",
		"file-7c18049cad957aca5f63d706-file-7c18049cad957aca5f63d706-twice.csv": "file-7c18049cad957aca5f63d706-twice.csv",
		"file-report-2024.csv": "file-report-2024.csv",
		"sales.csv":            "sales.csv",
		"summary_cleaned.csv":  "summary_cleaned.csv",
	}
	for in, want := range tests {
		if got := shownName(in); got != want {
			t.Errorf("shownName(%q) = %q, want %q", in, got, want)
		}
	}
}
