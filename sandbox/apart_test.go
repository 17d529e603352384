package sandbox

import (
	"encoding/json"
	"strings"
	"testing"
)

// The attacks of issue 35: two conversations' kernels at once, kernel a
// trying every place it can see to reach kernel b (started after a has
// acted, as the next user's would be). Each runs against kernels forked from
// the template and against kernels started one by one (NoFork).

// ownPlaces are the only directories a kernel may write: its own tmpfs
// mounts. Everything else in its view must refuse a write.
var ownPlaces = []string{"/mnt/data", "/tmp", "/dev/shm"}

// apartModes runs f once for forked kernels and once for kernels that
// start in a bubblewrap of their own.
func apartModes(t *testing.T, f func(t *testing.T, p *Pool)) {
	t.Run("fork", func(t *testing.T) {
		p := sharedPool(t)
		if !p.forking() {
			t.Skip("kernels do not fork from a template here")
		}
		f(t, p)
	})
	t.Run("exec", func(t *testing.T) { f(t, execPool(t)) })
}

var execShared lazyPool

// execPool is a pool whose kernels each start in a sandbox of their own,
// shared by the tests of this file.
func execPool(t *testing.T) *Pool {
	return execShared.get(t, func() Config {
		cfg := sharedConfig()
		cfg.NoFork = true
		return cfg
	})
}

// namespacedSysctl reports whether a file of /proc/sys sets a value of the
// kernel's own IPC, pid or UTS namespace: writing one reaches no other
// kernel. (/proc/pressure takes writes too, but each opens a watch of the
// reader's own, and the walk skips it.)
func namespacedSysctl(path string) bool {
	name, ok := strings.CutPrefix(path, "/proc/sys/")
	if !ok {
		return false
	}
	for _, prefix := range []string{"fs/mqueue/", "kernel/msg", "kernel/sem", "kernel/shm", "kernel/auto_msgmni",
		"kernel/ns_last_pid", "kernel/pid_max", "kernel/hostname", "kernel/domainname"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// walkScript lists every directory of the kernel's view but /proc (its own
// pid namespace's, probed by procWritable), without following links.
const walkScript = `import json, os
def dirs():
    stack = ["/"]
    while stack:
        d = stack.pop()
        yield d
        try:
            with os.scandir(d) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False) and e.path != "/proc":
                        stack.append(e.path)
        except OSError:
            pass
def proc_writable():
    """The files of /proc outside the processes' own directories that take a
    write of what they hold (a write that changes nothing)."""
    out = []
    for d, subdirs, files in os.walk("/proc"):
        if d == "/proc":
            subdirs[:] = [s for s in subdirs if not s.isdigit() and s not in ("self", "thread-self", "pressure")]
        for f in files:
            path = os.path.join(d, f)
            try:
                with open(path, "rb") as r:
                    now = r.read(4096)
                fd = os.open(path, os.O_WRONLY)
            except OSError:
                continue
            try:
                os.write(fd, now)
                out.append(path)
            except OSError:
                pass
            finally:
                os.close(fd)
    return out
def try_write(d, name):
    try:
        fd = os.open(os.path.join(d, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError:
        return False
    os.write(fd, b"from kernel a")
    os.close(fd)
    return True
`

// TestAttack_NothingWritableIsShared: kernel a tries to write into every
// directory it can see; only its own tmpfs mounts take a file, and kernel b
// finds none of a's files anywhere in its view.
func TestAttack_NothingWritableIsShared(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		a := openSession(t, p)
		r := runOK(t, a, walkScript+`seen, took = 0, []
for d in dirs():
    seen += 1
    if try_write(d, "wb-apart-mark"):
        took.append(d)
print(json.dumps({"seen": seen, "took": took, "proc": proc_writable()}))`)
		var got struct {
			Seen int
			Took []string
			Proc []string
		}
		if err := json.Unmarshal([]byte(r.Stdout), &got); err != nil {
			t.Fatalf("kernel a's walk: %v: %q", err, r.Stdout)
		}
		if got.Seen < 100 {
			t.Fatalf("kernel a saw only %d directories: the walk is broken", got.Seen)
		}
		for _, d := range got.Took {
			if !under(d, ownPlaces) {
				t.Errorf("kernel a wrote a file into %s, outside its own mounts", d)
			}
		}
		for _, f := range got.Proc {
			if !namespacedSysctl(f) {
				t.Errorf("kernel a can write to %s", f)
			}
		}
		b := openSession(t, p)
		r = runOK(t, b, walkScript+`print(json.dumps([os.path.join(d, f) for d in dirs() for f in (os.listdir(d) if os.access(d, os.R_OK) else []) if f == "wb-apart-mark"]))`)
		if strings.TrimSpace(r.Stdout) != "[]" {
			t.Fatalf("kernel b finds kernel a's files: %s", r.Stdout)
		}
		t.Logf("kernel a saw %d directories and could write in %d, all its own, and to %d settings of its own namespaces in /proc/sys", got.Seen, len(got.Took), len(got.Proc))
	})
}

// errnoScript names the errno of a call, or "ok".
const errnoScript = `import errno, os, socket
def err(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))
`

