package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// probeFacts is what worker.py --probe reports from inside a sandbox.
type probeFacts struct {
	OK           bool     `json:"ok"`
	UID          int      `json:"uid"`
	Env          []string `json:"env"`
	CapEff       string   `json:"CapEff"`
	NoNewPrivs   string   `json:"NoNewPrivs"`
	Seccomp      string   `json:"Seccomp"`
	Pids         []int    `json:"pids"`
	HostPaths    []string `json:"host_paths"`
	TCP          string   `json:"tcp"`
	UnshareUser  bool     `json:"unshare_user"`
	DataWritable bool     `json:"data_writable"`
	NProc        int64    `json:"nproc"` // RLIMIT_NPROC; -1 for none
	Stack        string   `json:"stack"` // what failed importing the data stack or drawing CJK text
}

// SelfTest starts a throwaway sandbox with the pool's full recipe (limits
// included) and checks from inside that isolation holds: unprivileged uid,
// no capabilities, no_new_privs, seccomp, a private pid namespace, no host
// paths (nor /usr's tools and documentation), no network, no nested user
// namespaces, a clean environment, a task limit; and that the narrowed /usr
// still has all the kernel needs: pandas, matplotlib, seaborn, scipy and
// openpyxl import and a chart renders Chinese, Japanese and Korean text. It
// records the result for Ready and returns it; with isolation "none" it only
// checks that Python starts. It costs about a worker start (a second or
// so): /readyz should call Ready, and a caller that wants a fresh proof can
// run SelfTest now and then.
func (p *Pool) SelfTest(ctx context.Context) error {
	facts, err := p.probe(ctx)
	if err == nil && p.cfg.Isolation == IsolationBwrap {
		err = p.checkFacts(facts)
	}
	if err != nil {
		err = errIsolation(err)
	}
	p.mu.Lock()
	if !p.closed {
		p.readyErr = err
	}
	p.mu.Unlock()
	p.nudge() // a pass may let the refill loop start workers
	return err
}

func (p *Pool) probe(ctx context.Context) (*probeFacts, error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.SelfTestTimeout)
	defer cancel()
	w, err := p.probeWorker(ctx)
	if err != nil {
		return nil, err
	}
	defer w.release(p)
	defer w.kill()
	stop := context.AfterFunc(ctx, w.kill)
	defer stop()
	out, err := io.ReadAll(io.LimitReader(w.out, 1<<20))
	if err != nil || ctx.Err() != nil {
		return nil, fmt.Errorf("sandbox: self-test: %v %v", err, ctx.Err())
	}
	var facts probeFacts
	if err := json.Unmarshal(out, &facts); err != nil || !facts.OK {
		return nil, fmt.Errorf("sandbox: self-test: sandbox did not run python: %s %s", out, w.stderr.String())
	}
	return &facts, nil
}

// probeWorker starts the probe as kernels will start: forked from the
// template where the host allows it. A template or fork that fails to start
// turns forking off, with a warning, and the probe starts in a sandbox of
// its own; a fork that starts but fails the checks fails the self-test.
func (p *Pool) probeWorker(ctx context.Context) (*worker, error) {
	if p.forking() {
		w, err := p.forkWorker(ctx, true)
		if err == nil {
			return w, nil
		}
		p.fork.off.Store(true)
		p.closeTemplate()
		p.log.Warn("sandbox: kernels cannot fork from a template on this host; each starts in a sandbox of its own, slower and with about five times the memory", "err", err)
	}
	w, err := p.newWorker(true)
	if err != nil {
		return nil, err
	}
	if err := w.launch(p); err != nil {
		w.release(p)
		return nil, err
	}
	return w, nil
}

// allowedEnv is every variable a sandbox may see: sandboxEnv, plus PWD,
// which bwrap sets for --chdir.
var allowedEnv = func() []string {
	names := []string{"PWD"}
	for _, kv := range sandboxEnv("", "") {
		names = append(names, strings.SplitN(kv, "=", 2)[0])
	}
	return names
}()

func (p *Pool) checkFacts(f *probeFacts) error {
	var errs []error
	check := func(ok bool, format string, args ...any) {
		if !ok {
			errs = append(errs, fmt.Errorf(format, args...))
		}
	}
	check(f.UID == 65534, "runs as uid %d, want 65534", f.UID)
	check(strings.Trim(f.CapEff, "0") == "", "has capabilities %s", f.CapEff)
	check(f.NoNewPrivs == "1", "no_new_privs is %q", f.NoNewPrivs)
	check(p.assets.seccomp == "" || f.Seccomp == "2", "seccomp mode is %q, want filter (2)", f.Seccomp)
	check(len(f.Pids) <= 3, "sees %d processes; pid namespace not private", len(f.Pids))
	check(len(f.HostPaths) == 0, "sees host paths %v", f.HostPaths)
	check(f.TCP != "connected", "reached 1.1.1.1:53 over the network")
	check(!f.UnshareUser, "could create a nested user namespace")
	check(f.DataWritable, "cannot write %s", dataDir)
	check(f.NProc > 0 && uint64(f.NProc) <= max(sharedUIDTasks(p.cfg), uint64(p.cfg.Processes)),
		"RLIMIT_NPROC is %d, want at most %d", f.NProc, sharedUIDTasks(p.cfg))
	check(f.Stack == "", "the data stack does not work in the sandbox: %s", f.Stack)
	for _, name := range f.Env {
		check(slices.Contains(allowedEnv, name), "environment leaks %s", name)
	}
	if len(errs) > 0 {
		return fmt.Errorf("sandbox: self-test: %w", errors.Join(errs...))
	}
	return nil
}
