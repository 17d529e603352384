package language

import (
	"slices"
	"testing"
)

// These questions are written for the test: the corpus has no numbered steps or column names
// with spaces and symbols typed as such, which the scanner must still take whole.
func TestScanKinds(t *testing.T) {
	v := NewVocabulary("No. of cases_median", "Siblings_Spouses Aboard", "United States")
	cases := []struct {
		q    string
		want []string // "kind:text"
	}{
		{"What is the No. of cases_median in the united states?",
			[]string{"word:What", "word:is", "word:the", "name:No. of cases_median", "word:in", "word:the", "name:united states", "punct:?"}},
		{"average siblings spouses aboard >= 2.5",
			[]string{"word:average", "name:siblings spouses aboard", "operator:>=", "number:2.5"}},
		{"rows where name is 'John' or \"Mary Ann\"",
			[]string{"word:rows", "word:where", "word:name", "word:is", "quoted:John", "word:or", "quoted:Mary Ann"}},
		{"sales between 2011-05-01 and 05/31/2011 of at least $1,000",
			[]string{"word:sales", "word:between", "date:2011-05-01", "word:and", "date:05/31/2011", "word:of", "operator:at least", "number:$1,000"}},
		{"don't count the 3rd class, or 20% of U.S. passengers in March 2011",
			[]string{"word:do", "word:n't", "word:count", "word:the", "number:3rd", "word:class", "punct:,", "word:or",
				"number:20%", "word:of", "word:U.S.", "word:passengers", "word:in", "date:March 2011"}},
		{"players' teams with 3 or more wins",
			[]string{"word:players", "punct:'", "word:teams", "word:with", "number:3", "operator:or more", "word:wins"}},
	}
	for _, c := range cases {
		s := Read(c.q, v)
		var got []string
		for _, tk := range s.Tokens {
			got = append(got, tk.Kind.String()+":"+tk.Text)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%q:\n got %q\nwant %q", c.q, got, c.want)
		}
	}
}

func TestNumbersAndOperators(t *testing.T) {
	s := Read("top five players with more than 1,000.5 points, -3 fouls and 20% wins", nil)
	want := map[string]float64{"five": 5, "1,000.5": 1000.5, "-3": -3, "20%": 20}
	for _, tk := range s.Tokens {
		if v, ok := want[tk.Text]; ok && (tk.Kind != Number || tk.Value != v) {
			t.Errorf("%q: kind %v value %v, want number %v", tk.Text, tk.Kind, tk.Value, v)
		}
		if tk.Text == "more than" && tk.Op != ">" {
			t.Errorf("more than: op %q", tk.Op)
		}
	}
	if got := superlativeTexts(s); !slices.Contains(got, "top 5") {
		t.Errorf("superlatives %v", got)
	}
}

// Numbered steps and joints, written for the test (the corpus asks one thing at a time).
func TestParts(t *testing.T) {
	cases := []struct {
		q      string
		joints []string
		forms  []string
	}{
		{"1. Filter the employees hired after 2015. 2) Show the average salary by department",
			[]string{"1.", ". 2)"}, []string{"imperative employees", "imperative salary"}},
		{"Compute the mean fare, then plot it and then list the 3 oldest passengers",
			[]string{"", "then", "and then"}, []string{"imperative fare", "imperative it", "imperative passengers"}},
		{"Which class survived most? After that, how many women were in it?",
			[]string{"", "? after that"}, nil},
		{"If there is a tie then pick the first one", []string{""}, nil},
	}
	for _, c := range cases {
		s := Read(c.q, nil)
		var joints, forms []string
		for _, p := range s.Parts {
			joints = append(joints, p.Joint)
			forms = append(forms, formText(s, p.Form))
		}
		if !slices.Equal(joints, c.joints) {
			t.Errorf("%q: joints %q, want %q", c.q, joints, c.joints)
		}
		if c.forms != nil && !slices.Equal(forms, c.forms) {
			t.Errorf("%q: forms %q, want %q\n%s", c.q, forms, c.forms, dump(s))
		}
	}
}
