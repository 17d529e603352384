package sandbox

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"sync/atomic"
	"testing"
	"time"
)

// TestSessionState_Edges pins which state changes are allowed: every other
// one is refused.
func TestSessionState_Edges(t *testing.T) {
	t.Parallel()
	allowed := map[[2]sessionState]bool{
		{stateLive, stateEvicting}:    true,
		{stateEvicting, stateEvicted}: true,
		{stateEvicting, stateLive}:    true,
		{stateEvicted, stateLive}:     true,
		{stateLive, stateEnded}:       true,
		{stateEvicting, stateEnded}:   true,
		{stateEvicted, stateEnded}:    true,
	}
	all := []sessionState{stateLive, stateEvicting, stateEvicted, stateEnded}
	for _, from := range all {
		for _, to := range all {
			if got, want := from.leadsTo(to), allowed[[2]sessionState{from, to}]; got != want {
				t.Errorf("%s -> %s allowed = %v, want %v", from, to, got, want)
			}
		}
	}
}

// bareSession is a session with no pool or kernel, in state st, for the
// transitions that refuse before touching either.
func bareSession(st sessionState) *Session {
	return &Session{state: st, idle: time.NewTimer(time.Hour), life: time.NewTimer(time.Hour)}
}

// TestSessionState_RefusedFromTheWrongState: each transition checks where
// the session is, under the state lock, and refuses from anywhere else.
func TestSessionState_RefusedFromTheWrongState(t *testing.T) {
	t.Parallel()
	busy := bareSession(stateLive)
	busy.active = 1
	if busy.markEvicting() {
		t.Error("a session with a call in progress was picked for an eviction")
	}
	s := bareSession(stateLive)
	if !s.markEvicting() || s.markEvicting() {
		t.Error("an idle live session is picked for an eviction exactly once")
	}
	for _, st := range []sessionState{stateEvicted, stateEnded} {
		if bareSession(st).markEvicting() {
			t.Errorf("a %s session was picked for an eviction", st)
		}
	}
	ended := bareSession(stateEnded)
	ended.callOffEviction()
	if w := ended.retire(); w != nil || ended.attach(&worker{}) {
		t.Error("an ended session gave up or took a kernel")
	}
	if st, _ := ended.phase(); st != stateEnded {
		t.Errorf("an ended session became %s", st)
	}
	first := bareSession(stateEvicted)
	if _, ok := first.finishLocked(ErrClosed); !ok {
		t.Fatal("an evicted session could not end")
	}
	if _, ok := first.finishLocked(ErrIdleTimeout); ok || !errors.Is(first.err, ErrClosed) {
		t.Errorf("a session ended twice; its reason is %v, want the first", first.err)
	}
}

// TestRequest_Wire pins the JSON of every request to what worker.py has
// always been sent.
func TestRequest_Wire(t *testing.T) {
	t.Parallel()
	ns := int64(1700000000123456789)
	cases := []struct {
		req  request
		want string
	}{
		{request{Op: "list"}, `{"op":"list"}`},
		{request{Op: "restore"}, `{"op":"restore"}`},
		{request{Op: "snapshot", MaxBytes: 1 << 30}, `{"op":"snapshot","max_bytes":1073741824}`},
		{request{Op: "delete", Name: "a/b.csv"}, `{"op":"delete","name":"a/b.csv"}`},
		{request{Op: "get", Name: "x.csv", Max: 512 << 20}, `{"op":"get","name":"x.csv","max":536870912}`},
		{request{Op: "put", Name: "x.csv"}, `{"op":"put","name":"x.csv"}`},
		{request{Op: "put", Name: "x.csv", MtimeNS: &ns}, `{"op":"put","name":"x.csv","mtime_ns":1700000000123456789}`},
		{request{Op: "exec", execFields: &execFields{Cell: 3, Code: "", MaxOutput: 10, MaxFigures: 2, MaxFigureBytes: 5}},
			`{"op":"exec","cell":3,"code":"","max_output":10,"max_figures":2,"max_figure_bytes":5}`},
		{request{Op: "exec", execFields: &execFields{Cell: 1, Code: "1", Stream: true, LiveFigures: true}},
			`{"op":"exec","cell":1,"code":"1","max_output":0,"max_figures":0,"max_figure_bytes":0,"stream":true,"live_figures":true}`},
	}
	for _, c := range cases {
		got, err := json.Marshal(c.req)
		if err != nil {
			t.Fatal(err)
		}
		var g, w map[string]any
		if json.Unmarshal(got, &g) != nil || json.Unmarshal([]byte(c.want), &w) != nil || !reflect.DeepEqual(g, w) {
			t.Errorf("%s request: %s, want %s", c.req.Op, got, c.want)
		}
	}
}

// TestPool_CloseWaitsForDropSaved: Close does not return while an ended
// session's saved state waits for an exchange to let go of it, and the
// state is gone when it does.
func TestPool_CloseWaitsForDropSaved(t *testing.T) {
	p := budgetPool(t, 8)
	s := ownedSession(t, p, "ana")
	evictNow(t, p, s)
	s.mu.Lock() // as an exchange in flight would
	dir := s.saved.dir
	var released atomic.Bool
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		p.Close()
		if !released.Load() {
			t.Error("Close returned while the session's saved state was still held")
		}
	}()
	waitFor(t, "Close to wait for the pool's goroutines", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.draining
	})
	released.Store(true)
	s.mu.Unlock()
	<-closed
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("saved state left in %s: %v", dir, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved != nil {
		t.Fatal("dropSaved did not run before Close returned")
	}
}
