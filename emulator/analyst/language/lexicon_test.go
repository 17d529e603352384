package language

import (
	"bytes"
	"slices"
	"testing"

	"github.com/analyst-workbench/workbench/emulator/analyst/language/internal/wntable"
)

func TestLemma(t *testing.T) {
	lx := WordNet()
	cases := []struct{ word, tag, want string }{
		{"paid", "VBD", "pay"}, {"teeth", "NNS", "tooth"}, {"worst", "JJS", "bad"},
		{"better", "JJR", "good"}, {"survivors", "NNS", "survivor"}, {"horsepower", "NN", "horsepower"},
		{"was", "VBD", "be"}, {"has", "VBZ", "have"}, {"older", "JJR", "old"}, {"cheapest", "JJS", "cheap"},
		{"biggest", "JJS", "big"}, {"years", "NNS", "year"}, {"gas", "NN", "gas"}, {"women", "NNS", "woman"},
		{"employees", "NNS", "employee"}, {"survived", "VBD", "survive"}, {"left", "VBD", "leave"},
		// WordNet lacks these; the regular plural rule still applies.
		{"pokemons", "NNS", "pokemon"}, {"tmaxes", "NNS", "tmax"},
		{"the", "DT", "the"},
	}
	for _, c := range cases {
		if got := lx.Lemma(c.word, c.tag); got != c.want {
			t.Errorf("Lemma(%q, %s) = %q, want %q", c.word, c.tag, got, c.want)
		}
	}
}

func TestLexiconRelations(t *testing.T) {
	lx := WordNet()
	if !slices.Contains(lx.Derivations("survivor"), "survive") || !slices.Contains(lx.Derivations("survive"), "survivor") {
		t.Errorf("survivor ↔ survive: %v, %v", lx.Derivations("survivor"), lx.Derivations("survive"))
	}
	if !slices.Contains(lx.Derivations("employee"), "employ") {
		t.Errorf("employee → employ: %v", lx.Derivations("employee"))
	}
	if !slices.Contains(lx.Synonyms("horsepower", Noun), "hp") {
		t.Errorf("horsepower's synonyms lack hp: %v", lx.Synonyms("horsepower", Noun))
	}
	if !slices.Contains(lx.Attributes("old"), "age") {
		t.Errorf("old is a value of age: %v", lx.Attributes("old"))
	}
	if lx.POS("net income") != Noun || !lx.POS("self-made").Has(Adjective) || !lx.POS("fare").Has(Noun|Verb) {
		t.Errorf("parts of speech: net income %v, self-made %v, fare %v", lx.POS("net income"), lx.POS("self-made"), lx.POS("fare"))
	}
	isA := []struct {
		lemma, class string
		want         bool
	}{
		{"passenger", "person", true}, {"billionaire", "person", true}, {"employee", "person", true},
		{"player", "person", true}, {"survivor", "organism", true}, {"city", "location", true},
		{"country", "location", true}, {"decade", "time_period", true}, {"year", "time period", true},
		{"car", "person", false}, {"fare", "location", false}, {"unknownword", "person", false},
	}
	for _, c := range isA {
		if got := lx.IsA(c.lemma, c.class); got != c.want {
			t.Errorf("IsA(%q, %q) = %v, want %v", c.lemma, c.class, got, c.want)
		}
	}
	if lx.IsAWithin("fare", "person", 1) {
		t.Error("fare's first sense is a price, not a person")
	}
}

func TestLexiconLoad(t *testing.T) {
	lx := WordNet()
	t.Logf("embedded WordNet table: %d bytes; decoded in %v", len(wordnetTable), lx.LoadTime)
	if len(lx.t.Lemmas) < 140000 {
		t.Fatalf("only %d lemmas", len(lx.t.Lemmas))
	}
}

// BenchmarkLoadLexicon measures decoding the embedded table as WordNet does on first use.
func BenchmarkLoadLexicon(b *testing.B) {
	for b.Loop() {
		t, err := wntable.Decode(bytes.NewReader(wordnetTable))
		if err != nil {
			b.Fatal(err)
		}
		invertSenses(t.Senses, len(t.SynsetPOS))
	}
}
