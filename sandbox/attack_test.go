package sandbox

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Each attack runs in its own session of the shared pool and must be
// contained (an error or a harmless result) with the pool still serving.

func TestAttack_ForkBomb(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	code := `import os, time
n, err = 0, None
while True:
    try:
        pid = os.fork()
    except OSError as e:
        err = e.errno
        break
    if pid == 0:
        while True:  # every child keeps forking: a real bomb
            try:
                os.fork()
            except OSError:
                time.sleep(0.01)
    n += 1
print("forks", n, "errno", err)`
	r := runOK(t, s, code)
	var n, errno int
	if _, err := fmt.Sscanf(r.Stdout, "forks %d errno %d", &n, &errno); err != nil || errno != 11 {
		t.Fatalf("fork bomb not stopped by EAGAIN: %q", r.Stdout)
	}
	if n >= sharedConfig().Processes {
		t.Fatalf("%d forks succeeded, limit is %d", n, sharedConfig().Processes)
	}
	assertServes(t, p)
	s.Close()
	assertNewSession(t, p)
}

func TestAttack_MemoryBomb(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	runOK(t, s, "kept = 7")
	r := run(t, s, "x = bytearray(8 << 30)")
	if r.Error == nil || r.Error.Name != "MemoryError" {
		t.Fatalf("8 GiB allocation: %+v", r.Error)
	}
	r = run(t, s, "chunks = []\nwhile True:\n    chunks.append(bytearray(64 << 20))")
	if r.Error == nil || r.Error.Name != "MemoryError" {
		t.Fatalf("growing allocation: %+v", r.Error)
	}
	runOK(t, s, "del chunks")
	assertAlive(t, s, "kept", "7")
}

// TestAttack_MemoryBombAcrossProcesses stays under RLIMIT_AS in every
// process but not in total, so only the memory cgroup (or, without one, the
// watchdog) can stop it: a bomb process is killed, or the whole session is
// reset and the caller hears so. Its pool gives cells two minutes: on a
// loaded machine touching 1.4 GiB can take longer than the shared pool's
// 20 s, and a cell timeout would end the bomb before the limit is tested.
func TestAttack_MemoryBombAcrossProcesses(t *testing.T) {
	cfg := sharedConfig()
	cfg.Warm, cfg.CellTimeout = 1, 2*time.Minute
	p := newTestPool(t, cfg)
	s := openSession(t, p)
	code := `import os, time, numpy as np
pids = []
for i in range(3):
    pid = os.fork()
    if pid == 0:
        try:
            a = np.ones(480 << 17)  # 480 MiB, touched
            time.sleep(2)
        finally:
            os._exit(0)
    pids.append(pid)
[os.waitpid(p, 0)[1] & 0x7f for p in pids]`
	r, err := s.Exec(context.Background(), code)
	if r != nil && r.Value != nil {
		t.Logf("exit signals of the bomb processes: %s", r.Value.Text)
	}
	switch {
	case isReset(err):
		if got := waitDone(t, s, 5*time.Second); !isReset(got) {
			t.Fatalf("Err = %v", got)
		}
	case err != nil:
		t.Fatal(err)
	case r.Error != nil || r.Value == nil || !strings.Contains(r.Value.Text, "9"):
		t.Fatalf("1.4 GiB across processes was not stopped: %+v %+v", r.Value, r.Error)
	}
	assertServes(t, p)
	assertNewSession(t, p)
}

func TestAttack_DiskFill(t *testing.T) {
	ctx := context.Background()
	p := sharedPool(t)
	s := openSession(t, p)
	for _, dir := range []string{"/mnt/data", "/tmp", "/dev/shm"} {
		code := fmt.Sprintf("f = open(%q, 'wb')\nwhile True:\n    f.write(b'x' * (1 << 20))\n    f.flush()", dir+"/fill.bin")
		r := run(t, s, code)
		if r.Error == nil || !strings.Contains(r.Error.Value, "No space left") && !strings.Contains(r.Error.Value, "File too large") {
			t.Fatalf("filling %s: %+v", dir, r.Error)
		}
		runOK(t, s, fmt.Sprintf("f.close()\nimport os\nos.remove(%q)", dir+"/fill.bin"))
	}
	big := bytes.NewReader(make([]byte, sharedConfig().DataBytes+1))
	if err := s.PutFile(ctx, "big.bin", big); !errors.Is(err, ErrFileTooLarge) {
		t.Fatalf("PutFile over the cap = %v, want ErrFileTooLarge", err)
	}
	list, err := s.ListFiles(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("after the failed upload: %+v, %v", list, err)
	}
	assertAlive(t, s, "1 + 1", "2")
	assertServes(t, p)
}

