package sandbox

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// gateScript holds the sandbox back until the launcher has applied rlimits
// and moved it into its cgroup: only then does it exec bwrap (or Python), so
// no sandboxed process ever runs outside its limits. cgroup v1 has no
// CLONE_INTO_CGROUP, and Go's SysProcAttr has no rlimits, hence the gate.
const gateScript = `read -r g <&3 && [ "$g" = go ] && exec 3<&- "$@"`

// dropPrivileges is the argv prefix that switches a root launcher's sandbox
// to a host uid of its own before bwrap runs. The switch happens after the
// gate, because changing uid first would leave the launcher (which lacks
// CAP_SYS_RESOURCE in containers) unable to prlimit the process. Changing
// credentials clears the parent-death signal, so setpriv sets it again.
func dropPrivileges(uid uint32) []string {
	id := strconv.FormatUint(uint64(uid), 10)
	return []string{"/usr/bin/setpriv", "--reuid", id, "--regid", id, "--clear-groups", "--pdeathsig", "SIGKILL", "--"}
}

// worker is one sandboxed Python process and its plumbing.
type worker struct {
	id      string
	cmd     *exec.Cmd
	conn    *conn
	in, out *os.File // the Go ends of the protocol pipes
	status  *os.File // bwrap's --json-status-fd, read for the sandbox's pid
	group   group
	uid     uint32 // host uid, 0 when none was allocated
	dataDir string // host directory for isolation "none"
	stderr  *tailBuffer
	probe   bool // run worker.py --probe (the self-test) instead of the kernel

	pidfd    int          // of the Python process, for SIGINT; -1 when unknown
	pyPid    int          // host pid of the Python process, 0 when unknown
	initPid  atomic.Int64 // host pid of the sandbox's pid-namespace init, 0 when unknown
	exited   chan struct{}
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

// startWorker launches a worker and waits until it has imported the data
// stack and reported ready.
func (p *Pool) startWorker(ctx context.Context) (*worker, error) {
	w := &worker{id: newID(), pidfd: -1, exited: make(chan struct{}), stderr: &tailBuffer{max: 8 << 10}}
	g, err := p.lim.newGroup(w.id)
	if err != nil {
		return nil, err
	}
	w.group = g
	if err := w.launch(p); err != nil {
		w.release(p)
		return nil, err
	}
	if err := w.awaitReady(ctx, p.cfg.StartTimeout, p.cfg.Isolation == IsolationBwrap); err != nil {
		w.kill()
		w.release(p)
		return nil, err
	}
	return w, nil
}

// command returns the argv after the gate, the environment and the working
// directory for the configured isolation.
func (w *worker) command(p *Pool) ([]string, []string, string, error) {
	if p.cfg.Isolation == IsolationBwrap {
		args := bwrapArgs(p.cfg, p.assets)
		if w.probe {
			args = append(args, "--probe")
		}
		// bwrap and its init stay outside --clearenv: give them nothing
		// worth reading in /proc/1/environ either.
		return args, []string{"PATH=/usr/bin:/bin"}, "/", nil
	}
	base, err := os.MkdirTemp("", "workbench-nosandbox-")
	if err != nil {
		return nil, nil, "", fmt.Errorf("sandbox: %w", err)
	}
	w.dataDir = base
	data, mpl := base+"/data", base+"/mpl"
	for _, d := range []string{data, mpl} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return nil, nil, "", fmt.Errorf("sandbox: %w", err)
		}
	}
	if p.assets.fontlist != "" {
		if b, err := os.ReadFile(p.assets.path("mpl/" + p.assets.fontlist)); err == nil {
			_ = os.WriteFile(mpl+"/"+p.assets.fontlist, b, 0o600)
		}
	}
	args := []string{p.cfg.Python, "-I", p.assets.path("worker.py"), data}
	if w.probe {
		args = append(args, "--probe")
	}
	return args, sandboxEnv(data, mpl), data, nil
}

