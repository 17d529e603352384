package sandbox

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestAttack_ForkedKernelsAreApart: two kernels forked from one template
// share a host uid, so everything that keeps them apart is their own
// namespaces. Kernel a leaves traces everywhere a kernel can write or
// listen; kernel b, looking from its own namespaces, finds none of them,
// cannot signal a or the template, and cannot undo its own mounts.
func TestAttack_ForkedKernelsAreApart(t *testing.T) {
	p := sharedPool(t)
	a, b := openSession(t, p), openSession(t, p)
	if !a.w.forked || !b.w.forked {
		t.Skip("kernels do not fork from a template here")
	}
	runOK(t, a, `import os, socket
for d in ("/mnt/data", "/tmp", "/dev/shm"):
    with open(d + "/secret-a", "w") as f:
        f.write("A-SECRET")
listener = socket.socket(socket.AF_UNIX)
listener.bind("\0wb-secret-a")
listener.listen()
master, slave = os.openpty()
secret = "A-SECRET-IN-MEMORY"
print(os.ttyname(slave))`)
	hostA, template := a.w.pyPid, p.fork.w.pyPid
	r := runOK(t, b, fmt.Sprintf(`import ctypes, errno, os, socket, stat
found = [os.path.join(d, f) for root in ("/mnt/data", "/tmp", "/dev/shm") for d, _, fs in os.walk(root) for f in fs if "secret" in f]
pts = sorted(os.listdir("/dev/pts"))
pids = sorted(int(x) for x in os.listdir("/proc") if x.isdigit())
def err(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode[e.errno]
def connect():
    s = socket.socket(socket.AF_UNIX)
    s.connect("\0wb-secret-a")
libc = ctypes.CDLL(None, use_errno=True)
def umount(path):
    if libc.umount2(path.encode(), 2) != 0:
        raise OSError(ctypes.get_errno(), "umount")
def write_sys():
    with open("/proc/sys/kernel/hostname", "w") as f:
        f.write("x")
def read_init():
    with open("/proc/1/mem", "rb") as f:
        f.read(1)
sockets = [fd for fd in map(int, os.listdir("/proc/self/fd")) if err(lambda: os.fstat(fd)) == "ok" and stat.S_ISSOCK(os.fstat(fd).st_mode)]
print(found, pts, pids, err(connect), err(lambda: os.kill(%d, 0)), err(lambda: os.kill(%d, 0)),
      err(lambda: umount("/proc")), err(lambda: umount("/mnt/data")), err(write_sys), err(read_init), sockets)`, hostA, template))
	want := "[] ['ptmx'] [1, 2] ECONNREFUSED ESRCH ESRCH EPERM EPERM EACCES EACCES []"
	if got := strings.TrimSpace(r.Stdout); got != want {
		t.Fatalf("kernel b reaches kernel a or the template:\n got %s\nwant %s", got, want)
	}
	assertServes(t, p)
}

// TestTemplateDeathResetsItsKernels: the kernels' pid namespaces nest in
// the template's, so when the template dies its kernels die with it; their
// sessions are reset as after any crash, and the next kernel forks from a
// new template.
func TestTemplateDeathResetsItsKernels(t *testing.T) {
	p, s := forkedSession(t)
	runOK(t, s, "x = 1")
	p.fork.mu.Lock()
	old := p.fork.w
	p.fork.mu.Unlock()
	old.kill()
	if _, err := s.Exec(context.Background(), "print(x)"); !isReset(err) {
		t.Fatalf("after the template died: %v, want a session reset", err)
	}
	n := openSession(t, p)
	if r := runOK(t, n, "print(6 * 7)"); strings.TrimSpace(r.Stdout) != "42" {
		t.Fatalf("new kernel: %q", r.Stdout)
	}
	p.fork.mu.Lock()
	defer p.fork.mu.Unlock()
	if p.fork.w == old || p.fork.w == nil {
		t.Fatal("the new kernel did not fork from a new template")
	}
}

// TestTemplateIsChargedOnce: the budget charges the template once, beside
// what each kernel measures, and holds that many fewer kernels.
func TestTemplateIsChargedOnce(t *testing.T) {
	p := budgetPool(t, 6, func(c *Config) { c.templateMemoryOf = func(int) int64 { return 2 * unit } })
	s := ownedSession(t, p, "ana")
	if !s.w.forked {
		t.Skip("kernels do not fork from a template here")
	}
	waitFor(t, "a measured warm worker", func() bool { st := p.Stats(); return st.Ready == 1 && st.KernelSize == unit })
	if st := p.Stats(); st.Used != 4*unit || st.Capacity != 4 {
		t.Fatalf("used %d MiB, capacity %d; want 400 MiB (template 200, a session and a warm kernel 100 each) and 4",
			st.Used>>20, st.Capacity)
	}
}

// TestTemplateHeals: forks that keep failing from a template (here on
// purpose, at each place a fork can fail) retire it. The next kernels fork
// from a new template; the old one's kernel keeps its state and the old
// template ends with it. A fork whose /mnt/data is not a fresh tmpfs of its
// own is never handed out.
func TestTemplateHeals(t *testing.T) {
	for _, where := range []string{"unshare", "mounts"} {
		t.Run(where, func(t *testing.T) {
			p, s := forkedSession(t)
			runOK(t, s, "x = 41")
			old := s.w.from
			p.fork.injectFaults(healAfter, where)
			var fromOld []*Session
			for fresh := false; !fresh; {
				n := openSession(t, p)
				if n.w.from == old {
					fromOld = append(fromOld, n)
					if len(fromOld) > 2 {
						t.Fatal("kernels still fork from the failing template")
					}
					continue
				}
				fresh = true
				r := runOK(t, n, "import os\nprint(os.listdir('/mnt/data'), os.statvfs('/mnt/data').f_blocks > 0)")
				if got := strings.TrimSpace(r.Stdout); got != "[] True" {
					t.Fatalf("the new template's kernel: /mnt/data %s", got)
				}
			}
			if left := p.fork.faults.Load(); left != 0 {
				t.Fatalf("%d injected faults never reached a fork", left)
			}
			assertAlive(t, s, "x + 1", "42")
			if !old.alive() {
				t.Fatal("the retired template died while its kernel still ran")
			}
			s.Close()
			for _, n := range fromOld {
				n.Close()
			}
			waitFor(t, "the retired template to end with its last kernel", func() bool { return !old.alive() })
			if p.fork.retiredB.Load() != 0 {
				t.Fatalf("a retired template still charged: %d bytes", p.fork.retiredB.Load())
			}
		})
	}
}

// forkedSession is a private pool of one warm kernel and a session forked
// from its template, for the tests that break the template.
func forkedSession(t *testing.T) (*Pool, *Session) {
	t.Helper()
	cfg := sharedConfig()
	cfg.Warm = 1
	p := newTestPool(t, cfg)
	s := openSession(t, p)
	if !s.w.forked {
		t.Skip("kernels do not fork from a template here")
	}
	return p, s
}
