package chat_test

import (
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

func fold(events ...chat.Event) *chat.Answer {
	a := chat.NewAnswer()
	for i, e := range events {
		e.Seq = int64(i + 1)
		a.Apply(e)
	}
	return a
}

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// Streamed output shows as it comes, and the whole output replaces it.
func TestAnswerStreamedLogs(t *testing.T) {
	start := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c", At: t0},
		{Type: chat.EventCodeDone, CellID: "c", Text: "print(1)", At: t0},
		{Type: chat.EventLogsDelta, CellID: "c", Text: "one\n", At: t0},
		{Type: chat.EventLogsDelta, CellID: "c", Text: "two\n", At: t0},
	}
	if a := fold(start...); a.Cells[0].Logs != "one\ntwo\n" || a.Cells[0].Status != chat.CellRunning {
		t.Fatalf("live: %q %s", a.Cells[0].Logs, a.Cells[0].Status)
	}
	done := append(start, chat.Event{Type: chat.EventLogs, CellID: "c", Text: "one\ntwo\nthree\n"},
		chat.Event{Type: chat.EventLogsDelta, CellID: "c", Text: "late\n"})
	if a := fold(done...); a.Cells[0].Logs != "one\ntwo\nthree\n" {
		t.Fatalf("whole output: %q", a.Cells[0].Logs)
	}
}

// Stopping a turn keeps what the running cell printed and says stopped.
func TestAnswerStoppedCellKeepsOutput(t *testing.T) {
	a := fold(
		chat.Event{Type: chat.EventCellAdded, CellID: "c", At: t0},
		chat.Event{Type: chat.EventCodeDone, CellID: "c", Text: "loop()", At: t0},
		chat.Event{Type: chat.EventLogsDelta, CellID: "c", Text: "step 1\n", At: t0},
		chat.Event{Type: chat.EventError, Text: "You stopped this answer."},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCancelled), At: t0.Add(3 * time.Second)},
	)
	c := a.Cells[0]
	if c.Status != chat.CellStopped || c.Logs != "step 1\n" || c.Duration != 3*time.Second {
		t.Fatalf("stopped cell: %s %q %s", c.Status, c.Logs, c.Duration)
	}
	failed := fold(chat.Event{Type: chat.EventCellAdded, CellID: "c", At: t0},
		chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunFailed)})
	if failed.Cells[0].Status != chat.CellFailed {
		t.Fatalf("a failed run's open cell is %s", failed.Cells[0].Status)
	}
}

// A figure a running cell sends shows at once; the cell's final images
// replace it, and one that comes late (after them) is ignored. A stopped
// cell, which gets no final images, keeps its live ones.
func TestAnswerLiveImages(t *testing.T) {
	start := []chat.Event{
		{Type: chat.EventCellAdded, CellID: "c", At: t0},
		{Type: chat.EventCodeDone, CellID: "c", Text: "plt.savefig('a.png')", At: t0},
		{Type: chat.EventPartialImage, CellID: "c", Image: "data:image/png;base64,bGl2ZQ==", Text: "a.png", At: t0},
	}
	if a := fold(start...); len(a.Cells[0].LiveImages) != 1 || len(a.Cells[0].Images) != 0 {
		t.Fatalf("live: %+v", a.Cells[0])
	}
	done := append(start, chat.Event{Type: chat.EventImage, CellID: "c", Image: "data:image/png;base64,ZmluYWw="},
		chat.Event{Type: chat.EventPartialImage, CellID: "c", Image: "data:image/png;base64,bGF0ZQ=="})
	if c := fold(done...).Cells[0]; len(c.LiveImages) != 0 || len(c.Images) != 1 || c.Images[0] != "data:image/png;base64,ZmluYWw=" {
		t.Fatalf("after the final image: live %v, final %v", c.LiveImages, c.Images)
	}
	stopped := append(start, chat.Event{Type: chat.EventDone, Status: chat.EventStatus(store.RunCancelled), At: t0.Add(time.Second)})
	if c := fold(stopped...).Cells[0]; c.Status != chat.CellStopped || len(c.LiveImages) != 1 {
		t.Fatalf("stopped: %s, live %v", c.Status, c.LiveImages)
	}
}
