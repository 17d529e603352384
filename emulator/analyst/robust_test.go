package analyst

import (
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestPlan_NeverPanics plans thousands of word salads made of keywords, column names, values,
// numbers and dates, with and without history, over every file set: whatever is typed, the
// planner must answer with code or a reply, never panic or return neither.
func TestPlan_NeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(fuzzSeed(), 2))
	sets := []string{px, sv, sl, slc, st, co}
	pool := append([]string{}, vocabWords...)
	pool = append(pool, "by", "for", "in", "after", "2010", "2024", "March", "5", ">", "<=", "10,000", "it", "same",
		"instead", "now", "only", "not", "vs", "and", "?", "```", "the", "of", "last", "year", "top", "3")
	for _, set := range sets {
		p := loadProfile(t, set)
		for _, f := range p.Frames {
			for _, c := range f.Columns {
				pool = append(pool, c.Name)
				pool = append(pool, c.Values...)
			}
		}
	}
	for i := range fuzzN() {
		p := loadProfile(t, sets[i%len(sets)])
		q := salad(rng, pool, 1+rng.IntN(9))
		var hist []Message
		if i%2 == 1 {
			hist = history([]string{salad(rng, pool, 4), salad(rng, pool, 3)})
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%q (history %q) panicked: %v\n%s", q, hist, r, debug.Stack())
				}
			}()
			if pl := makePlan(q, hist, p); len(pl.Cells) == 0 && pl.Reply == "" {
				t.Errorf("%q: neither code nor a reply", q)
			}
		}()
	}
}

func salad(rng *rand.Rand, pool []string, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = pool[rng.IntN(len(pool))]
	}
	return strings.Join(words, " ")
}

// fuzzN is how many salads TestPlan_NeverPanics plans; ANALYST_FUZZ raises it for a long run.
func fuzzN() int {
	if n, err := strconv.Atoi(os.Getenv("ANALYST_FUZZ")); err == nil && n > 0 {
		return n
	}
	return 3000
}

// fuzzSeed varies the salads when ANALYST_FUZZ_SEED is set; the default run is fixed.
func fuzzSeed() uint64 {
	n, _ := strconv.ParseUint(os.Getenv("ANALYST_FUZZ_SEED"), 10, 64)
	return n + 1
}
