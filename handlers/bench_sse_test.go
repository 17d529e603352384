package handlers_test

import (
	"net"
	"runtime"
	"sync"
	"testing"

	"github.com/analyst-workbench/workbench/sandbox"
)

// BenchmarkSSESubscribers1000 opens 1,000 event streams on one live run
// through the real handler stack and reports the heap they add, measured
// after a GC (clients included, so it is an upper bound for the server).
func BenchmarkSSESubscribers1000(b *testing.B) {
	const subscribers = 1000
	l := newLiveApp(b, sandbox.Config{})
	br, convID, run := l.startLive()
	path := "/conversations/" + convID + "/runs/" + run.ID + "/events"

	before := heapInUse()
	var conns []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for range subscribers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			conn, err := l.openStream(br, path)
			if err != nil {
				b.Error("stream ended early:", err)
				return
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}()
	}
	wg.Wait()
	// Each stream has had its first update, so its handler holds its
	// subscription: the heap now has what the streams cost.
	if n := l.turns.Subscribers(); n < len(conns) {
		b.Fatalf("%d subscriptions for %d open streams", n, len(conns))
	}
	after := heapInUse()
	b.ReportMetric(float64(len(conns)), "streams")
	b.ReportMetric(float64(after-before)/(1<<20), "MB-added")
	for _, c := range conns {
		c.Close()
	}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}