func (w *worker) launch(p *Pool) error {
	args, env, dir, err := w.command(p)
	if err != nil {
		return err
	}
	f, err := newPipes()
	if err != nil {
		return err
	}
	defer f.closeChildEnds()
	if err := f.openSeccomp(p.assets.seccomp); err != nil {
		f.closeAll()
		return err
	}
	if p.cfg.Isolation == IsolationBwrap && os.Geteuid() == 0 {
		w.uid = allocUID()
		args = append(dropPrivileges(w.uid), args...)
	}
	cmd := exec.Command("/bin/sh", append([]string{"-c", gateScript, "sandbox-gate"}, args...)...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f.inR, f.outW, f.errW
	cmd.ExtraFiles = []*os.File{f.gateR, f.seccomp, f.statusW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	w.cmd, w.in, w.out, w.status = cmd, f.inW, f.outR, f.statusR
	w.conn = newConn(f.outR, f.inW)
	go func() {
		_, _ = io.Copy(w.stderr, f.errR)
		f.errR.Close()
	}()
	w.started = time.Now()
	if err := w.startLocked(); err != nil {
		f.closeAll()
		return fmt.Errorf("sandbox: start worker: %w", err)
	}
	return w.openGate(p, f.gateW)
}

// startLocked starts the process from a goroutine that stays on one OS
// thread until the process exits: Pdeathsig (and bwrap's --die-with-parent)
// fire when the parent *thread* exits, so a thread the Go runtime retires
// would otherwise kill a healthy sandbox.
func (w *worker) startLocked() error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := w.cmd.Start(); err != nil {
			started <- err
			close(w.exited)
			return
		}
		started <- nil
		w.waitErr = w.cmd.Wait()
		close(w.exited)
	}()
	return <-started
}

// openGate applies the limits to the waiting gate process, then lets it exec.
func (w *worker) openGate(p *Pool, gate *os.File) error {
	defer gate.Close()
	pid := w.cmd.Process.Pid
	if err := applyRlimits(pid, rlimits(p.cfg, w.uid != 0)); err != nil {
		w.kill()
		return err
	}
	if err := w.group.attach(pid); err != nil {
		w.kill()
		return err
	}
	if _, err := gate.Write([]byte("go\n")); err != nil {
		w.kill()
		return fmt.Errorf("sandbox: open gate: %w", err)
	}
	return nil
}

// awaitReady reads the worker's first frame; a worker that is not ready in
// time is killed, which unblocks the read.
func (w *worker) awaitReady(ctx context.Context, timeout time.Duration, bwrap bool) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(ctx, w.kill)
	defer stop()
	if bwrap {
		w.readInitPid()
	}
	var msg wireReply
	if err := w.conn.recv(&msg); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("sandbox: worker not ready: %w", ctx.Err())
		}
		return fmt.Errorf("sandbox: worker failed to start: %v: %s", err, w.stderr.String())
	}
	if msg.Op != "ready" {
		return fmt.Errorf("sandbox: worker failed to start: %s", msg.errorText())
	}
	w.readyAt = time.Now()
	pid := w.cmd.Process.Pid
	if bwrap {
		pid = childOf(int(w.initPid.Load())) // Python is the init's only child
	}
	if pid > 0 {
		w.pyPid = pid
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

// interrupt sends SIGINT to the Python process: the worker turns it into
// KeyboardInterrupt while user code runs and ignores it otherwise.
func (w *worker) interrupt() error {
	if w.pidfd < 0 {
		return errors.New("sandbox: interrupt: worker pid unknown")
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
	select {
	case <-w.exited:
	case <-time.After(10 * time.Second):
		p.cfg.Logger.Warn("sandbox: worker did not exit after kill", "worker", w.id)
	}
	for _, f := range []*os.File{w.in, w.out, w.status} {
		if f != nil {
			f.Close()
		}
	}
	if w.pidfd >= 0 {
		unix.Close(w.pidfd)
		w.pidfd = -1
	}
	if w.group != nil {
		if err := w.group.destroy(); err != nil {
			p.cfg.Logger.Warn("sandbox: remove worker cgroup", "worker", w.id, "err", err)
		}
	}
	if w.uid != 0 {
		freeUID(w.uid)
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
