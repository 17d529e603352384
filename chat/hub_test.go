package chat

import (
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/store"
)

func ev(seq int64) Event { return Event{Seq: seq, Type: EventNotice, At: time.Unix(seq, 0)} }

func drain(t *testing.T, s *Subscription) (seqs []int64) {
	t.Helper()
	timeout := time.After(2 * time.Second)
	for {
		select {
		case e, ok := <-s.C:
			if !ok {
				return seqs
			}
			seqs = append(seqs, e.Seq)
		case <-timeout:
			t.Fatal("subscription never closed")
		}
	}
}

func TestHubReplayThenLiveWithoutGapOrRepeat(t *testing.T) {
	h := NewHub()
	h.Open("r")
	for i := int64(1); i <= 5; i++ {
		h.Publish("r", ev(i))
	}
	replay, sub, ok := h.Subscribe("r", 2)
	if !ok {
		t.Fatal("live run not found")
	}
	if len(replay) != 3 || replay[0].Seq != 3 || replay[2].Seq != 5 {
		t.Fatalf("replay after 2 = %v", replay)
	}
	h.Publish("r", ev(6))
	h.Publish("r", ev(7))
	h.Close("r")
	if got := drain(t, sub); len(got) != 2 || got[0] != 6 || got[1] != 7 {
		t.Fatalf("live = %v, want [6 7]", got)
	}
	if sub.Dropped() {
		t.Fatal("a subscriber of a finished run reads as dropped")
	}
	if _, _, ok := h.Subscribe("r", 0); ok {
		t.Fatal("a closed run is still live")
	}
}

func TestHubDropsSlowSubscriberWhoCatchesUpByReplay(t *testing.T) {
	h := NewHub()
	h.Open("r")
	_, slow, _ := h.Subscribe("r", 0)
	_, fast, _ := h.Subscribe("r", 0)
	acks := make(chan int64)
	go func() {
		for e := range fast.C {
			acks <- e.Seq
		}
		close(acks)
	}()

	total := int64(subscriberBuffer + 50)
	var fastGot []int64
	for i := int64(1); i <= total; i++ {
		h.Publish("r", ev(i))
		fastGot = append(fastGot, <-acks) // a reader that keeps up
	}
	// The slow one never read: it was dropped once its buffer filled.
	got := drain(t, slow)
	if !slow.Dropped() || int64(len(got)) != subscriberBuffer {
		t.Fatalf("slow: dropped=%v after %d events", slow.Dropped(), len(got))
	}
	// It catches up from its last event, and the fast one was not held back.
	replay, again, ok := h.Subscribe("r", got[len(got)-1])
	if !ok || int64(len(replay)) != total-subscriberBuffer || replay[0].Seq != subscriberBuffer+1 {
		t.Fatalf("catch-up replay: %d events from %d", len(replay), replay[0].Seq)
	}
	h.Close("r")
	if _, open := <-acks; open || int64(len(fastGot)) != total || fast.Dropped() {
		t.Fatalf("fast subscriber got %d of %d, dropped=%v", len(fastGot), total, fast.Dropped())
	}
	if len(drain(t, again)) != 0 || again.Dropped() {
		t.Fatal("resubscribed reader got extra events or was dropped")
	}
}

func TestHubUnsubscribe(t *testing.T) {
	h := NewHub()
	h.Open("r")
	_, sub, _ := h.Subscribe("r", 0)
	sub.Close()
	h.Publish("r", ev(1)) // must not panic on a closed channel
	if got := drain(t, sub); len(got) != 0 {
		t.Fatalf("got %v after unsubscribe", got)
	}
}

func TestTitleFrom(t *testing.T) {
	for _, c := range []struct {
		question string
		files    []string
		want     string
	}{
		{"What is the average price by region?", nil, "What is the average price by region?"},
		{"```python\nimport pandas as pd\n```", nil, "Python: import pandas as pd"},
		{"  \n\nShow me a chart of monthly revenue for every region in the EMEA sales file please", nil,
			"Show me a chart of monthly revenue for every region in the"},
		{"```\n```", nil, ""},
		{"Give me an overview of the data", []string{"sales.csv", "b.csv"}, "Give me an overview of the data · sales.csv"},
		{"Plot sales.csv by month", []string{"sales.csv"}, "Plot sales.csv by month"},
	} {
		if got := TitleFrom(c.question, c.files); got != c.want {
			t.Errorf("TitleFrom(%q, %q) = %q, want %q", c.question, c.files, got, c.want)
		}
	}
}

func TestSessionStates(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name      string
		container string
		started   time.Time
		used      time.Time
		want      SessionStatus
	}{
		{"never ran code", "", time.Time{}, time.Time{}, "none"},
		{"just used", "c", now.Add(-5 * time.Minute), now.Add(-time.Minute), "active"},
		{"idle for 10 minutes", "c", now.Add(-20 * time.Minute), now.Add(-10 * time.Minute), "idle"},
		{"idle for 31 minutes", "c", now.Add(-40 * time.Minute), now.Add(-31 * time.Minute), "expired"},
		{"over an hour old", "c", now.Add(-61 * time.Minute), now.Add(-time.Minute), "expired"},
		{"ended by a restart", "c", time.Time{}, time.Time{}, "expired"},
	} {
		c := &store.Conversation{ContainerID: tc.container, SessionStartedAt: tc.started, SessionUsedAt: tc.used}
		if got := Session(c, now).State; got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	restored := &Answer{Restored: true}
	if got := (SessionState{State: StatusIdle}).After(restored).State; got != StatusRestored {
		t.Errorf("idle after a restored answer: %s", got)
	}
	if got := (SessionState{State: StatusExpired}).After(restored).State; got != StatusExpired {
		t.Errorf("expired after a restored answer: %s", got)
	}
}

// TestRestoredNotice reads the local engine's restore line into words
// that name what came back and what did not.
func TestRestoredNotice(t *testing.T) {
	rep := &cellext.Restored{Names: []string{"df", "model", "np"}, Files: 2,
		Lost: []cellext.Lost{{Name: "gen", Reason: "a generator cannot be saved; run the cell that made it again"}}}
	want := "This conversation's sandbox was set aside to free memory while it was idle, and has been restored for this answer. Back as they were: df, model, np and 2 files. Not restored: gen (a generator cannot be saved; run the cell that made it again)."
	if got := restoredNotice(rep); got != want {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 102: "102nd"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s", n, got)
		}
	}
}