// TestAttack_ModulePlant: nothing on a kernel's sys.path (nor /opt, where
// the engine's own modules are) takes a planted module, so b's import
// statistics is the standard library's.
func TestAttack_ModulePlant(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		a := openSession(t, p)
		r := runOK(t, a, errnoScript+`import sys
def plant(d):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "statistics.py"), "w") as f:
        f.write("import os\nSTOLEN = os.listdir('/mnt/data')\n")
places = sorted({p or os.getcwd() for p in sys.path} | {"/opt", "/usr/local/lib/python3/dist-packages"})
print("\n".join("%s %s" % (d, err(lambda: plant(d))) for d in places))`)
		for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
			dir, res, _ := strings.Cut(line, " ")
			if res == "ok" && !under(dir, ownPlaces) {
				t.Errorf("kernel a planted a module in %s, on every kernel's sys.path", dir)
			}
		}
		b := openSession(t, p)
		r = runOK(t, b, `import statistics
print(statistics.__file__, hasattr(statistics, "STOLEN"))`)
		if got := strings.TrimSpace(r.Stdout); !strings.HasPrefix(got, "/usr/lib/python3") || !strings.HasSuffix(got, " False") {
			t.Fatalf("kernel b imports %s", got)
		}
	})
}

// TestAttack_DataDirRedirect: a kernel cannot rename /mnt or /mnt/data, nor
// put a link in their place, so another kernel's writes to /mnt/data stay
// its own; and forks keep starting after the attempt.
func TestAttack_DataDirRedirect(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		a := openSession(t, p)
		r := runOK(t, a, errnoScript+`os.makedirs("/tmp/loot", exist_ok=True)
print(err(lambda: os.rename("/mnt", "/mnt-a")), err(lambda: os.rename("/mnt/data", "/tmp/data-a")),
      err(lambda: os.symlink("/tmp/loot", "/mnt/data2")), err(lambda: os.rmdir("/mnt/data")))`)
		for _, res := range strings.Fields(r.Stdout) {
			if res == "ok" {
				t.Fatalf("kernel a moved /mnt or /mnt/data: %s", r.Stdout)
			}
		}
		b := openSession(t, p)
		runOK(t, b, `open("/mnt/data/customers.csv", "w").write("name,card\nb,4111\n")`)
		r = runOK(t, a, `import os
print([os.path.join(d, f) for d, _, fs in os.walk("/") if not d.startswith("/proc") for f in fs if f == "customers.csv"])`)
		if strings.TrimSpace(r.Stdout) != "[]" {
			t.Fatalf("kernel a reads b's upload: %s", r.Stdout)
		}
		assertNewSession(t, p)
	})
}

// TestAttack_SharedFilesystemsHoldNothing: a kernel can neither leave memory
// in a filesystem that outlives it (/, /dev) nor bind a unix socket where
// another kernel could connect.
func TestAttack_SharedFilesystemsHoldNothing(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		a := openSession(t, p)
		r := runOK(t, a, errnoScript+`def fill(path):
    with open(path, "wb") as f:
        f.write(b"x" * (1 << 20))
def bind(path):
    s = socket.socket(socket.AF_UNIX)
    s.bind(path)
print(" ".join(err(lambda: fill(p)) for p in ("/wb-fill", "/dev/wb-fill", "/etc/wb-fill", "/mnt/wb-fill")),
      " ".join(err(lambda: bind(p)) for p in ("/wb.sock", "/dev/wb.sock", "/opt/wb.sock", "/mnt/wb.sock")))`)
		for _, res := range strings.Fields(r.Stdout) {
			if res == "ok" {
				t.Fatalf("kernel a wrote into a shared filesystem (fill /, /dev, /etc, /mnt; bind the same): %s", r.Stdout)
			}
		}
	})
}

// TestAttack_PerUserCounters: counters the kernel keeps per user (inotify
// instances) are not a pool one kernel can drain for the others.
func TestAttack_PerUserCounters(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		a := openSession(t, p)
		runOK(t, a, `import ctypes
libc = ctypes.CDLL(None, use_errno=True)
held = []
while len(held) < 4096:
    fd = libc.inotify_init1(0)
    if fd < 0:
        break
    held.append(fd)
print(len(held))`)
		b := openSession(t, p)
		r := runOK(t, b, `import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
fd = libc.inotify_init1(0)
print(fd >= 0, os.strerror(ctypes.get_errno()) if fd < 0 else "")`)
		if !strings.HasPrefix(strings.TrimSpace(r.Stdout), "True") {
			t.Fatalf("kernel a's inotify instances starve kernel b: %s", r.Stdout)
		}
	})
}

// TestAttack_ForkSecretsAreFresh: what a kernel could use against another
// that Python keeps per process is drawn anew in each kernel.
func TestAttack_ForkSecretsAreFresh(t *testing.T) {
	apartModes(t, func(t *testing.T, p *Pool) {
		key := func() string {
			s := openSession(t, p)
			r := runOK(t, s, "import multiprocessing\nprint(bytes(multiprocessing.current_process().authkey).hex())")
			return strings.TrimSpace(r.Stdout)
		}
		if a, b := key(), key(); a == b {
			t.Fatalf("two kernels share the multiprocessing authkey %s", a)
		}
	})
}
