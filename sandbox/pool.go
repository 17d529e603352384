package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Pool keeps pre-warmed workers and hands each to one Session. It is safe
// for concurrent use.
type Pool struct {
	cfg    Config
	log    *slog.Logger
	assets *assets
	lim    limiter

	ready  chan *worker  // warm workers, at most cfg.MaxWarm
	wake   chan struct{} // nudges the refill loop
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	stateDir string       // where evicted sessions' state goes
	warmSize atomic.Int64 // measured memory of a recent warm worker
	// warmSizeAt is when warmSize was last measured, in Unix nanoseconds.
	warmSizeAt atomic.Int64
	// inUseSize is a moving average of what kernels in use measure.
	inUseSize atomic.Int64
	fork      forkServer  // the template kernels fork from
	trimming  atomic.Bool // a trim is evicting idle kernels

	mu       sync.Mutex
	sessions map[string]*Session // open sessions, live and evicted
	queue    []*waiter           // claims waiting for a worker, in order
	arrived  arrivals            // when claims arrived, to size the warm pool
	stuck    bool                // the head of the line waits for a busy kernel to go idle
	changed  chan struct{}       // closed and replaced when capacity may have changed
	starting int
	spare    int // workers started or warm that no session has yet: they use memory too
	closed   bool
	draining bool  // Close waits for wg: nothing new may join it
	readyErr error // last self-test result
	failRun  int64 // consecutive failed worker starts, for the back-off
	stats    Stats
}

// Stats is a snapshot of the pool's counters, for metrics and the admin page.
type Stats struct {
	Ready     int           // warm workers waiting for a session
	WarmGoal  int           // warm workers the pool keeps now: the floor, the last hour's peak demand, or the one forecast
	Starting  int           // workers being started
	Sessions  int           // open sessions, live and evicted
	Live      int           // sessions with a kernel
	Busy      int           // live sessions running a call now
	Idle      int           // live sessions doing nothing: evictable
	Evicted   int           // sessions whose state waits on disk for their next call
	Queued    int           // claims waiting in line for a kernel now
	Started   int64         // workers that became ready since the pool was made
	Failed    int64         // worker starts that failed
	LastStart time.Duration // start-to-ready time of the latest worker
	Limits    string        // the resource-limit backend in effect

	Budget      int64 // bytes all kernels may use together
	Used        int64 // bytes the live and warm kernels use, as last measured
	KernelSize  int64 // bytes of one more kernel: what kernels in use measure, or a warm one
	Template    int64 // bytes of the template kernels fork from, in Used; 0 when they do not fork
	Capacity    int   // kernels of that size the budget holds
	Evictions   int64 // sessions evicted since the pool was made
	Restores    int64 // evicted sessions restored since
	QueuedTotal int64 // claims that had to wait for a free sandbox since
	Refused     int64 // claims refused because the line was full
}

// NewPool prepares the sandbox, runs the self-test and starts filling the
// pool in the background. When isolation cannot be set up, NewPool returns
// both a Pool, which refuses sessions with ErrIsolationUnavailable but still
// answers SelfTest, Ready and Close (so /readyz can say why), and an error
// wrapping ErrIsolationUnavailable.
func NewPool(ctx context.Context, cfg Config) (*Pool, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	p := &Pool{
		cfg:      cfg,
		log:      cfg.Logger,
		ready:    make(chan *worker, cfg.MaxWarm+cfg.RefillParallel),
		wake:     make(chan struct{}, 1),
		changed:  make(chan struct{}),
		sessions: map[string]*Session{},
		readyErr: errIsolation(errors.New("sandbox: self-test has not run yet")),
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	a, err := newAssets(cfg)
	if err != nil {
		return nil, err
	}
	p.assets = a
	if p.stateDir, err = prepareStateDir(cfg.StateDir); err != nil {
		a.remove()
		return nil, err
	}
	if err := a.buildFontCache(cfg.Python); err != nil {
		p.log.Warn("sandbox: no prebuilt font cache; workers will build their own", "err", err)
	}
	if err := p.setupLimits(); err != nil {
		a.remove()
		return nil, err
	}
	// The refill loop starts either way: it idles while the self-test fails
	// and fills the pool once a later SelfTest passes.
	p.wg.Add(1)
	go p.refillLoop()
	if err := p.SelfTest(ctx); err != nil {
		p.log.Error("sandbox: refusing to run code: self-test failed", "err", err)
		return p, err
	}
	p.logStart()
	return p, nil
}

func (p *Pool) setupLimits() error {
	lim, why := newLimiter(p.cfg.Cgroups, limitsFor(p.cfg))
	for _, w := range why {
		p.log.Info("sandbox: resource-limit backend skipped", "reason", w)
	}
	if _, isNone := lim.(*noCgroup); isNone && (p.cfg.Cgroups == CgroupsV1 || p.cfg.Cgroups == CgroupsV2) {
		return fmt.Errorf("sandbox: cgroups %s requested but unavailable: %v", p.cfg.Cgroups, why)
	}
	p.lim = lim
	p.stats.Limits = lim.name()
	return nil
}

func (p *Pool) logStart() {
	if p.cfg.Isolation == IsolationNone {
		p.log.Warn("sandbox: ISOLATION IS OFF: user code runs unsandboxed on this machine (SANDBOX_ISOLATION=none); for development only")
		return
	}
	p.log.Info("sandbox: ready", "isolation", p.cfg.Isolation, "limits", p.lim.name(),
		"seccomp", p.assets.seccomp != "", "warm", p.cfg.Warm, "max_warm", p.cfg.MaxWarm, "memory_budget_mb", p.cfg.MemoryBudget>>20)
}

// Session claims a warm worker as a new session's kernel; see SessionFor.
func (p *Pool) Session(ctx context.Context) (*Session, error) {
	return p.SessionFor(ctx, "")
}

// SessionFor claims a warm worker as a new session's kernel for owner (a
// user, say: eviction is fair between owners). When the memory budget is
// full it evicts an idle kernel to make room; when every kernel is running
// code it waits in line (see WithWaitTrace), failing with ErrQueueFull or
// ErrQueueTimeout only when the line is full or the wait too long. It
// returns ErrIsolationUnavailable when the self-test failed.
func (p *Pool) SessionFor(ctx context.Context, owner string) (*Session, error) {
	w, err := p.claimWorker(ctx, owner)
	if err != nil {
		return nil, err
	}
	s := newSession(p, w, owner)
	if err := p.add(s); err != nil {
		s.end(err)
		return nil, err
	}
	if p.cfg.Isolation == IsolationNone {
		p.log.Warn("sandbox: ISOLATION IS OFF for this session: user code runs unsandboxed", "session", s.id)
	}
	return s, nil
}

// add registers a new session, whose kernel stops being a spare worker:
// both in one step, so the budget never counts it twice or not at all.
func (p *Pool) add(s *Session) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.spare--
	if p.closed {
		return ErrClosed
	}
	p.sessions[s.id] = s
	return nil
}

