package handlers

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/views"
)

// runningAnswer is a live answer whose cell has printed lines lines.
func runningAnswer(lines int) *chat.Answer {
	a := chat.NewAnswer()
	at := time.Now()
	a.Apply(chat.Event{Seq: 1, Type: chat.EventCellAdded, CellID: "c", At: at})
	a.Apply(chat.Event{Seq: 2, Type: chat.EventCodeDone, CellID: "c", Text: "for i in range(10**6):\n    print('tick', i)", At: at})
	var b strings.Builder
	for i := range lines {
		fmt.Fprintf(&b, "tick %d of a long computation\n", i)
	}
	a.Apply(chat.Event{Seq: 3, Type: chat.EventLogsDelta, CellID: "c", Text: b.String(), At: at})
	return a
}

// BenchmarkStreamingUpdate measures what one streamed piece of output costs
// the server: folding it into the answer and rendering the update a
// follower sends, for a cell that has already printed 10,000 lines.
// Budget: 1 ms per update.
func BenchmarkStreamingUpdate(b *testing.B) {
	a := runningAnswer(10000)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.Apply(chat.Event{Seq: int64(4 + i), Type: chat.EventLogsDelta, CellID: "c", Text: "tick more\n", At: time.Now()})
		if err := views.AnswerBody(answerView("conv", "run", a, answerOptions{live: true, now: time.Now()})).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// tableOf is the result table of a cell that returned rows rows.
func tableOf(rows int) *chat.Table {
	t := chat.Table{Index: []string{""}, Columns: []string{"date", "region", "revenue", "units"},
		Dtypes: []string{"object", "object", "float64", "int64"}, Numeric: []bool{false, false, true, true},
		TotalRows: rows, TotalColumns: 4}
	for i := range rows {
		t.Rows = append(t.Rows, []any{float64(i), "2026-01-05", "North", 1200.5 + float64(i), float64(i % 97)})
	}
	return &t
}

// BenchmarkTable10000Rows measures rendering a finished answer whose cell
// returned a 10,000-row table. Budget: 50 ms.
func BenchmarkTable10000Rows(b *testing.B) {
	a := chat.NewAnswer()
	at := time.Now()
	a.Apply(chat.Event{Seq: 1, Type: chat.EventCellAdded, CellID: "c", At: at})
	a.Apply(chat.Event{Seq: 2, Type: chat.EventCodeDone, CellID: "c", Text: "df", At: at})
	a.Apply(chat.Event{Seq: 3, Type: chat.EventLogs, CellID: "c", Table: tableOf(10000), At: at})
	a.Apply(chat.Event{Seq: 4, Type: chat.EventCellDone, CellID: "c", Status: "completed", At: at})
	a.Apply(chat.Event{Seq: 5, Type: chat.EventDone, Status: "completed", At: at})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := views.AnswerBody(answerView("conv", "run", a, answerOptions{live: false, now: time.Now()})).Render(ctx, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// The live view of a long stream shows its tail, and says how much came
// before.
func TestLogTail(t *testing.T) {
	logs, cut := logTail("a\nb\nc\nd\n", 2)
	if logs != "c\nd\n" || cut != 2 {
		t.Fatalf("%q %d", logs, cut)
	}
	if logs, cut := logTail("a\nb", 5); logs != "a\nb" || cut != 0 {
		t.Fatalf("short: %q %d", logs, cut)
	}
	v := answerView("conv", "run", runningAnswer(1000), answerOptions{live: true, now: time.Now()})
	if v.Cells[0].LogsCut != 1000-liveLogLines || strings.Count(v.Cells[0].Logs, "\n") != liveLogLines {
		t.Fatalf("live cell shows %d lines, cut %d", strings.Count(v.Cells[0].Logs, "\n"), v.Cells[0].LogsCut)
	}
}

// BenchmarkStreamingUpdateWithChart is BenchmarkStreamingUpdate for a cell
// that has shown a 60 KB chart: the update carries the chart's URL, not
// its bytes (update-bytes is what one update sends).
func BenchmarkStreamingUpdateWithChart(b *testing.B) {
	a := runningAnswer(100)
	chart := "data:image/png;base64," + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x89, 'P', 'N', 'G'}, 15_000))
	a.Apply(chat.Event{Seq: 4, Type: chat.EventPartialImage, CellID: "c", Image: chart, At: time.Now()})
	ctx := context.Background()
	var size int
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		a.Apply(chat.Event{Seq: int64(5 + i), Type: chat.EventLogsDelta, CellID: "c", Text: "tick more\n", At: time.Now()})
		var out strings.Builder
		if err := views.AnswerBody(answerView("conv", "run", a, answerOptions{live: true, now: time.Now()})).Render(ctx, &out); err != nil {
			b.Fatal(err)
		}
		size = out.Len()
	}
	b.ReportMetric(float64(size), "update-bytes")
}
