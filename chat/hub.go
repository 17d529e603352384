package chat

import "sync"

// subscriberBuffer is how many events a subscriber may fall behind before it
// is dropped. A dropped subscriber catches up by replay, so a slow browser
// never slows the run or the other subscribers.
const subscriberBuffer = 256

// Hub fans the events of live runs out to subscribers and keeps each live
// run's events for replay. Finished runs are replayed from the database.
type Hub struct {
	mu   sync.Mutex
	runs map[string]*liveRun
}

type liveRun struct {
	events []Event
	subs   map[*Subscription]struct{}
}

// Subscription receives a run's events in order on C. C is closed when the
// run ends (Dropped false) or when the subscriber fell too far behind
// (Dropped true), in which case it should subscribe again after the last
// event it saw.
type Subscription struct {
	C       <-chan Event
	c       chan Event
	dropped bool
	once    sync.Once
}

// Dropped reports whether C was closed because the subscriber was too slow.
// Read it only after C is closed.
func (s *Subscription) Dropped() bool { return s.dropped }

func (s *Subscription) close(dropped bool) {
	s.once.Do(func() {
		s.dropped = dropped
		close(s.c)
	})
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{runs: map[string]*liveRun{}} }

// Open starts keeping events for a run.
func (h *Hub) Open(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs[runID] = &liveRun{subs: map[*Subscription]struct{}{}}
}

// Publish appends e to the run's log and sends it to every subscriber. A
// subscriber whose buffer is full is dropped rather than waited for.
func (h *Hub) Publish(runID string, e Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	if r == nil {
		return
	}
	r.events = append(r.events, e)
	for s := range r.subs {
		select {
		case s.c <- e:
		default:
			delete(r.subs, s)
			s.close(true)
		}
	}
}

// Close ends a run: its subscribers' channels close and its log is
// forgotten (the database has it).
func (h *Hub) Close(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	if r == nil {
		return
	}
	for s := range r.subs {
		s.close(false)
	}
	delete(h.runs, runID)
}

// Subscribe returns the events of a live run after seq and a subscription
// to the ones that follow, with no gap and no repeat between the two. ok is
// false when the run is not live (finished, or unknown to this process).
func (h *Hub) Subscribe(runID string, after int64) (replay []Event, sub *Subscription, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	if r == nil {
		return nil, nil, false
	}
	for _, e := range r.events {
		if e.Seq > after {
			replay = append(replay, e)
		}
	}
	c := make(chan Event, subscriberBuffer)
	sub = &Subscription{C: c, c: c}
	r.subs[sub] = struct{}{}
	return replay, sub, true
}

// Unsubscribe stops a subscription early, when its reader goes away.
func (h *Hub) Unsubscribe(runID string, sub *Subscription) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if r := h.runs[runID]; r != nil {
		delete(r.subs, sub)
	}
	sub.close(false)
}
