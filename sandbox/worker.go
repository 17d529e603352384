package sandbox

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// worker is one sandboxed Python process and its plumbing.
type worker struct {
	id      string
	cmd     *exec.Cmd
	conn    *conn
	in, out *os.File // the Go ends of the protocol pipes
	status  *os.File // bwrap's --json-status-fd, read for the sandbox's pid
	intr    *os.File // interrupt markers to worker.py
	group   group
	uid     uint32 // host uid, 0 when none was allocated
	dataDir string // host directory for isolation "none"
	stderr  *tailBuffer
	probe   bool // run worker.py --probe (the self-test) instead of the kernel

	template bool     // the process kernels fork from (fork.go), not a kernel
	ctl      *os.File // the template's control socket
	forked   bool     // a fork of the template: no cmd; initPid is watched through a pidfd
	from     *worker  // the template a fork came from (heal.go), set once it is a kernel

	sigMu    sync.Mutex   // guards pidfd: a closed fd number may be reused by another worker's pidfd
	pidfd    int          // of the Python process, for SIGINT; -1 when unknown or released
	pyPid    int          // host pid of the Python process, 0 when unknown
	statFile *os.File     // its /proc/<pid>/stat, for its page faults (gauge.go); nil when unknown
	gauge    memGauge     // its latest full memory reading; its session's mu guards it
	initPid  atomic.Int64 // host pid of the sandbox's pid-namespace init, 0 when unknown
	exited   chan struct{}
	retired  atomic.Bool // an eviction ended the worker on purpose, its state saved
	waitErr  error
	killOnce sync.Once
	started  time.Time
	readyAt  time.Time
}

// newID returns an unguessable identifier.
func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "sbx_" + hex.EncodeToString(b[:])
}

// newWorker prepares a worker and its resource group; launch starts it.
func (p *Pool) newWorker(probe bool) (*worker, error) {
	w := &worker{id: newID(), pidfd: -1, exited: make(chan struct{}), stderr: &tailBuffer{max: 8 << 10}, probe: probe}
	g, err := p.lim.newGroup(w.id)
	if err != nil {
		return nil, err
	}
	w.group = g
	return w, nil
}

// startWorker launches a worker and waits until it has imported the data
// stack and reported ready.
func (p *Pool) startWorker(ctx context.Context) (*worker, error) {
	if p.forking() {
		return p.forkWorker(ctx, false) // its task limit is set as it forks
	}
	w, err := p.newWorker(false)
	if err != nil {
		return nil, err
	}
	if err := w.launch(p); err != nil {
		w.release(p)
		return nil, err
	}
	err = w.awaitReady(ctx, p.cfg.StartTimeout, p.cfg.Isolation == IsolationBwrap)
	if err == nil {
		err = confineTasks(w.pyPid, w.uid != 0, p.cfg)
	}
	if err != nil {
		w.kill()
		w.release(p)
		return nil, err
	}
	return w, nil
}

// awaitReady reads the worker's first frame; a worker that is not ready in
// time is killed, which unblocks the read.
func (w *worker) awaitReady(ctx context.Context, timeout time.Duration, bwrap bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(ctx, w.kill)
	defer stop()
	if bwrap && w.status != nil {
		w.readInitPid()
	}
	var msg wireReply
	if err := w.conn.recvWithin(&msg, smallBound); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("sandbox: worker not ready: %w", ctx.Err())
		}
		return fmt.Errorf("sandbox: worker failed to start: %v: %s", err, w.stderr.String())
	}
	if msg.Op != "ready" {
		return fmt.Errorf("sandbox: worker failed to start: %s", msg.errorText())
	}
	w.readyAt = time.Now()
	pid := 0
	if w.cmd != nil {
		pid = w.cmd.Process.Pid
	}
	if bwrap {
		pid = childOf(int(w.initPid.Load())) // Python is the init's only child
	}
	if pid > 0 {
		w.pyPid = pid
		w.statFile = openStat(pid)
		if fd, err := unix.PidfdOpen(pid, 0); err == nil {
			w.pidfd = fd
		}
	}
	return nil
}

