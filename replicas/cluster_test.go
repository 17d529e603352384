package replicas

import (
	"database/sql"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/files/azuritetest"
	"github.com/analyst-workbench/workbench/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// Settings every replica shares: the cookie secret (so that each opens the
// others' cookies), the emulator's token, its project and the blob container.
const (
	sessionKeys = "replicas-session-key-0123456789abcdef0123456789"
	emuToken    = "replicas-emulator-token"
	project     = "shared"
	agentName   = "workbench-analyst"
	container   = "replicas"
)

// startWait bounds how long a process may take to answer after its start
// on a loaded machine; readiness is polled, so an idle one takes far less.
const startWait = 90 * time.Second

// cluster is everything the subtests share: the database (and a connection
// of the test's own to check it), Azurite, the emulator and the replicas.
type cluster struct {
	dbURL    string
	db       *sql.DB
	az       *azuritetest.Server
	emu      *proc
	emuBase  string // http://127.0.0.1:port
	replicas [2]*replica
	// webBin is the built cmd/web, to start a killed replica again.
	webBin string
}

// replica is one cmd/web process and what it was started with.
type replica struct {
	n       int
	url     string
	dataDir string
	p       *proc
}

// proc is a child process whose output goes to a file, for failure
// messages and, for the emulator, for counting its requests.
type proc struct {
	name   string
	cmd    *exec.Cmd
	log    string
	exited chan struct{}
}

// startCluster skips when PostgreSQL or Azurite is missing, builds the two
// commands, and starts the servers: both replicas at once, on an empty
// database. Everything is stopped when t ends, failed or not.
func startCluster(t *testing.T) *cluster {
	t.Helper()
	if _, err := os.Stat(filepath.Join(pgtest.BinDir, "postgres")); err != nil {
		t.Skipf("the two-replica test needs PostgreSQL 15 in %s: run `make deps`", pgtest.BinDir)
	}
	if _, err := azuritetest.Find(); err != nil {
		t.Skipf("the two-replica test needs Azurite: %v", err)
	}
	start := time.Now()
	bin := buildCommands(t)
	t.Logf("built cmd/web and cmd/foundry-emulator in %v", time.Since(start).Round(time.Millisecond))
	c := &cluster{webBin: filepath.Join(bin, "web")}
	c.dbURL = pgtest.Shared(t).Database(t, "") // empty: the replicas migrate it
	db, err := sql.Open("pgx", c.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c.db = db
	c.az = azuritetest.Start(t)
	c.startEmulator(t, filepath.Join(bin, "foundry-emulator"))
	for i := range c.replicas {
		c.replicas[i] = c.newReplica(t, i+1)
	}
	// Started back to back, so that both open the empty database together.
	for _, r := range c.replicas {
		r.start(t, c.webBin, c.replicaEnv(r))
	}
	for _, r := range c.replicas {
		r.waitReady(t)
	}
	t.Logf("PostgreSQL, Azurite, the emulator and both replicas ready %v after the start", time.Since(start).Round(time.Millisecond))
	return c
}

// buildCommands builds cmd/web and cmd/foundry-emulator into one temporary
// directory, in one go build so that they share its work.
func buildCommands(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", dir+"/",
		"github.com/analyst-workbench/workbench/cmd/web", "github.com/analyst-workbench/workbench/cmd/foundry-emulator")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir
}

// startEmulator starts the standalone emulator, logging every request (as
// JSON, which emulatorDeletes reads), and waits until it answers.
func (c *cluster) startEmulator(t *testing.T, bin string) {
	t.Helper()
	addr := freeAddr(t)
	c.emuBase = "http://" + addr
	c.emu = startProc(t, "foundry-emulator", bin, []string{"-addr", addr, "-token", emuToken,
		"-data-dir", t.TempDir(), "-v", "-log-json"}, nil)
	deadline := time.Now().Add(startWait)
	for {
		req, _ := http.NewRequest(http.MethodGet, c.emuBase+"/api/projects/"+project+"/agents?api-version=v1", nil)
		req.Header.Set("Authorization", "Bearer "+emuToken)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return
		}
		c.emu.checkAlive(t, deadline)
		time.Sleep(50 * time.Millisecond)
	}
}

