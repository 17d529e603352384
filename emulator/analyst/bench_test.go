package analyst

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"
)

// BenchmarkPlan measures planning, question to code, over the whole corpus (history included,
// the loading cell's profile already parsed as the rules do on every call). Besides ns/op, the
// mean over the corpus, it reports the median per phrasing as median-ns/plan.
func BenchmarkPlan(b *testing.B) {
	type input struct {
		c corpusCase
		p *Profile
		h []Message
	}
	cases := allCases()
	inputs := make([]input, len(cases))
	for i, c := range cases {
		inputs[i] = input{c, loadProfile(b, c.set), history(c.prior)}
	}
	per := make([]time.Duration, len(inputs))
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		in := inputs[n%len(inputs)]
		start := time.Now()
		makePlan(in.c.q, in.h, in.p)
		if d := time.Since(start); per[n%len(inputs)] == 0 || d < per[n%len(inputs)] {
			per[n%len(inputs)] = d // the fastest of repeated runs: the box is shared and noisy
		}
	}
	b.StopTimer()
	measured := slices.DeleteFunc(per, func(d time.Duration) bool { return d == 0 })
	if len(measured) > 0 {
		slices.Sort(measured)
		b.ReportMetric(float64(measured[len(measured)/2].Nanoseconds()), "median-ns/plan")
	}
}

// BenchmarkPlan_Followups is BenchmarkPlan over the phrasings asked after earlier questions:
// each plan folds the conversation again, so context resolution is in the cost.
func BenchmarkPlan_Followups(b *testing.B) {
	var cases []corpusCase
	for _, c := range allCases() {
		if len(c.prior) > 0 {
			cases = append(cases, c)
		}
	}
	per := make([]time.Duration, len(cases))
	for n := 0; n < b.N; n++ {
		c := cases[n%len(cases)]
		p, h := loadProfile(b, c.set), history(c.prior)
		start := time.Now()
		makePlan(c.q, h, p)
		if d := time.Since(start); per[n%len(cases)] == 0 || d < per[n%len(cases)] {
			per[n%len(cases)] = d
		}
	}
	measured := slices.DeleteFunc(per, func(d time.Duration) bool { return d == 0 })
	if len(measured) > 0 {
		slices.Sort(measured)
		b.ReportMetric(float64(measured[len(measured)/2].Nanoseconds()), "median-ns/plan")
	}
}

// BenchmarkNext measures one Rules.Next call that plans from the loading cell's output: parsing
// the profile JSON the kernel printed, then planning. This is the planner's whole cost per
// step of a turn.
func BenchmarkNext(b *testing.B) {
	golden, err := os.ReadFile("testdata/profiles/sales.csv.json")
	if err != nil {
		b.Fatal(err)
	}
	turn := &Turn{Question: "bar chart of revenue by region for 2024", Files: []string{"sales.csv"},
		Cells: []Cell{loaded(profileCode([]string{"sales.csv"}, ""), golden)}}
	r := &Rules{}
	b.ResetTimer()
	for b.Loop() {
		if step, err := r.Next(context.Background(), turn); err != nil || step.Code == "" {
			b.Fatalf("step %+v, %v", step, err)
		}
	}
}
