package sandbox

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestFairShare_BusyOwnerYieldsToAWaitingClaim: ana keeps both kernels of
// the pool busy, cell after cell, in two sessions; ben's claim for a kernel
// waits in line. While it waits, ana's cells wait for her fair share (one
// kernel of two), so one of her kernels goes idle for ben (or for the
// worker that starts in its place) instead of both staying busy until she
// stops; her cells go on all along, and afterwards.
func TestFairShare_BusyOwnerYieldsToAWaitingClaim(t *testing.T) {
	p := budgetPool(t, 2.5)
	a1, a2 := ownedSession(t, p, "ana"), ownedSession(t, p, "ana")
	var waitingSince atomic.Int64 // when ben's claim was first told it waits
	var ran atomic.Int64
	stop := make(chan struct{})
	var cells sync.WaitGroup
	for _, s := range []*Session{a1, a2} {
		cells.Add(1)
		go func() {
			defer cells.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r, err := s.Exec(context.Background(), "import time\ntime.sleep(0.2)"); err == nil && r.Error == nil {
					ran.Add(1)
				}
			}
		}()
	}
	waitFor(t, "ana's cells", func() bool { return ran.Load() >= 4 }) // both of ana's kernels are busy by turns
	// Sample how many of ana's kernels run code while ben waits, from a
	// second after he was told he waits (her cells in flight then are over).
	var overShare, samples atomic.Int64
	claimed := make(chan struct{})
	go func() {
		for {
			select {
			case <-claimed:
				return
			case <-time.After(20 * time.Millisecond):
			}
			if since := waitingSince.Load(); since != 0 && time.Since(time.Unix(0, since)) > time.Second {
				samples.Add(1)
				if p.Stats().Busy > 1 {
					overShare.Add(1)
				}
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	trace := func(int) { waitingSince.CompareAndSwap(0, time.Now().UnixNano()) }
	ben, err := p.SessionFor(WithWaitTrace(ctx, trace), "ben")
	close(claimed)
	close(stop)
	cells.Wait()
	if err != nil {
		t.Fatalf("ben's claim: %v", err)
	}
	defer ben.Close()
	if n := overShare.Load(); n > 0 {
		t.Errorf("ana ran code in both kernels in %d of %d samples while ben waited", n, samples.Load())
	}
	t.Logf("ben waited %d samples; ana ran %d cells", samples.Load(), ran.Load())
	if r, err := a1.Exec(context.Background(), "x = 3\nx"); err != nil || r.Value == nil || r.Value.Text != "3" {
		t.Fatalf("ana's session after ben's claim: %+v, %v", r, err)
	}
}
