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
// run ends (Dropped false), when the subscriber fell too far behind
// (Dropped true; it should subscribe again after the last event it saw), or
// when Close is called. Whoever subscribes owns the subscription and must
// Close it, whichever way it ended.
type Subscription struct {
	C     <-chan Event
	c     chan Event
	hub   *Hub
	runID string
	// stop ends a subscription fed from the database (hub nil, see
	// subscribeStored) and waits until its feeder has closed C.
	stop    func()
	dropped bool
	once    sync.Once
}

// Dropped reports whether C was closed because the subscriber was too slow.
// Read it only after C is closed.
func (s *Subscription) Dropped() bool { return s.dropped }

// Close stops the subscription and removes it from its run. It is safe to
// call more than once and after the run has ended.
func (s *Subscription) Close() {
	if s.hub == nil {
		s.stop()
		return
	}
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	if r := s.hub.runs[s.runID]; r != nil {
		delete(r.subs, s)
	}
	s.close(false)
}

// close closes C once; the caller holds the hub's lock, or is the feeder
// of a subscription fed from the database (the only one that sends on C).
func (s *Subscription) close(dropped bool) {
	s.once.Do(func() {
		s.dropped = dropped
		close(s.c)
	})
}

// NewHub returns an empty hub.
func NewHub() *Hub { return &Hub{runs: map[string]*liveRun{}} }

// Open starts keeping events for a run. A run already open stays as it is,
// with its events and subscribers: a queued question is open while it
// waits, and its browsers go on following it once it starts.
func (h *Hub) Open(runID string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.runs[runID] != nil {
		return
	}
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
	replay = eventsAfter(r.events, after)
	c := make(chan Event, subscriberBuffer)
	sub = &Subscription{C: c, c: c, hub: h, runID: runID}
	r.subs[sub] = struct{}{}
	return replay, sub, true
}

// Events returns a copy of a live run's events so far, without
// subscribing; ok is false when the run is not live.
func (h *Hub) Events(runID string) (events []Event, ok bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	r := h.runs[runID]
	if r == nil {
		return nil, false
	}
	return eventsAfter(r.events, 0), true
}

// Subscribers counts the open subscriptions of every live run, for
// metrics and for tests that look for leaks.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.runs {
		n += len(r.subs)
	}
	return n
}

func eventsAfter(events []Event, after int64) []Event {
	var out []Event
	for _, e := range events {
		if e.Seq > after {
			out = append(out, e)
		}
	}
	return out
}
