package analyst

import (
	"slices"
	"testing"
)

func TestSplitWords(t *testing.T) {
	tests := []struct {
		q    string
		want []string // norm of each token
	}{
		{q: "Average revenue by region", want: []string{"mean", "revenue", "by", "region"}},
		{q: "units > 15 and price<=2.5", want: []string{"unit", ">", "15", "and", "price", "<=", "2.5"}},
		{q: "what's the standard deviation of AAPL's close?", want: []string{"what", "the", "std", "of", "aapl", "close"}},
		{q: "plot it over time", want: []string{"plot", "it", "overtime"}},
		{q: "revenue greater than 1,000", want: []string{"revenue", ">", "1,000"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tok := range splitWords(tt.q) {
			got = append(got, tok.norm)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestCorrectKeyword(t *testing.T) {
	tests := map[string]string{"avrage": "mean", "corelation": "corr", "histgram": "hist", "sumary": "overview",
		"colums": "columns", "scater": "scatter", "medain": "median", "zebra": "", "the": ""}
	for w, want := range tests {
		if got := correctKeyword(w); got != want {
			t.Errorf("correctKeyword(%q) = %q, want %q", w, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		max  int
		want int
	}{
		{"kitten", "sitting", 3, 3}, {"abc", "acb", 2, 1}, {"same", "same", 1, 0}, {"short", "muchlonger", 2, 3},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b, tt.max); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.max, got, tt.want)
		}
	}
}

func TestNameWords(t *testing.T) {
	tests := map[string][]string{"Temperatur (°C)": {"temperatur"}, "unit_price": {"unit", "price"},
		"HireDate": {"hire", "date"}, "Q10_trust": {"q10", "trust"}, "Sales Reps": {"sale", "rep"}, "x": {"x"}}
	for name, want := range tests {
		if got := nameWords(name); !slices.Equal(got, want) {
			t.Errorf("nameWords(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestFmtNum(t *testing.T) {
	tests := map[float64]string{2470890.11: "2,470,890.11", 900: "900", -4.1: "-4.10", 0.0123: "0.0123",
		-0.5: "-0.5", 1e6: "1,000,000", -1234.5: "-1,234.50",
		// past int64: printed as computed, never as 9,223,372,036,854,775,807
		1.2e26: "1.2e+26", -2.5e19: "-2.5e+19", 123456789012.5: "123,456,789,012.50"}
	for v, want := range tests {
		if got := fmtNum(v); got != want {
			t.Errorf("fmtNum(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestSlug(t *testing.T) {
	tests := map[string]string{"line_Close_AAPL": "line_close_aapl", "Temperatur (°C) by Station": "temperatur_c_by_station",
		"": "result", "__x__": "x"}
	for in, want := range tests {
		if got := slug(in); got != want {
			t.Errorf("slug(%q) = %q, want %q", in, got, want)
		}
	}
}
