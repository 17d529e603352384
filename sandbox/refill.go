package sandbox

import (
	"time"
)

// nudge wakes the refill loop without blocking.
func (p *Pool) nudge() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// refillLoop keeps the warm target's workers ready (see demand.go) while
// the memory budget has room for them, and one for each claim waiting in
// line, starting at
// most cfg.RefillParallel at a time: imports are CPU-bound, and parallel
// starts on a small machine only slow each other down.
func (p *Pool) refillLoop() {
	defer p.wg.Done()
	check := time.NewTicker(p.cfg.warmCheck)
	defer check.Stop()
	for {
		p.mu.Lock()
		need := max(p.warmTargetLocked(time.Now()), min(len(p.queue), p.cfg.RefillParallel)) - len(p.ready) - p.starting
		if p.readyErr != nil {
			need = 0 // no workers for a pool that may not run code
		}
		for ; need > 0 && p.starting < p.cfg.RefillParallel && !p.closed && p.roomLocked(); need-- {
			p.starting++
			p.spare++
			p.wg.Add(1)
			go p.refillOne()
		}
		p.mu.Unlock()
		select {
		case <-p.wake:
		case <-check.C:
			p.shrinkWarm()
		case <-p.ctx.Done():
			return
		}
	}
}

// refillOne starts one worker and offers it to the pool. A failure backs
// off so that a broken host does not spin the CPU.
func (p *Pool) refillOne() {
	defer p.wg.Done()
	defer p.nudge()
	w, err := p.startWorker(p.ctx)
	p.mu.Lock()
	if err != nil {
		p.stats.Failed++
		p.spare--
		p.failRun++
		failures := p.failRun
		p.mu.Unlock()
		if p.ctx.Err() == nil {
			p.log.Warn("sandbox: worker failed to start", "err", err)
			p.backoff(failures)
		}
		p.done()
		return
	}
	p.stats.Started++
	p.failRun = 0
	p.stats.LastStart = w.readyAt.Sub(w.started)
	p.mu.Unlock()
	p.measureWarm(w)
	select {
	case p.ready <- w:
	default: // more warm workers than the channel holds
		w.kill()
		w.release(p)
		p.unspare()
	}
	p.done()
	p.signal()
}

// warmMeasureEvery is how often a new warm worker's memory is measured. It
// changes only with the template or the stack, and the measure walks the
// kernel's page table (1 to 5 ms alone, tens of ms in a rush) while claims
// may be waiting for this very worker.
const warmMeasureEvery = 10 * time.Second

// measureWarm notes w's memory as a warm worker's size, unless one was
// noted less than warmMeasureEvery ago.
func (p *Pool) measureWarm(w *worker) {
	now, last := time.Now().UnixNano(), p.warmSizeAt.Load()
	if last != 0 && now-last < int64(warmMeasureEvery) || !p.warmSizeAt.CompareAndSwap(last, now) {
		return
	}
	if size := p.cfg.memoryOf(w.pyPid); size > 0 {
		p.warmSize.Store(size)
	}
}

func (p *Pool) done() {
	p.mu.Lock()
	p.starting--
	p.mu.Unlock()
}

func (p *Pool) backoff(failures int64) {
	d := time.Duration(failures) * time.Second
	if d > 30*time.Second {
		d = 30 * time.Second
	}
	select {
	case <-time.After(d):
	case <-p.ctx.Done():
	}
}
