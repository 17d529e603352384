package sandbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Kernels fork from a template (forkserver.py) instead of each starting
// Python and importing the data stack: a fork is ready in milliseconds, and
// the imported modules (about 100 MiB) are shared copy-on-write, so a warm
// kernel costs only the pages it has written since (issue 28: ≥ 20 kernels
// per GiB). The boundary stays per kernel: each fork makes its own user,
// mount, pid, network, IPC and UTS namespaces, mounts its own /proc,
// /mnt/data, /tmp and /dev/shm, and loads the seccomp filter with no
// capabilities left before the kernel runs (forkserver.py says how). The
// template runs no user code; kernels cannot see it (it is in the parent pid
// namespace) nor reach it (its control socket is closed in every fork).
//
// What forks share, and why each is safe (issue 35; sandbox/apart_test.go
// attacks every one):
//   - the template's root and /dev: read-only (bwrap remounts them so before
//     the template starts), as is its view of /usr; a kernel writes only to
//     the tmpfs mounts it made itself, which its init checks before Go lets
//     it run (forkserver.py's check_own_mounts);
//   - the template's host uid: RLIMIT_NPROC is set per kernel in its own user
//     namespace (Linux 5.14 or later), as are caps on inotify instances and
//     watches (kernelInotify); pipe buffers stay counted per uid, so many
//     pipes in one kernel can shrink another's new pipes to 8 KiB;
//   - the template's memory layout, stack canary and hash() seed (fixed for
//     a running interpreter): kernels take no input from one another, so
//     nothing can steer one kernel with what another knows. The
//     multiprocessing key and numpy's random state are drawn anew;
//   - its lifetime: the kernels' pid namespaces nest in the template's, so
//     if the template dies they die too, and their sessions are reset as
//     after any kernel crash. A template whose forks keep failing is retired
//     instead (heal.go) and ends with its last kernel.
//
// Where forking cannot work (an older kernel, nested user namespaces
// refused, Config.NoFork) each kernel starts in a bubblewrap of its own, as
// the template does.

// forkServer is the pool's template process.
type forkServer struct {
	mu      sync.Mutex // one start or fork at a time; guards the fields below but size and off
	w       *worker    // the template, nil before the first fork and after it died or was retired
	size    atomic.Int64
	off     atomic.Bool // the template could not start: kernels start one by one
	lineage             // what heal.go keeps: kernels per template, failures, retired templates
}

// forking reports whether new kernels fork from the template.
func (p *Pool) forking() bool {
	return p.cfg.Isolation == IsolationBwrap && !p.cfg.NoFork && namespacedNPROC() && !p.fork.off.Load()
}

// templateLocked returns the running template, starting it when there is
// none or the last one died. The caller holds p.fork.mu.
func (p *Pool) templateLocked() (*worker, error) {
	fs := &p.fork
	if fs.w != nil && fs.w.alive() {
		return fs.w, nil
	}
	if fs.w != nil {
		fs.w.kill()
		fs.w.release(p)
		fs.w = nil
		fs.size.Store(0)
	}
	w, err := p.newWorker(false)
	if err != nil {
		return nil, err
	}
	w.template = true
	if err := w.launch(p); err != nil {
		w.release(p)
		return nil, err
	}
	// The template imports more than a kernel does (the modelling libraries
	// too), and does it once: give it twice a kernel's start time, bound to
	// the pool rather than to the claim that happened to ask first.
	if err := w.awaitReady(p.ctx, 2*p.cfg.StartTimeout, true); err != nil {
		w.kill()
		w.release(p)
		return nil, fmt.Errorf("sandbox: template: %w", err)
	}
	fs.w = w
	fs.size.Store(p.cfg.templateMemoryOf(w.pyPid)) // all of its heap, shared with the kernels or not
	p.log.Info("sandbox: kernel template ready", "took", w.readyAt.Sub(w.started).Round(time.Millisecond),
		"MiB", fs.size.Load()>>20)
	return w, nil
}

// templateSize is the memory the template holds, charged to the budget once,
// and that of retired templates whose kernels still run.
func (p *Pool) templateSize() int64 { return p.fork.size.Load() + p.fork.retiredB.Load() }

