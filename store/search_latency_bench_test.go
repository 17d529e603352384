package store_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// searchCorpus is one database of 10,000 conversations and 200,000
// messages of one user (30 words each from a vocabulary of 5,000: "w0x" …
// "w4999x"), built once per test process, whatever the benchmarks and
// -count ask for, and removed by TestMain.
var searchCorpus struct {
	once   sync.Once
	dir    string
	db     *store.DB
	userID string
	err    error
}

// openSearchCorpus returns the shared corpus, building it on first use.
func openSearchCorpus(b *testing.B) (*store.DB, string) {
	b.Helper()
	c := &searchCorpus
	c.once.Do(func() {
		start := time.Now()
		ctx := context.Background()
		// SEARCH_CORPUS names a database file to keep the corpus in between
		// runs (it is built there the first time), for profiling sessions.
		path := os.Getenv("SEARCH_CORPUS")
		if path == "" {
			if c.dir, c.err = os.MkdirTemp("", "search-corpus-"); c.err != nil {
				return
			}
			path = filepath.Join(c.dir, "app.db")
		}
		if c.db, c.err = store.Open(ctx, path, migrations.FS, nil); c.err != nil {
			return
		}
		if u, err := c.db.UserByUsername(ctx, "ana"); err == nil {
			c.userID = u.ID
			return
		}
		ana, err := c.db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
		if c.err = err; err != nil {
			return
		}
		c.userID = ana.ID
		words := make([]string, 5000)
		for i := range words {
			words[i] = fmt.Sprintf("w%dx", i)
		}
		if c.err = c.db.SeedSearch(ana.ID, 10_000, 20, 30, words); c.err != nil {
			return
		}
		_, c.err = c.db.CreateConversation(ctx, ana.ID, "Portfolio NVDA")
		fmt.Fprintf(os.Stderr, "search corpus built in %v\n", time.Since(start).Round(time.Millisecond))
	})
	if c.err != nil {
		b.Fatal(c.err)
	}
	return c.db, c.userID
}

// closeSearchCorpus removes the corpus, if one was built.
func closeSearchCorpus() {
	c := &searchCorpus
	if c.db != nil {
		c.db.Close()
	}
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// searchKinds are the queries the latency benchmark measures, one of each
// kind people type. Counts are of the corpus's 200,000 messages.
var searchKinds = []struct{ name, query string }{
	{"prefix-2-letters", "w4"},        // 77,000 messages: the broadest query searched
	{"prefix-3-letters", "w42"},       // 32,500 messages
	{"common-word", "w42x"},           // 1,200 messages
	{"rare-word", "nvda"},             // one title
	{"phrase", "w42x w55x"},           // two words side by side, 1,160 messages
	{"multi-word", "w42x w55x w68x"},  // three words
	{"words-and-prefix", "w42x w5"},   // a second word being typed
	{"no-match", "zzq"},               // nothing
	{"many-words", "w1 w2 w3 w4 w5x"}, // five broad terms
}

// BenchmarkSearchLatency reports the median and 95th percentile of each
// kind of query on the corpus, for the search as it is ("capped") and as
// it was before SearchCandidates ("uncapped"), run alternately in the same
// loop so that both see the same load; in wall time, and in the process's
// CPU time ("-cpu-"), which the machine's load changes much less.
func BenchmarkSearchLatency(b *testing.B) {
	db, userID := openSearchCorpus(b)
	ctx := context.Background()
	for _, k := range searchKinds {
		b.Run(k.name, func(b *testing.B) {
			var capped, uncapped, cappedCPU, uncappedCPU []time.Duration
			for b.Loop() {
				took, cpu := timed(b, func() error { _, err := db.SearchConversations(ctx, userID, k.query, 50); return err })
				capped, cappedCPU = append(capped, took), append(cappedCPU, cpu)
				took, cpu = timed(b, func() error { _, err := db.LegacySearch(ctx, userID, k.query, 50); return err })
				uncapped, uncappedCPU = append(uncapped, took), append(uncappedCPU, cpu)
			}
			reportQuantiles(b, "capped", capped)
			reportQuantiles(b, "uncapped", uncapped)
			reportQuantiles(b, "capped-cpu", cappedCPU)
			reportQuantiles(b, "uncapped-cpu", uncappedCPU)
		})
	}
}

// timed runs search and returns the time it took and the CPU time the
// process spent meanwhile: on a loaded machine the first depends on the
// other processes, the second much less.
func timed(b *testing.B, search func() error) (took, cpu time.Duration) {
	before := processCPU()
	start := time.Now()
	if err := search(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start), processCPU() - before
}

// processCPU is the user and system time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportQuantiles reports the median and the 95th percentile of took, in ms.
func reportQuantiles(b *testing.B, name string, took []time.Duration) {
	slices.Sort(took)
	at := func(q float64) float64 {
		return float64(took[min(len(took)-1, int(q*float64(len(took))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), name+"-p50-ms")
	b.ReportMetric(at(0.95), name+"-p95-ms")
}
