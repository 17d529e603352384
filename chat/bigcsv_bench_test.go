package chat_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/store"
)

// bigSalesCSV is a sales export of n rows (2,000,000 make about 60 MB):
// the shape of emulator/analyst's bigCSV, written here so that it can be
// uploaded through the app.
func bigSalesCSV(n int) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	regions := []string{"North", "South", "East", "West", "Central"}
	start := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	var b bytes.Buffer
	b.Grow(n * 32)
	b.WriteString("date,region,product,units,revenue\n")
	for range n {
		fmt.Fprintf(&b, "%s,%s,P%03d,%d,%.2f\n", start.AddDate(0, 0, rng.IntN(1500)).Format("2006-01-02"),
			regions[rng.IntN(5)], rng.IntN(200), 1+rng.IntN(49), 500+120*rng.NormFloat64())
	}
	return b.Bytes()
}

// fencedGroupBy is the question written as code: read the file, total by region.
const fencedGroupBy = "```python\nimport glob\nimport pandas as pd\n" +
	"d = pd.read_csv(glob.glob('/mnt/data/*-sales.csv')[0])\n" +
	"d.groupby('region')['revenue'].sum()\n```"

// plainGroupBy is the same question in words, for the built-in analyst.
const plainGroupBy = "total revenue by region"

// BenchmarkBigCSVPlainVsFenced times, through the whole app (chat, the
// foundry client, the emulator, the built-in analyst, the sandbox), the
// first question of a conversation about a 2,000,000-row CSV asked in words
// and asked as fenced read_csv + group-by code, alternately, each in a new
// conversation with the file uploaded; it reports the medians and their
// ratio (goal: plain ≤ 1.3 × fenced; measured 1.02, 0.92 pair by pair). Slow: skipped under -short.
func BenchmarkBigCSVPlainVsFenced(b *testing.B) {
	if testing.Short() {
		b.Skip("uploads and reads a 60 MB file several times")
	}
	// The planner the app's local engine uses: the built-in analyst, which
	// runs a fenced block as written.
	e := newEnvOpts(b, envOptions{emulator: func(c *emulator.Config) { c.Planner = emulator.AnalystPlanner(&analyst.Rules{}) }})
	data := bigSalesCSV(2_000_000)
	ctx := context.Background()
	ask := func(content string) (time.Duration, *chat.Answer) {
		c, err := e.db.CreateConversation(ctx, e.userID, store.DefaultTitle)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.svc.Upload(ctx, e.userID, c.ID, "sales.csv", bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		_, run, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: c.ID, Content: content})
		if err != nil {
			b.Fatal(err)
		}
		a, rec := (&env{svc: e.svc, db: e.db, userID: e.userID, convID: c.ID}).follow(b, run, 5*time.Minute)
		took := time.Since(start)
		if rec.Status != store.RunCompleted {
			b.Fatalf("%q: %s %q", content, rec.Status, rec.Error)
		}
		return took, a
	}
	var plain, fenced []time.Duration
	var ratios []float64
	for i := 0; b.Loop(); i++ {
		var tf, tp time.Duration
		var af, ap *chat.Answer
		if i%2 == 0 { // in turn first, so that neither always meets the other's leftovers
			tf, af = ask(fencedGroupBy)
			tp, ap = ask(plainGroupBy)
		} else {
			tp, ap = ask(plainGroupBy)
			tf, af = ask(fencedGroupBy)
		}
		fenced, plain, ratios = append(fenced, tf), append(plain, tp), append(ratios, float64(tp)/float64(tf))
		b.Logf("fenced %v (%s), plain %v (%s)", tf.Round(time.Millisecond), cellTimes(af), tp.Round(time.Millisecond), cellTimes(ap))
	}
	b.ReportMetric(float64(median(fenced).Milliseconds()), "fenced-ms")
	b.ReportMetric(float64(median(plain).Milliseconds()), "plain-ms")
	b.ReportMetric(float64(median(plain))/float64(median(fenced)), "plain/fenced")
	// Each pair ran back to back, under about the same load: the median of
	// their ratios is steadier than the ratio of the medians on a busy machine.
	b.ReportMetric(median(ratios), "paired-plain/fenced")
}

// median returns the middle value of v.
func median[T time.Duration | float64](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// cellTimes lists how long each cell of an answer ran.
func cellTimes(a *chat.Answer) string {
	var parts []string
	for _, c := range a.Cells {
		parts = append(parts, c.Duration.Round(time.Millisecond).String())
	}
	return "cells " + strings.Join(parts, " + ")
}
