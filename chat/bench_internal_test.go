package chat

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// BenchmarkEventToSubscriber measures the server time one Foundry event
// takes from the stream to a subscriber's channel: numbering, recording in
// SQLite, folding into the answer and publishing. It reports the median and
// p99 of that time; the browser then gets a re-render at most every 100 ms.
func BenchmarkEventToSubscriber(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "app.db"), migrations.FS, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, "t")
	_, run, err := db.StartTurn(ctx, u.ID, c.ID, "q", "")
	if err != nil {
		b.Fatal(err)
	}
	s := New(Config{DB: db})
	s.hub.Open(run.ID)
	r := &runner{s: s, run: run, answer: NewAnswer()}
	_, sub, _ := s.hub.Subscribe(run.ID, 0)

	fe := foundry.Event{Type: foundry.EventTextDelta, ItemID: "msg_1", Text: "The mean revenue is 1,234.5 "}
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		e, _ := translate(&fe)
		r.emit(ctx, e)
		<-sub.C
		samples = append(samples, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(samples)
	b.ReportMetric(float64(samples[len(samples)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(samples[len(samples)*99/100].Microseconds()), "p99-µs")
}