// TestAttack_SeccompDenylist calls kernel interfaces the filter denies,
// by raw syscall number (x86-64), and checks that threads, which glibc
// starts with clone3 when it can, still work through the clone fallback.
func TestAttack_SeccompDenylist(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("syscall numbers below are x86-64")
	}
	p := sharedPool(t)
	s := openSession(t, p)
	r := runOK(t, s, `import ctypes, os, socket, threading
libc = ctypes.CDLL(None, use_errno=True)
def errno_of(nr, *args):
    ctypes.set_errno(0)
    rc = libc.syscall(nr, *args)
    return ctypes.get_errno() if rc == -1 else "allowed"
calls = {"ptrace": 101, "keyctl": 250, "bpf": 321, "io_uring_setup": 425, "perf_event_open": 298,
         "userfaultfd": 323, "clone3": 435, "fsopen": 430}
got = {name: errno_of(nr, 0, 0, 0, 0, 0) for name, nr in calls.items()}
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW)
    got["netlink"] = "allowed"
except OSError as e:
    got["netlink"] = e.errno
box = []
t = threading.Thread(target=lambda: box.append(1))
t.start(); t.join()
got["thread"] = box
status = open("/proc/self/status").read()
got["seccomp"] = [l.split()[1] for l in status.splitlines() if l.startswith("Seccomp:")][0]
sorted(got.items())`)
	want := "[('bpf', 1), ('clone3', 38), ('fsopen', 38), ('io_uring_setup', 1), ('keyctl', 1), ('netlink', 97), ('perf_event_open', 1), ('ptrace', 1), ('seccomp', '2'), ('thread', [1]), ('userfaultfd', 1)]"
	if r.Value.Text != want {
		t.Fatalf("got  %s\nwant %s", r.Value.Text, want)
	}
}