func (c *cluster) newReplica(t *testing.T, n int) *replica {
	addr := freeAddr(t)
	return &replica{n: n, url: "http://" + addr, dataDir: t.TempDir()}
}

// replicaEnv is shared mode as the README's settings table describes it:
// PostgreSQL, Azure blobs, one standalone emulator, the same session keys;
// only the address and the data directory are the replica's own.
func (c *cluster) replicaEnv(r *replica) []string {
	return []string{
		"ADDR=" + strings.TrimPrefix(r.url, "http://"),
		"DATA_DIR=" + r.dataDir,
		"DATABASE_URL=" + c.dbURL,
		"SESSION_KEYS=" + sessionKeys,
		"BLOB_STORE=azure",
		"AZURE_STORAGE_CONNECTION_STRING=" + c.az.ConnectionString,
		"AZURE_STORAGE_CONTAINER=" + container,
		"FOUNDRY_PROJECT_ENDPOINT=" + c.emuBase + "/api/projects/" + project,
		"FOUNDRY_MODEL_DEPLOYMENT=local",
		"FOUNDRY_TOKEN=" + emuToken,
		"LOG_FORMAT=json",
		// The test's temporary directories may sit on a nearly full disk.
		"DATA_MIN_FREE_MB=0",
	}
}

func (r *replica) start(t *testing.T, bin string, env []string) {
	t.Helper()
	r.p = startProc(t, fmt.Sprintf("web-%d", r.n), bin, nil, env)
}

// waitReady polls /readyz (the database and the agent set up) until it
// answers 200, failing at once if the process exits.
func (r *replica) waitReady(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(startWait)
	for {
		resp, err := http.Get(r.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		r.p.checkAlive(t, deadline)
		time.Sleep(50 * time.Millisecond)
	}
}

// startProc starts bin with only the environment given (plus PATH and
// HOME), so that nothing of the developer's own settings leaks in. The
// process is stopped when t ends, and its log shown if t failed.
func startProc(t *testing.T, name, bin string, args, env []string) *proc {
	t.Helper()
	p := &proc{name: name, log: filepath.Join(t.TempDir(), name+".log"), exited: make(chan struct{})}
	out, err := os.Create(p.log)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, args...)
	// TMPDIR stays the system's: the sandbox hands its temporary files to
	// an unprivileged user, who cannot reach into a test's 0700 directories.
	p.cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	p.cmd.Stdout, p.cmd.Stderr = out, out
	// A test binary killed by its timeout takes its children along; the
	// cleanup below is the ordinary way they end.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		out.Close()
		t.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.cmd.Wait()
		out.Close()
		close(p.exited)
	}()
	t.Cleanup(func() {
		p.stop()
		if t.Failed() {
			t.Logf("%s log (end):\n%s", name, p.tail(20000))
		}
	})
	return p
}

// checkAlive fails t if the process has exited or deadline has passed.
func (p *proc) checkAlive(t *testing.T, deadline time.Time) {
	t.Helper()
	select {
	case <-p.exited:
		t.Fatalf("%s exited before it was ready: %v\n%s", p.name, p.cmd.ProcessState, p.tail(6000))
	default:
	}
	if time.Now().After(deadline) {
		t.Fatalf("%s not ready within %v:\n%s", p.name, startWait, p.tail(6000))
	}
}

// stop asks the process to end (SIGTERM) and kills it if it takes more
// than ten seconds; a process already gone is left alone.
func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(10 * time.Second):
		p.kill()
	}
}

// kill ends the process with SIGKILL, as a crash would, and waits for it.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

func (p *proc) tail(n int) string {
	b, _ := os.ReadFile(p.log)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
