package sandbox

import (
	"sync/atomic"
)

// A template that stops making good kernels is replaced: after healAfter
// forks in a row fail from it (a fork that does not report, or whose
// mounts do not check out, never becomes a kernel), the next fork starts a
// new template. The old one is retired rather than killed: the kernels it
// made live in pid namespaces nested in its own and would die with it, so
// it ends when its last kernel ends, and until then the budget still
// charges its memory.
const healAfter = 3

// lineage is the forkServer's record of which template made which kernels.
type lineage struct {
	kernels  map[*worker]int   // live kernels by the template they forked from
	failures int               // forks failed in a row from the current template
	retired  map[*worker]int64 // retired templates with live kernels, and their memory
	retiredB atomic.Int64      // the sum of retired's memory, read without the lock
	faults   atomic.Int32      // tests: the number of next forks to fail on purpose
	faultAt  atomic.Value      // tests: where they fail, a string (see forkRequest.Fault)
}

// injectFaults makes the next n forks fail at where (tests only).
func (l *lineage) injectFaults(n int, where string) {
	l.faultAt.Store(where)
	l.faults.Store(int32(n))
}

// takeFault returns where this fork is to fail on purpose, "" for nowhere.
func (l *lineage) takeFault() string {
	for {
		n := l.faults.Load()
		if n <= 0 {
			return ""
		}
		if l.faults.CompareAndSwap(n, n-1) {
			return l.faultAt.Load().(string)
		}
	}
}

// forkedFrom records a kernel of template t; t's run of failures ends.
func (p *Pool) forkedFrom(t, w *worker) {
	fs := &p.fork
	fs.mu.Lock()
	defer fs.mu.Unlock()
	w.from = t
	if fs.kernels == nil {
		fs.kernels = map[*worker]int{}
	}
	fs.kernels[t]++
	if t == fs.w {
		fs.failures = 0
	}
}

// forkFailed counts a failed fork from template t and retires t after
// healAfter in a row. t is nil when no template could start at all; the
// next fork tries to start one anyway.
func (p *Pool) forkFailed(t *worker, err error) {
	fs := &p.fork
	fs.mu.Lock()
	if t == nil || t != fs.w {
		fs.mu.Unlock()
		return
	}
	fs.failures++
	if fs.failures < healAfter {
		fs.mu.Unlock()
		return
	}
	fs.failures = 0
	fs.w = nil
	size := fs.size.Swap(0)
	left := fs.kernels[t]
	end := left == 0
	if !end {
		if fs.retired == nil {
			fs.retired = map[*worker]int64{}
		}
		fs.retired[t] = size
		fs.retiredB.Add(size)
	}
	fs.mu.Unlock()
	p.log.Warn("sandbox: forks keep failing from the kernel template; the next kernel forks from a new one",
		"failures", healAfter, "kernels_left", left, "err", err)
	if end {
		t.kill()
		t.release(p)
	}
}

// kernelEnded is told when a forked worker is released: a retired template
// whose last kernel this was ends too.
func (p *Pool) kernelEnded(w *worker) {
	fs := &p.fork
	fs.mu.Lock()
	t := w.from
	w.from = nil // a second release counts nothing
	if t == nil {
		fs.mu.Unlock()
		return
	}
	fs.kernels[t]--
	last := fs.kernels[t] <= 0
	if last {
		delete(fs.kernels, t)
	}
	size, retired := fs.retired[t]
	if last && retired {
		delete(fs.retired, t)
		fs.retiredB.Add(-size)
	}
	fs.mu.Unlock()
	if last && retired {
		go func() { // not on the path of the session that is closing
			t.kill()
			t.release(p)
		}()
	}
}

// retiredLocked hands over the retired templates, forgetting them; the
// pool is closing. The caller holds the lock.
func (l *lineage) retiredLocked() []*worker {
	var out []*worker
	for t, size := range l.retired {
		out = append(out, t)
		l.retiredB.Add(-size)
	}
	l.retired = nil
	return out
}
