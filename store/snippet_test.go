package store

import "testing"

func TestSnippet(t *testing.T) {
	long := "one two three four five six seven eight nine ten eleven twelve thirteen fourteen revenue fifteen sixteen"
	for _, tc := range []struct {
		body  string
		words []string
		want  string
	}{
		{"Turnover rose by 12 %.", []string{"turn"}, "\x02Turnover\x03 rose by 12"},
		{"df.groupby('sector').sum()", []string{"groupby"}, "df.\x02groupby\x03('sector').sum"},
		{"Le Café de Flore", []string{"cafe"}, "Le \x02Café\x03 de Flore"},
		{long, []string{"revenue"}, "…six seven eight nine ten eleven twelve thirteen fourteen \x02revenue\x03 fifteen sixteen"},
		{long, []string{"one", "twelve"}, "\x02one\x03 two three four five six seven eight nine ten eleven \x02twelve\x03…"},
		{"", []string{"x"}, ""},
	} {
		if got := snippet(tc.body, tc.words, 12); got != tc.want {
			t.Errorf("snippet(%q, %q) = %q, want %q", tc.body, tc.words, got, tc.want)
		}
	}
}

func TestSearchWords_FoldLikeTheIndexes(t *testing.T) {
	got := searchWords("Café CAFE e q3 naïve, 東京 ÅNGSTRÖM")
	want := []string{"cafe", "q3", "naive", "東京", "angstrom"}
	if len(got) != len(want) {
		t.Fatalf("searchWords = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("searchWords = %q, want %q", got, want)
		}
	}
	if q := tsMatch(got[:2]); q != "'cafe':* & 'q3':*" {
		t.Errorf("tsMatch = %s", q)
	}
}
