package sandbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"
)

// Pool keeps pre-warmed workers and hands each to one Session. It is safe
// for concurrent use.
type Pool struct {
	cfg    Config
	log    *slog.Logger
	assets *assets
	lim    limiter

	ready  chan *worker  // warm workers, at most cfg.Warm
	wake   chan struct{} // nudges the refill loop
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	sessions map[string]*Session
	claiming int // Session calls waiting for a worker, counted against MaxSessions
	starting int
	closed   bool
	readyErr error // last self-test result
	failRun  int64 // consecutive failed worker starts, for the back-off
	stats    Stats
}

// Stats is a snapshot of the pool's counters, for metrics and the admin page.
type Stats struct {
	Ready     int           // warm workers waiting for a session
	Starting  int           // workers being started
	Sessions  int           // open sessions
	Started   int64         // workers that became ready since the pool was made
	Failed    int64         // worker starts that failed
	LastStart time.Duration // start-to-ready time of the latest worker
	Limits    string        // the resource-limit backend in effect
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
		ready:    make(chan *worker, cfg.Warm),
		wake:     make(chan struct{}, 1),
		sessions: map[string]*Session{},
		readyErr: errIsolation(errors.New("sandbox: self-test has not run yet")),
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	a, err := newAssets(cfg)
	if err != nil {
		return nil, err
	}
	p.assets = a
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
		"seccomp", p.assets.seccomp != "", "warm", p.cfg.Warm, "max_sessions", p.cfg.MaxSessions)
}

// Session claims a warm worker as a new session's kernel, waiting for one to
// finish starting if none is ready. It returns ErrBusy when MaxSessions
// sessions are open, and ErrIsolationUnavailable when the self-test failed.
func (p *Pool) Session(ctx context.Context) (*Session, error) {
	if err := p.reserve(); err != nil {
		return nil, err
	}
	defer p.unreserve()
	for {
		p.nudge()
		var w *worker
		var ok bool
		select {
		case w, ok = <-p.ready:
			if !ok {
				return nil, ErrClosed
			}
		case <-ctx.Done():
			return nil, fmt.Errorf("sandbox: waiting for a warm worker: %w", ctx.Err())
		case <-p.ctx.Done():
			return nil, ErrClosed
		}
		if !w.alive() {
			w.release(p) // died while warm; take the next one
			continue
		}
		s := newSession(p, w)
		if err := p.add(s); err != nil {
			s.end(err)
			return nil, err
		}
		if p.cfg.Isolation == IsolationNone {
			p.log.Warn("sandbox: ISOLATION IS OFF for this session: user code runs unsandboxed", "session", s.id)
		}
		return s, nil
	}
}

func (p *Pool) reserve() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.closed:
		return ErrClosed
	case p.readyErr != nil:
		return p.readyErr
	case len(p.sessions)+p.claiming >= p.cfg.MaxSessions:
		return ErrBusy
	}
	p.claiming++
	return nil
}

func (p *Pool) unreserve() {
	p.mu.Lock()
	p.claiming--
	p.mu.Unlock()
}

func (p *Pool) add(s *Session) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return ErrClosed
	}
	p.sessions[s.id] = s
	return nil
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
	st.Ready, st.Starting, st.Sessions = len(p.ready), p.starting, len(p.sessions)
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
	p.wg.Wait()
	close(p.ready)
	for w := range p.ready {
		w.kill()
		w.release(p)
	}
	err := p.lim.close()
	p.assets.remove()
	if err != nil {
		return fmt.Errorf("sandbox: close: %w", err)
	}
	return nil
}

// errIsolation wraps a self-test failure.
func errIsolation(err error) error {
	if errors.Is(err, ErrIsolationUnavailable) {
		return err
	}
	return fmt.Errorf("%w: %v", ErrIsolationUnavailable, err)
}