// readInitPid reads the host pid of the sandbox's init from bwrap's status
// fd; bwrap writes it as soon as the namespaces exist.
func (w *worker) readInitPid() {
	var st struct {
		ChildPID int `json:"child-pid"`
	}
	line, err := bufio.NewReader(w.status).ReadBytes('\n')
	if err == nil && json.Unmarshal(line, &st) == nil {
		w.initPid.Store(int64(st.ChildPID))
	}
}

// interrupt raises KeyboardInterrupt in cell number cell, if that cell is
// still running when the worker sees the signal: the marker written first
// tells the worker which cell the signal is for.
func (w *worker) interrupt(cell uint64) error {
	w.sigMu.Lock()
	defer w.sigMu.Unlock()
	if w.pidfd < 0 {
		return errors.New("sandbox: interrupt: worker pid unknown")
	}
	var marker [8]byte
	binary.BigEndian.PutUint64(marker[:], cell)
	if _, err := w.intr.Write(marker[:]); err != nil {
		return fmt.Errorf("sandbox: interrupt: %w", err)
	}
	if err := unix.PidfdSendSignal(w.pidfd, unix.SIGINT, nil, 0); err != nil {
		return fmt.Errorf("sandbox: interrupt: %w", err)
	}
	return nil
}

// alive reports whether the worker process is still running.
func (w *worker) alive() bool {
	select {
	case <-w.exited:
		return false
	default:
		return true
	}
}

// kill ends the sandbox and everything in it. It is safe to call often and
// from any goroutine.
//
// With bwrap it SIGKILLs the pid namespace's init: the kernel then kills and
// reaps every process in the namespace, and the outer bwrap reaps the init
// and exits. Killing the outer bwrap first would orphan the init to the
// host's pid 1, which in containers may never reap it, leaving zombies that
// pin the cgroup. The group kill and the outer kill follow as a backstop.
func (w *worker) kill() {
	w.killOnce.Do(func() {
		if w.in != nil {
			w.in.Close()
		}
		if pid := int(w.initPid.Load()); pid > 0 && w.alive() { // alive: the pid is still the init's
			_ = syscall.Kill(pid, syscall.SIGKILL)
			select {
			case <-w.exited:
				return
			case <-time.After(2 * time.Second):
			}
		}
		if w.group != nil {
			w.group.kill()
		}
		if w.cmd != nil && w.cmd.Process != nil {
			_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		}
	})
}

// release waits for the process to be gone and frees what it held.
func (w *worker) release(p *Pool) {
	if w.cmd != nil && w.cmd.Process != nil || w.forked && w.initPid.Load() > 0 {
		select {
		case <-w.exited:
		case <-time.After(10 * time.Second):
			p.cfg.Logger.Warn("sandbox: worker did not exit after kill", "worker", w.id)
		}
	}
	for _, f := range []*os.File{w.in, w.out, w.status, w.intr, w.ctl, w.statFile} {
		if f != nil {
			f.Close()
		}
	}
	w.sigMu.Lock()
	if w.pidfd >= 0 {
		unix.Close(w.pidfd)
		w.pidfd = -1
	}
	w.sigMu.Unlock()
	if w.group != nil {
		if err := w.group.destroy(); err != nil {
			p.cfg.Logger.Warn("sandbox: remove worker cgroup", "worker", w.id, "err", err)
		}
	}
	if w.uid != 0 {
		freeUID(w.uid)
	}
	if w.forked {
		p.kernelEnded(w)
	}
	if w.dataDir != "" {
		_ = os.RemoveAll(w.dataDir)
	}
}

// exitReason describes how the worker ended, for a session-reset error.
func (w *worker) exitReason() string {
	if w.group != nil && w.group.oomKilled() {
		return "out of memory"
	}
	select {
	case <-w.exited:
		if w.waitErr != nil {
			return w.waitErr.Error()
		}
		return "the kernel exited"
	default:
		return "the connection to the kernel broke"
	}
}
