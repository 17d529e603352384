package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
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

// command returns the argv after the gate, the environment and the working
// directory for the configured isolation.
func (w *worker) command(p *Pool) ([]string, []string, string, error) {
	if p.cfg.Isolation == IsolationBwrap {
		args, err := bwrapArgs(p.cfg, p.assets, w.template)
		if err != nil {
			return nil, nil, "", err
		}
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
	args := []string{p.cfg.Python, "-I", p.assets.path("worker.py"), data, fdIntrArg}
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
	f, err := p.workerPipes()
	if err != nil {
		return err
	}
	defer f.closeChildEnds()
	if p.cfg.Isolation == IsolationBwrap && ownUIDs() {
		w.uid = allocUID()
		args = append(dropPrivileges(w.uid), args...)
	}
	cmd := exec.Command("/bin/sh", append([]string{"-c", gateScript, "sandbox-gate"}, args...)...)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = f.inR, f.outW, f.errW
	cmd.ExtraFiles = []*os.File{f.gateR, f.seccomp, f.statusW, f.intrR}
	if w.template { // fd 6 is its control socket instead (fork.go)
		ctl, child, err := seqpacketPair()
		if err != nil {
			f.closeAll()
			return err
		}
		defer child.Close()
		cmd.ExtraFiles[3], w.ctl = child, ctl
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	w.cmd, w.status = cmd, f.statusR
	w.takeEnds(f)
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

// workerPipes are the descriptors of one worker's start, the seccomp
// program included.
func (p *Pool) workerPipes() (*pipes, error) {
	f, err := newPipes()
	if err != nil {
		return nil, err
	}
	if err := f.openSeccomp(p.assets.seccomp); err != nil {
		f.closeAll()
		return nil, err
	}
	return f, nil
}

// takeEnds keeps the Go ends of the protocol and interrupt pipes, and reads
// the worker's start-up stderr into its tail buffer.
func (w *worker) takeEnds(f *pipes) {
	w.in, w.out, w.intr = f.inW, f.outR, f.intrW
	w.conn = newConn(f.outR, f.inW)
	go func() {
		_, _ = io.Copy(w.stderr, f.errR)
		f.errR.Close()
	}()
}

// openGate applies the limits to the waiting gate process, then lets it exec.
func (w *worker) openGate(p *Pool, gate *os.File) error {
	defer gate.Close()
	pid := w.cmd.Process.Pid
	limits := rlimits(p.cfg, w.uid != 0)
	if w.template {
		limits[unix.RLIMIT_NPROC] = templateTasks(p.cfg)
	}
	if err := applyRlimits(pid, limits); err != nil {
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
