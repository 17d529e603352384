package emulator

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"sync"
	"time"
)

// frame is one encoded server-sent event of a response stream.
type frame struct {
	typ  string
	data []byte
}

// run is the event log of one response in progress. The turn appends to it from its own
// goroutine; any number of readers (the request that started it, a reconnect with
// starting_after) follow it. Only the turn writes, so readers never block the turn.
type run struct {
	mu     sync.Mutex
	frames []frame
	done   bool
	final  *response
	// initial is the in-progress response, shown while the turn runs.
	initial *response
	// streamed is set when the response was created with stream: true, the only kind whose
	// stream can be opened again later (see checkReplayable).
	streamed bool
	wake     chan struct{} // closed and replaced on every append: a broadcast to the readers
	cancel   context.CancelFunc
	ended    chan struct{} // closed when the turn has finished
}

func newRun(cancel context.CancelFunc) *run {
	return &run{wake: make(chan struct{}), cancel: cancel, ended: make(chan struct{})}
}

// emit appends an event of type typ. payload is marshalled and spliced after the type and the
// sequence number, which the run assigns, so that every event reads {"type":…,"sequence_number":…,…}.
func (r *run) emit(typ string, payload any) {
	body, err := json.Marshal(payload)
	if err != nil || len(body) < 2 || body[0] != '{' {
		body = []byte("{}") // payloads are maps or structs built in this package
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	seq := len(r.frames)
	data := make([]byte, 0, len(body)+len(typ)+48)
	data = append(data, `{"type":`...)
	data = strconv.AppendQuote(data, typ)
	data = append(data, `,"sequence_number":`...)
	data = strconv.AppendInt(data, int64(seq), 10)
	if len(body) > 2 {
		data = append(data, ',')
	}
	data = append(data, body[1:]...)
	r.frames = append(r.frames, frame{typ: typ, data: data})
	close(r.wake)
	r.wake = make(chan struct{})
}

// finish records the final response and wakes every reader for the last time.
func (r *run) finish(final *response) {
	r.mu.Lock()
	r.done, r.final = true, final
	close(r.wake)
	r.wake = make(chan struct{})
	r.mu.Unlock()
	close(r.ended)
}

// next returns the frames from index from on, whether the run is over, and a channel closed
// when there is more to read.
func (r *run) next(from int) ([]frame, bool, <-chan struct{}) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var fs []frame
	if from < len(r.frames) {
		fs = r.frames[from:len(r.frames):len(r.frames)]
	}
	return fs, r.done, r.wake
}

// result waits for the turn to end and returns the final response.
func (r *run) result(ctx context.Context) (*response, error) {
	select {
	case <-r.ended:
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.final, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// runSet keeps the runs of recent responses, for streaming, reconnecting and cancelling.
type runSet struct {
	mu   sync.Mutex
	runs map[string]*run
}

// keepRuns is how long a finished run's events stay available for a reconnect.
const keepRuns = 10 * time.Minute

func newRunSet() *runSet { return &runSet{runs: map[string]*run{}} }

// addUnlessBusy registers r unless a response of conversationID still runs
// ("" checks nothing); the check and the registration are one step, so two
// requests at once cannot both pass the check.
func (rs *runSet) addUnlessBusy(id string, r *run, conversationID string) bool {
	rs.mu.Lock()
	if conversationID != "" && rs.busyLocked(conversationID) {
		rs.mu.Unlock()
		return false
	}
	rs.runs[id] = r
	rs.mu.Unlock()
	go func() {
		<-r.ended
		time.AfterFunc(keepRuns, func() { rs.remove(id) })
	}()
	return true
}

func (rs *runSet) get(id string) *run {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return rs.runs[id]
}

// inFlight returns the responses still running, oldest first.
func (rs *runSet) inFlight() []*response {
	rs.mu.Lock()
	var out []*response
	for _, r := range rs.runs {
		if !isClosed(r.ended) {
			out = append(out, r.initial)
		}
	}
	rs.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		return out[i].CreatedAt < out[j].CreatedAt || out[i].CreatedAt == out[j].CreatedAt && out[i].ID < out[j].ID
	})
	return out
}

func (rs *runSet) remove(id string) {
	rs.mu.Lock()
	delete(rs.runs, id)
	rs.mu.Unlock()
}