// unspare forgets a spare worker that died or was killed before any
// session had it.
func (p *Pool) unspare() {
	p.mu.Lock()
	p.spare--
	p.mu.Unlock()
}

func (p *Pool) remove(s *Session) {
	p.mu.Lock()
	delete(p.sessions, s.id)
	p.mu.Unlock()
}

// Ready returns the result of the latest self-test: nil when the pool can
// run code. It is cheap; /readyz can call it on every request.
func (p *Pool) Ready() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	return p.readyErr
}

// Stats returns the pool's counters.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.stats
	st.Ready, st.Starting, st.Sessions, st.Queued = len(p.ready), p.starting, len(p.sessions), len(p.queue)
	st.WarmGoal = p.warmTargetLocked(time.Now())
	for _, s := range p.sessions {
		switch state, _, idle := s.status(); {
		case state == stateEvicted:
			st.Evicted++
		case idle:
			st.Idle++
		default:
			st.Busy++
		}
	}
	st.Live = st.Idle + st.Busy
	st.Budget, st.Used, st.KernelSize, st.Capacity = p.cfg.MemoryBudget, p.usedLocked(), p.kernelSize(), p.capacity()
	st.Template = p.templateSize()
	return st
}

// Close ends every session (their Err becomes ErrClosed), kills the warm
// workers and removes the pool's cgroups and files.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	open := make([]*Session, 0, len(p.sessions))
	for _, s := range p.sessions {
		open = append(open, s)
	}
	p.mu.Unlock()
	p.cancel()
	for _, s := range open {
		s.end(ErrClosed)
	}
	p.mu.Lock()
	p.draining = true
	p.mu.Unlock()
	p.wg.Wait() // the refill loop, trims, and every session's watchExit and dropSaved
	close(p.ready)
	for w := range p.ready {
		w.kill()
		w.release(p)
	}
	p.closeTemplate()
	err := p.lim.close()
	p.assets.remove()
	os.RemoveAll(p.stateDir)
	if err != nil {
		return fmt.Errorf("sandbox: close: %w", err)
	}
	return nil
}

// spawn runs fn in a goroutine of the pool's wait group, so that Close
// waits for it. Once Close is waiting it refuses (false): what fn would do
// is then done by Close itself (sessions are ended, their state removed).
func (p *Pool) spawn(fn func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.draining {
		return false
	}
	p.wg.Add(1) // under p.mu, before Close can wait
	go func() {
		defer p.wg.Done()
		fn()
	}()
	return true
}

// errIsolation wraps a self-test failure.
func errIsolation(err error) error {
	if errors.Is(err, ErrIsolationUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrIsolationUnavailable, err)
}

// prepareStateDir empties the directory for evicted sessions' state (what
// a previous process left there belongs to sessions that are gone) or makes
// a fresh one under the system's temporary directory.
func prepareStateDir(dir string) (string, error) {
	if dir == "" {
		d, err := os.MkdirTemp("", "workbench-sandbox-state-")
		if err != nil {
			return "", fmt.Errorf("sandbox: state dir: %w", err)
		}
		return d, nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", fmt.Errorf("sandbox: state dir: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("sandbox: state dir: %w", err)
	}
	return dir, nil
}
