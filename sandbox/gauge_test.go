package sandbox

import (
	"sync/atomic"
	"testing"
	"time"
)

func TestParseFaults(t *testing.T) {
	t.Parallel()
	// A command name may hold spaces and parentheses; minflt is 29241, majflt 2.
	line := []byte("19834 (py (x) 3) S 19829 19783 19496 0 -1 4194304 29241 74 2 0 136 53 0 0 20 0 2 0\n")
	if n, ok := parseFaults(line); !ok || n != 29243 {
		t.Fatalf("parseFaults = %d, %v; want 29243, true", n, ok)
	}
	for _, bad := range []string{"", "1 (x", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 minflt 0 2"} {
		if _, ok := parseFaults([]byte(bad)); ok {
			t.Errorf("parseFaults(%q) succeeded", bad)
		}
	}
}

// TestMemoryGauge: a kernel's page table is read again on the call after
// which it grew, and seldom while it runs cells that touch no new page; a
// reading older than remeasureAfter is taken again whatever the faults.
func TestMemoryGauge(t *testing.T) {
	s := openSession(t, sharedPool(t))
	var reads atomic.Int64
	s.mu.Lock()
	s.cfg.memoryOf = func(pid int) int64 { reads.Add(1); return uniqueMemory(pid) }
	s.mu.Unlock()
	runOK(t, s, "x = 0")
	if reads.Load() != 1 {
		t.Fatalf("first cell: %d full readings, want 1", reads.Load())
	}
	// A fork copies the template's pages it writes over its first cells;
	// after them, a cell that makes nothing new seldom faults, though a
	// busy machine may stretch cells past remeasureAfter.
	for range 60 {
		runOK(t, s, "x = x + 1")
	}
	const cells = 100
	n := reads.Load()
	for range cells {
		runOK(t, s, "x = x + 1")
	}
	t.Logf("%d full readings in %d cells", reads.Load()-n, cells)
	if got := reads.Load() - n; got > cells/4 {
		t.Fatalf("%d full readings in %d cells that allocate nothing new", got, cells)
	}
	before, n := s.mem.Load(), reads.Load()
	runOK(t, s, "big = b'x' * (64 << 20)") // writes 64 MiB: faults
	if got := s.mem.Load(); reads.Load() != n+1 || got < before+60<<20 {
		t.Fatalf("after writing 64 MiB: measure %d -> %d, %d full readings; want one, 60 MiB more", before, got, reads.Load()-n)
	}
	s.mu.Lock()
	s.w.gauge.at = time.Now().Add(-remeasureAfter)
	s.mu.Unlock()
	n = reads.Load()
	runOK(t, s, "x")
	if reads.Load() != n+1 {
		t.Fatalf("a reading %s old was trusted", remeasureAfter)
	}
}
