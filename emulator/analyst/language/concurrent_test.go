package language

import (
	"sync"
	"testing"
)

// TestReadConcurrently reads from several goroutines at once, the first of them loading the
// lexicon and the tagger: both are shared and must be safe to use concurrently (run with -race).
func TestReadConcurrently(t *testing.T) {
	questions := []string{
		"Which passenger class has the highest number of survivors?",
		"How many borrowers are older than 50?",
		"List the top 3 countries with the most billionaires.",
	}
	var wg sync.WaitGroup
	results := make([]string, 12)
	for g := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := Read(questions[g%len(questions)], nil)
			results[g] = formText(s, s.Form())
		}()
	}
	wg.Wait()
	for g := len(questions); g < len(results); g++ {
		if results[g] != results[g%len(questions)] {
			t.Errorf("question %d read two ways: %q and %q", g%len(questions), results[g], results[g%len(questions)])
		}
	}
}
