// Package pgtest runs a throwaway PostgreSQL cluster for the tests of one
// package: Debian's PostgreSQL 15 binaries, a data directory in a temp dir,
// a unix socket in that directory and no TCP listener, fsync off. The
// cluster is started once per test process, on first use, and each test gets
// a fresh database copied from a prepared template, which takes a few
// milliseconds where migrating anew would take a second.
package pgtest

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// BinDir holds Debian 12's PostgreSQL server binaries (package postgresql-15).
const BinDir = "/usr/lib/postgresql/15/bin"

// PasswordGroup is the role whose members must sign in with a password;
// every other role is trusted on the socket. Tests of password or token
// sign-in make their role a member of it.
const PasswordGroup = "pgtest_password"

// ErrNotInstalled is what Start's error wraps when the binaries are missing.
var ErrNotInstalled = errors.New("pgtest: PostgreSQL 15 is not installed: run make deps")

// Cluster is a running throwaway PostgreSQL server.
type Cluster struct {
	dir    string
	cmd    *exec.Cmd
	exited chan struct{}
	admin  *sql.DB
	// mu serializes CREATE DATABASE: copying a template needs it idle.
	mu        sync.Mutex
	templates map[string]error
	next      atomic.Int64
}

var (
	shared    *Cluster
	sharedErr error
	once      sync.Once
)

// Shared returns the cluster of this test process, starting it on the first
// call. A machine without PostgreSQL fails the test, since the tests would
// otherwise pass without testing anything; -short skips it instead.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("PostgreSQL tests skipped with -short")
	}
	once.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// StopShared stops the cluster Shared started, if it did; a TestMain calls
// it after m.Run.
func StopShared() {
	if shared != nil {
		shared.Stop()
	}
}

// Main runs a package's tests and stops the shared cluster afterwards:
// func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }.
func Main(m *testing.M) int {
	defer StopShared()
	return m.Run()
}

// Start initialises and starts a new cluster.
func Start() (*Cluster, error) {
	if _, err := os.Stat(filepath.Join(BinDir, "postgres")); err != nil {
		return nil, fmt.Errorf("%w (no %s)", ErrNotInstalled, BinDir)
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, fmt.Errorf("pgtest: %w", err)
	}
	c := &Cluster{dir: dir, exited: make(chan struct{}), templates: map[string]error{}}
	if err := c.start(); err != nil {
		c.Stop()
		return nil, err
	}
	return c, nil
}

func (c *Cluster) start() error {
	cred, err := serverUser()
	if err != nil {
		return err
	}
	if cred != nil {
		if err := os.Chown(c.dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
	}
	data := filepath.Join(c.dir, "data")
	initdb := exec.Command(filepath.Join(BinDir, "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
		"-E", "UTF8", "--locale=C.UTF-8", "--no-sync", "--no-instructions")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return fmt.Errorf("pgtest: initdb: %v\n%s", err, out)
	}
	hba := "local all +" + PasswordGroup + " scram-sha-256\nlocal all all trust\n"
	if err := writeAs(filepath.Join(data, "pg_hba.conf"), hba, cred); err != nil {
		return err
	}
	if err := c.launch(data, cred); err != nil {
		return err
	}
	if err := c.waitReady(); err != nil {
		return err
	}
	_, err = c.admin.Exec(`CREATE ROLE ` + PasswordGroup + ` NOLOGIN`)
	return err
}

// serverUser is the account the server runs as: initdb refuses root, so a
// root test process runs it as the postgres user; anyone else as themselves.
func serverUser() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("pgtest: no postgres user (run make deps): %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func writeAs(path, content string, cred *syscall.Credential) error {
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	if cred != nil {
		return os.Chown(path, int(cred.Uid), int(cred.Gid))
	}
	return nil
}

// launch starts the server as a child that dies with the test process
// (Pdeathsig), so a test binary killed by its timeout leaves no server
// behind. The signal follows the thread that started the child, so that
// goroutine keeps its thread until the server has exited.
func (c *Cluster) launch(data string, cred *syscall.Credential) error {
	logFile, err := os.Create(filepath.Join(c.dir, "server.log"))
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	c.cmd = exec.Command(filepath.Join(BinDir, "postgres"), "-D", data, "-k", c.dir,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200", "-c", "log_min_messages=warning")
	c.cmd.Stdout, c.cmd.Stderr = logFile, logFile
	c.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer logFile.Close()
		if err := c.cmd.Start(); err != nil {
			started <- fmt.Errorf("pgtest: start postgres: %w", err)
			close(c.exited)
			return
		}
		started <- nil
		c.cmd.Wait()
		close(c.exited)
	}()
	return <-started
}

// waitReady waits until the server accepts connections, or fails with the
// end of its log if it exits first or takes a minute.
func (c *Cluster) waitReady() error {
	c.admin, _ = sql.Open("pgx", c.URL("postgres"))
	deadline := time.Now().Add(time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := c.admin.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-c.exited:
			return fmt.Errorf("pgtest: postgres exited: %s", c.logTail())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: postgres not ready after a minute: %v\n%s", err, c.logTail())
		}
	}
}