// closeTemplate ends the template and any retired one; the pool is closing.
func (p *Pool) closeTemplate() {
	p.fork.mu.Lock()
	ends := p.fork.retiredLocked()
	if w := p.fork.w; w != nil {
		ends = append(ends, w)
		p.fork.w = nil
	}
	p.fork.mu.Unlock()
	for _, w := range ends {
		w.kill()
		w.release(p)
	}
}

// forkRequest is what forkserver.py reads for one fork.
type forkRequest struct {
	Data    int64 `json:"data"`    // bytes of /mnt/data
	Tmp     int64 `json:"tmp"`     // bytes of /tmp
	Shm     int64 `json:"shm"`     // bytes of /dev/shm
	NProc   int   `json:"nproc"`   // RLIMIT_NPROC of the kernel's user namespace
	Inotify int   `json:"inotify"` // inotify instances of the kernel's user namespace
	Watches int   `json:"watches"` // inotify watches of the kernel's user namespace
	Probe   bool  `json:"probe"`   // run the self-test's probe instead of the kernel
	// Fault, in tests, fails this fork on purpose: "unshare" before the
	// first child makes its namespaces, "mounts" by putting something else
	// than a fresh tmpfs on /mnt/data before its init checks its mounts.
	Fault string `json:"fault,omitempty"`
}

// Per-kernel caps on what Linux counts per user. Every fork runs as its
// template's host uid, and the counts of all the user namespaces under the
// template meet at that uid, where the host's limit (128 inotify instances
// by default) is one pool for them all; a cap in each kernel's own user
// namespace keeps one kernel from draining it. Data work uses none.
const (
	kernelInotify = 8
	kernelWatches = 8192
)

// forkWorker makes a kernel (or, with probe, the self-test's probe) from the
// template; it is ready to serve when this returns without error for a kernel.
// A fork that fails because the template died meanwhile is tried once more,
// from a new template; failures in a row retire the template (heal.go).
func (p *Pool) forkWorker(ctx context.Context, probe bool) (*worker, error) {
	for attempt := 0; ; attempt++ {
		w, err := p.newWorker(probe)
		if err != nil {
			return nil, err
		}
		w.forked = true
		w.started = time.Now()
		t, err := p.forkInto(ctx, w)
		if err == nil {
			p.forkedFrom(t, w)
			return w, nil
		}
		w.kill()
		w.release(p)
		if ctx.Err() == nil { // the caller gave up: no word on the template
			p.forkFailed(t, err)
		}
		if attempt > 0 || !p.templateDied() {
			return nil, err
		}
	}
}

// templateDied reports whether the last template started has ended.
func (p *Pool) templateDied() bool {
	p.fork.mu.Lock()
	defer p.fork.mu.Unlock()
	return p.fork.w != nil && !p.fork.w.alive()
}

// forkInto asks the template for a fork, puts it in w's resource group and
// lets it run. It returns the template asked, nil when none could start.
func (p *Pool) forkInto(ctx context.Context, w *worker) (*worker, error) {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.StartTimeout)
	defer cancel()
	f, err := p.workerPipes()
	if err != nil {
		return nil, err
	}
	defer f.closeChildEnds()
	reply, child, err := seqpacketPair()
	if err != nil {
		f.closeAll()
		return nil, err
	}
	defer child.Close()
	defer reply.Close()
	if err := unix.SetsockoptInt(int(reply.Fd()), unix.SOL_SOCKET, unix.SO_PASSCRED, 1); err != nil {
		f.closeAll()
		return nil, fmt.Errorf("sandbox: fork: %w", err)
	}
	closeFiles(f.gateW, f.statusR) // a fork has no gate and no bwrap status
	f.gateW, f.statusR = nil, nil
	w.takeEnds(f)
	req, _ := json.Marshal(forkRequest{Data: p.cfg.DataBytes, Tmp: p.cfg.TmpBytes, Shm: shmBytes,
		NProc: int(sandboxTasks(p.cfg)), Inotify: kernelInotify, Watches: kernelWatches,
		Probe: w.probe, Fault: p.fork.takeFault()})
	t, pid, err := p.requestFork(ctx, req, []*os.File{f.inR, f.outW, f.errW, f.intrR, f.seccomp, child}, reply)
	if err != nil {
		return t, err
	}
	if err := w.watchInit(pid); err != nil {
		return t, err
	}
	if err := w.group.attach(pid); err != nil {
		return t, err
	}
	if _, err := reply.Write([]byte("go")); err != nil {
		return t, fmt.Errorf("sandbox: fork: %w", err)
	}
	if w.probe {
		return t, nil
	}
	return t, w.awaitReady(ctx, p.cfg.StartTimeout, true)
}