func TestAttack_Network(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	// A server on the host's loopback: the sandbox's loopback is its own.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	code := fmt.Sprintf(`import socket
out = []
for host, port in [("1.1.1.1", 443), ("169.254.169.254", 80), ("127.0.0.1", %d)]:
    try:
        socket.create_connection((host, port), timeout=2).close()
        out.append("connected " + host)
    except OSError as e:
        out.append("blocked")
try:
    socket.getaddrinfo("example.com", 443)
    out.append("resolved")
except OSError:
    out.append("blocked")
try:
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
    out.append("raw socket")
except OSError:
    out.append("blocked")
out`, port)
	r := runOK(t, s, code)
	if strings.Count(r.Value.Text, "blocked") != 5 {
		t.Fatalf("network reachable: %s", r.Value.Text)
	}
	assertServes(t, p)
}

func TestAttack_HostFilesAndSecrets(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	code := `import os, glob
seen = []
for path in ["/etc/shadow", "/root", "/home", "/var", "/run", "/sys/fs/cgroup", "/etc/resolv.conf", "/etc/ssh"]:
    if os.path.exists(path):
        seen.append(path)
blobs = []
for path in glob.glob("/proc/*/environ") + glob.glob("/proc/*/cmdline"):
    try:
        blobs.append(open(path, "rb").read().decode("utf-8", "replace"))
    except OSError:
        pass
secret = any("` + hostSecret + `" in b for b in blobs) or any("` + hostSecret + `" in v for v in os.environ.values())
(seen, sorted(os.environ), secret, os.getuid())`
	r := runOK(t, s, code)
	want := "([], ['HOME', 'LANG', 'MKL_NUM_THREADS', 'MPLBACKEND', 'MPLCONFIGDIR', 'OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'PATH', 'PWD', 'XDG_CACHE_HOME'], False, 65534)"
	if r.Value.Text != want {
		t.Fatalf("got  %s\nwant %s", r.Value.Text, want)
	}
	assertServes(t, p)
}

func TestAttack_HostProc(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	r := runOK(t, s, `import os
pids = sorted(int(x) for x in os.listdir("/proc") if x.isdigit())
mine = os.getpid()
host = os.path.exists("/proc/%d" % `+fmt.Sprint(os.Getpid())+`) and `+fmt.Sprint(os.Getpid())+` not in (1, 2)
(len(pids) <= 3, mine, host)`)
	if r.Value.Text != "(True, 2, False)" {
		t.Fatalf("sandbox sees host processes: %s", r.Value.Text)
	}
	assertServes(t, p)
}

func TestAttack_NestedUserNamespace(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	r := runOK(t, s, `import ctypes, os, subprocess
libc = ctypes.CDLL(None, use_errno=True)
results = []
for flag in (0x10000000, 0x20000000, 0x00020000):  # CLONE_NEWUSER, NEWPID, NEWNS
    results.append(libc.unshare(flag) == 0)
try:
    refused = subprocess.run(["/usr/bin/unshare", "--user", "--map-root-user", "true"], capture_output=True).returncode != 0
except FileNotFoundError:  # the sandbox has no tools of /usr/bin at all
    refused = True
(results, refused)`)
	if r.Value.Text != "([False, False, False], True)" {
		t.Fatalf("namespaces could be created: %s", r.Value.Text)
	}
	assertServes(t, p)
}

func TestAttack_SymlinkDownload(t *testing.T) {
	ctx := context.Background()
	p := sharedPool(t)
	s := openSession(t, p)
	hostFile := filepath.Join(t.TempDir(), "host-secret.txt")
	if err := os.WriteFile(hostFile, []byte(hostSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, s, fmt.Sprintf(`import os
os.symlink(%q, "secret.txt")
os.symlink("/etc/passwd", "passwd.txt")
os.symlink("/proc/1/environ", "environ.txt")
os.symlink("/etc", "etc")
os.mkfifo("pipe.txt")`, hostFile))
	for _, name := range []string{"secret.txt", "passwd.txt", "environ.txt", "etc/passwd", "pipe.txt"} {
		b, err := s.GetFile(ctx, name)
		if err == nil || bytes.Contains(b, []byte(hostSecret)) {
			t.Errorf("GetFile(%q) = %q, %v; want a refusal", name, b, err)
		}
	}
	list, err := s.ListFiles(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("links or fifos listed as files: %+v, %v", list, err)
	}
	if err := s.PutFile(ctx, "secret.txt", strings.NewReader("overwrite")); err == nil {
		t.Error("PutFile through a symlink succeeded")
	}
	if b, _ := os.ReadFile(hostFile); string(b) != hostSecret {
		t.Fatalf("host file changed: %q", b)
	}
	assertServes(t, p)
}

func TestAttack_OutputFlood(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	r := runOK(t, s, "import sys\nfor i in range(300000):\n    print('x' * 99)\nsys.stderr.write('e' * (5 << 20))\n'y' * (3 << 20)")
	limit := sharedConfig().withDefaults().MaxOutputBytes
	if !r.Truncated || !strings.HasSuffix(r.Stdout, truncatedMarker) {
		t.Fatalf("flood not marked as truncated (stdout ends %q)", r.Stdout[max(0, len(r.Stdout)-80):])
	}
	if n := len(r.Stdout) + len(r.Stderr) - len(truncatedMarker); n > limit {
		t.Fatalf("output of %d bytes exceeds the %d cap", n, limit)
	}
	if r.Value == nil || len(r.Value.Text) > limit {
		t.Fatalf("value not capped: %d bytes", len(r.Value.Text))
	}
	assertAlive(t, s, "i", "299999")
	assertServes(t, p)
}

func TestAttack_ArchiveExtraction(t *testing.T) {
	ctx := context.Background()
	p := sharedPool(t)
	s := openSession(t, p)
	if err := s.PutFile(ctx, "evil.tar", bytes.NewReader(evilTar(t))); err != nil {
		t.Fatal(err)
	}
	if err := s.PutFile(ctx, "evil.zip", bytes.NewReader(evilZip(t))); err != nil {
		t.Fatal(err)
	}
	// Safe extraction refuses the archive.
	r := run(t, s, "import tarfile\ntarfile.open('evil.tar').extractall('safe', filter='data')")
	if r.Error == nil || !strings.Contains(r.Error.Name, "Error") {
		t.Fatalf("filter='data' accepted the evil tar: %+v", r.Error)
	}
	// Naive extraction follows the archive's ../ and links, but only inside
	// the sandbox: it can reach nothing of the host's.
	r = runOK(t, s, `import tarfile, zipfile, os
try:
    tarfile.open('evil.tar').extractall('naive')
except Exception as e:
    print("tar:", type(e).__name__)
zipfile.ZipFile('evil.zip').extractall('zipped')
sorted(os.path.relpath(os.path.join(d, f), '/') for d, _, fs in os.walk('/mnt') for f in fs)`)
	if strings.Contains(r.Value.Text, "etc") {
		t.Fatalf("extraction wrote outside /mnt/data: %s", r.Value.Text)
	}
	for _, name := range []string{"naive/link", "naive/link/passwd"} {
		if b, err := s.GetFile(ctx, name); err == nil {
			t.Errorf("GetFile(%q) followed the archive's link: %q", name, b)
		}
	}
	for _, host := range []string{"/escaped-by-sandbox.txt", "/tmp/escaped-by-sandbox.txt"} {
		if _, err := os.Stat(host); err == nil {
			t.Fatalf("archive member reached the host: %s", host)
		}
	}
	assertServes(t, p)
}

func evilTar(t *testing.T) []byte {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	add := func(h *tar.Header, body string) {
		h.Size = int64(len(body))
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	add(&tar.Header{Name: "../../../../tmp/escaped-by-sandbox.txt", Typeflag: tar.TypeReg}, "x")
	add(&tar.Header{Name: "/escaped-by-sandbox.txt", Typeflag: tar.TypeReg}, "x")
	add(&tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc"}, "")
	add(&tar.Header{Name: "link/evil.conf", Typeflag: tar.TypeReg}, "x")
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func evilZip(t *testing.T) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"../../escaped-by-sandbox.txt", "/abs.txt", "ok.txt"} {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("x"))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestIsolationLayers checks the layers that the attacks above only probe
// indirectly: rlimits from inside, and from the host the worker's uid and
// resource group.
func TestIsolationLayers(t *testing.T) {
	p := sharedPool(t)
	s := openSession(t, p)
	cfg := p.cfg
	r := runOK(t, s, `import resource as r
[r.getrlimit(x)[0] for x in (r.RLIMIT_AS, r.RLIMIT_NOFILE, r.RLIMIT_CORE, r.RLIMIT_FSIZE, r.RLIMIT_NPROC)]`)
	want := fmt.Sprintf("[%d, 1024, 0, %d, %d]", cfg.MemoryBytes, max(cfg.DataBytes, cfg.TmpBytes), wantNPROC(cfg, s.w.uid != 0))
	if r.Value.Text != want {
		t.Fatalf("rlimits %s, want %s", r.Value.Text, want)
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.w.pyPid))
	if err != nil {
		t.Fatal(err)
	}
	uid := s.w.uid
	if s.w.forked { // a fork runs as its template's host uid, in namespaces of its own
		uid = p.fork.w.uid
	}
	if ownUIDs() && (uid == 0 || !strings.Contains(string(status), fmt.Sprintf("Uid:\t%d\t", uid))) {
		t.Fatalf("worker does not run as the host uid %d of its sandbox:\n%s", uid, status)
	}
	cg, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", s.w.pyPid))
	if err != nil {
		t.Fatal(err)
	}
	if _, isNone := p.lim.(*noCgroup); !isNone && !strings.Contains(string(cg), s.ID()) {
		t.Fatalf("worker not in its cgroup %s:\n%s", s.ID(), cg)
	}
	t.Logf("limits: %s; seccomp: %v; host uid %d", p.lim.name(), p.assets.seccomp != "", s.w.uid)
}
