package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// wantNPROC is the RLIMIT_NPROC a sandbox's Python should see.
func wantNPROC(cfg Config, ownUID bool) uint64 {
	switch {
	case ownUID:
		return uint64(cfg.Processes)
	case namespacedNPROC():
		return sandboxTasks(cfg)
	default:
		return sharedUIDTasks(cfg)
	}
}

// TestAttack_OnlyPythonOfUsr: the sandbox sees Python and what it needs of
// /usr, not /usr's tools or documentation, and the data stack still works,
// fonts included.
func TestAttack_OnlyPythonOfUsr(t *testing.T) {
	s := openSession(t, sharedPool(t))
	assertOnlyPythonOfUsr(t, s)
}

func assertOnlyPythonOfUsr(t *testing.T, s *Session) {
	t.Helper()
	var onHost []string
	for _, p := range []string{"/usr/share/doc", "/usr/bin/sh", "/usr/bin/gcc", "/usr/bin/perl", "/usr/include", "/usr/libexec", "/usr/local/bin"} {
		if _, err := os.Stat(p); err == nil {
			onHost = append(onHost, p)
		}
	}
	if len(onHost) == 0 {
		t.Fatal("none of the paths to hide exists on this host; the test proves nothing")
	}
	list, _ := json.Marshal(onHost) // a JSON list of strings is a Python list too
	r := runOK(t, s, fmt.Sprintf(`import importlib, io, os, warnings
seen = [p for p in %s if os.path.exists(p)]
for m in ("pandas", "numpy", "scipy.stats", "seaborn", "openpyxl", "sqlite3", "ssl", "lzma", "bz2", "ctypes", "decimal", "uuid"):
    importlib.import_module(m)
import pandas as pd, matplotlib.pyplot as plt
pd.DataFrame({"a": [1]}).to_excel("x.xlsx")
assert pd.read_excel("x.xlsx")["a"][0] == 1
stamp = pd.Timestamp("2024-06-01 12:00", tz="UTC").tz_convert("Asia/Tokyo").hour
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    plt.figure(figsize=(2, 2)); plt.title("图表 グラフ 차트")
    plt.savefig(io.BytesIO(), format="png"); plt.close("all")
missing = [str(w.message) for w in caught if "missing from" in str(w.message)]
(seen, stamp, missing)`, list))
	if r.Value.Text != "([], 21, [])" {
		t.Fatalf("got %s, want no host paths, Tokyo time and every glyph", r.Value.Text)
	}
}

// nonRootEnv marks the run of this test binary under an ordinary uid.
const nonRootEnv = "WORKBENCH_SANDBOX_NONROOT"

// nonRootUID runs that copy; no account uses it.
const nonRootUID = 1_900_000_000

// TestNonRootLauncher runs a pool as the Docker image does: the server under
// an ordinary uid, which every kernel shares and which may write no cgroup.
// As root it runs this test binary again under such a uid.
func TestNonRootLauncher(t *testing.T) {
	if os.Getuid() != 0 || os.Getenv(nonRootEnv) != "" {
		nonRootChecks(t)
		return
	}
	dir, err := os.MkdirTemp("", "sandbox-nonroot-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "sandbox.test")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil || os.Chmod(dir, 0o777) != nil {
		t.Fatal("copy the test binary:", err)
	}
	cmd := exec.Command(bin, "-test.run=^TestNonRootLauncher$", "-test.v", "-test.count=1")
	cmd.Dir, cmd.Env = dir, []string{nonRootEnv + "=1", "HOME=" + dir, "PATH=/usr/bin:/bin"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nonRootUID, Gid: nonRootUID}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNonRootLauncher") {
		t.Fatalf("as uid %d: %v\n%s", nonRootUID, err, out)
	}
	t.Logf("as uid %d:\n%s", nonRootUID, out)
}

// nonRootChecks: the task limit holds per sandbox although the uid is
// shared (and busy: other processes of the uid run meanwhile), and the
// narrowed /usr holds too.
func nonRootChecks(t *testing.T) {
	cfg := sharedConfig()
	cfg.Warm = 1
	p := newTestPool(t, cfg)
	cfg = p.cfg
	sleepers := make([]*exec.Cmd, 0, 100)
	for range cap(sleepers) {
		c := exec.Command("/bin/sleep", "60")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		sleepers = append(sleepers, c)
	}
	defer func() {
		for _, c := range sleepers {
			c.Process.Kill()
			c.Wait()
		}
	}()
	s := openSession(t, p)
	// Threads, not processes: they count against RLIMIT_NPROC alike, and
	// the watchdog, which sums each process's RSS, would take forked
	// copies of the kernel for a memory bomb.
	r := runOK(t, s, `import threading
limit = [l.split()[2:4] for l in open("/proc/self/limits") if l.startswith("Max processes")][0]
threading.stack_size(256 << 10)
stop, threads, err = threading.Event(), [], None
while len(threads) < 1000:
    th = threading.Thread(target=stop.wait)
    try:
        th.start()
    except RuntimeError as e:
        err = str(e)
        break
    threads.append(th)
stop.set()
for th in threads:
    th.join()
(limit, len(threads), err)`)
	want := wantNPROC(cfg, false)
	if !strings.HasPrefix(r.Value.Text, fmt.Sprintf("(['%d', '%d'], ", want, want)) {
		t.Fatalf("limits and threads %s, want RLIMIT_NPROC %d", r.Value.Text, want)
	}
	wantEnd := fmt.Sprintf(", %d, \"can't start new thread\")", want-2)
	if namespacedNPROC() && !strings.HasSuffix(r.Value.Text, wantEnd) {
		t.Fatalf("limits and threads %s: want %d threads (the limit less init and the main thread), then a refusal", r.Value.Text, want-2)
	}
	assertAlive(t, s, "6 * 7", "42")
	assertOnlyPythonOfUsr(t, s)
	t.Logf("uid %d, limits %s, kernel counts per user namespace: %v; threads: %s", os.Getuid(), p.lim.name(), namespacedNPROC(), r.Value.Text)
}