// requestFork sends one request to the template and waits for the fork's
// init to report; the kernel gives its pid in the host's numbering.
func (p *Pool) requestFork(ctx context.Context, req []byte, fds []*os.File, reply *os.File) (*worker, int, error) {
	p.fork.mu.Lock()
	t, err := p.templateLocked()
	if err == nil {
		rights := make([]int, len(fds))
		for i, f := range fds {
			rights[i] = int(f.Fd())
		}
		err = unix.Sendmsg(int(t.ctl.Fd()), req, unix.UnixRights(rights...), nil, 0)
		if err != nil {
			t.kill() // a template that cannot be written to is started again
			err = fmt.Errorf("sandbox: fork: %w", err)
		}
	}
	p.fork.mu.Unlock()
	if err != nil {
		return t, 0, err
	}
	for _, f := range fds {
		f.Close() // the fork holds them now; its init's end of reply must be the only one
	}
	pid, err := readSpawned(ctx, reply)
	return t, pid, err
}

// readSpawned reads the fork init's report: its credentials, which the
// kernel translated into our pid namespace, or why it failed. EOF means the
// fork died before it could say.
func readSpawned(ctx context.Context, reply *os.File) (int, error) {
	deadline, _ := ctx.Deadline()
	timeout := max(int(time.Until(deadline)/time.Millisecond), 1)
	fds := []unix.PollFd{{Fd: int32(reply.Fd()), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, timeout)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("sandbox: fork: %w", err)
		}
		if n == 0 {
			return 0, fmt.Errorf("sandbox: fork: no answer from the template: %w", context.DeadlineExceeded)
		}
		break
	}
	buf, oob := make([]byte, 4096), make([]byte, unix.CmsgSpace(unix.SizeofUcred))
	n, oobn, _, _, err := unix.Recvmsg(int(reply.Fd()), buf, oob, 0)
	if err != nil {
		return 0, fmt.Errorf("sandbox: fork: %w", err)
	}
	if n == 0 {
		return 0, errors.New("sandbox: fork: the fork ended before it reported")
	}
	var msg struct {
		Op, Error string
	}
	if err := json.Unmarshal(buf[:n], &msg); err != nil || msg.Op != "spawned" {
		return 0, fmt.Errorf("sandbox: fork failed: %s", cmp.Or(msg.Error, string(buf[:n])))
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return 0, fmt.Errorf("sandbox: fork: no credentials in the report (%v)", err)
	}
	cred, err := unix.ParseUnixCredentials(&msgs[0])
	if err != nil || cred.Pid <= 0 {
		return 0, fmt.Errorf("sandbox: fork: bad credentials in the report (%v)", err)
	}
	return int(cred.Pid), nil
}

// watchInit records the fork's init as the worker's sandbox init and closes
// w.exited when it ends: it is not our child, so its pidfd tells.
func (w *worker) watchInit(pid int) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return fmt.Errorf("sandbox: fork: %w", err)
	}
	w.initPid.Store(int64(pid))
	go func() {
		defer close(w.exited)
		defer unix.Close(fd)
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		for {
			if _, err := unix.Poll(fds, -1); !errors.Is(err, unix.EINTR) {
				return
			}
		}
	}()
	return nil
}

// seqpacketPair returns the two ends of a local SOCK_SEQPACKET socket:
// message boundaries keep each request and report whole.
func seqpacketPair() (*os.File, *os.File, error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox: socketpair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "sandbox-socket"), os.NewFile(uintptr(fds[1]), "sandbox-socket"), nil
}