func (c *Cluster) logTail() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "server.log"))
	if len(b) > 4000 {
		b = b[len(b)-4000:]
	}
	return string(b)
}

// Stop shuts the server down (fast shutdown: open sessions are ended) and
// removes its directory.
func (c *Cluster) Stop() {
	if c.admin != nil {
		c.admin.Close()
	}
	if c.cmd != nil && c.cmd.Process != nil {
		c.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-c.exited:
		case <-time.After(30 * time.Second):
			c.cmd.Process.Kill()
			<-c.exited
		}
	}
	os.RemoveAll(c.dir)
}

// URL is the postgres:// URL of database name as the superuser, over the
// cluster's socket.
func (c *Cluster) URL(name string) string {
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/" + name,
		RawQuery: url.Values{"host": {c.dir}}.Encode()}
	return u.String()
}

// AsRole is dbURL signing in as role, with password unless it is empty.
func AsRole(dbURL, role, password string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return dbURL
	}
	u.User = url.User(role)
	if password != "" {
		u.User = url.UserPassword(role, password)
	}
	return u.String()
}

// Exec runs statements as the superuser on the cluster's postgres database.
func (c *Cluster) Exec(t testing.TB, query string, args ...any) {
	t.Helper()
	if _, err := c.admin.Exec(query, args...); err != nil {
		t.Fatalf("pgtest: %s: %v", query, err)
	}
}

// Template makes the database name once per process with prepare, which
// gets its URL and must close every connection it opened, so that the
// database can be copied. Later calls return the first call's result.
func (c *Cluster) Template(name string, prepare func(url string) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err, ok := c.templates[name]; ok {
		return err
	}
	err := c.createLocked(name, "template0")
	if err == nil {
		err = prepare(c.URL(name))
	}
	if err != nil {
		err = fmt.Errorf("pgtest: template %s: %w", name, err)
	}
	c.templates[name] = err
	return err
}

// Database creates a fresh database copied from template (empty when
// template is ""), dropped when the test ends, and returns its URL.
func (c *Cluster) Database(t testing.TB, template string) string {
	t.Helper()
	name := fmt.Sprintf("t%d_%d", os.Getpid(), c.next.Add(1))
	c.mu.Lock()
	err := c.createLocked(name, cmp.Or(template, "template0"))
	c.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := c.admin.Exec(`DROP DATABASE IF EXISTS ` + name + ` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop %s: %v", name, err)
		}
	})
	return c.URL(name)
}

// createLocked copies template into a new database. FILE_COPY copies the
// template's files, which for a small template is several times faster
// than PostgreSQL 15's default of writing every page to the WAL.
func (c *Cluster) createLocked(name, template string) error {
	_, err := c.admin.Exec(`CREATE DATABASE ` + name + ` TEMPLATE ` + template + ` STRATEGY FILE_COPY`)
	if err != nil {
		return fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return nil
}
