package handlers_test

import (
	"bufio"
	"context"
	"net"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

// liveApp is the real handler stack with a chat service that runs turns on
// the emulator and a real sandbox, for tests that need a run in progress.
type liveApp struct {
	*app
	turns *chat.Service
	pool  *sandbox.Pool
}

// newLiveApp starts the stack on a sandbox pool made with cfg (Warm 1 when
// zero); it skips when the sandbox is unavailable.
func newLiveApp(t testing.TB, cfg sandbox.Config) *liveApp {
	t.Helper()
	return newLiveAppPlanner(t, cfg, nil)
}

// newLiveAppPlanner is newLiveApp whose engine writes code with planner,
// as the app's does; nil runs only fenced python blocks.
func newLiveAppPlanner(t testing.TB, cfg sandbox.Config, planner emulator.Planner) *liveApp {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if cfg.Warm == 0 {
		cfg.Warm = 1
	}
	pool, err := sandbox.NewPool(ctx, cfg)
	if err != nil {
		t.Skip("sandbox unavailable:", err)
	}
	t.Cleanup(func() { pool.Close() })
	emu, err := emulator.New(emulator.Config{Token: "t", DataDir: filepath.Join(dir, "engine"), Kernels: emulator.SandboxKernels{Pool: pool}, Planner: planner})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { emu.Close() })
	esrv := httptest.NewServer(emu)
	t.Cleanup(esrv.Close)
	client, err := foundry.New(foundry.Config{Endpoint: esrv.URL + "/api/projects/p", Credential: foundry.StaticToken("t")})
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	turns := chat.New(chat.Config{DB: db, Client: client, Files: blobs, Agent: foundry.AgentSpec{Name: "a", Model: "m"}})
	t.Cleanup(func() { turns.Shutdown(context.Background()) })
	if err := turns.EnsureAgent(ctx); err != nil {
		t.Fatal(err)
	}
	secrets, err := handlers.SessionSecrets("", dir)
	if err != nil {
		t.Fatal(err)
	}
	accounts := auth.NewAccounts(db, bcrypt.MinCost)
	h := handlers.New(handlers.Config{DB: db, Accounts: accounts, Chat: turns, Sessions: handlers.NewSessionStore(secrets), Engine: views.Engine{Local: true},
		Sandbox: func() handlers.SandboxStats { return sandboxStats(pool.Stats()) }})
	e := echo.New()
	h.Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &liveApp{app: &app{t: t, srv: srv, db: db, accounts: accounts, echo: e}, turns: turns, pool: pool}
}

// sandboxStats is what cmd/web hands the handlers.
func sandboxStats(st sandbox.Stats) handlers.SandboxStats {
	return handlers.SandboxStats{Budget: st.Budget, Used: st.Used, KernelSize: st.KernelSize, Capacity: st.Capacity,
		Live: st.Live, Busy: st.Busy, Idle: st.Idle, Evicted: st.Evicted, Queued: st.Queued, Ready: st.Ready,
		Evictions: st.Evictions, Restores: st.Restores, QueuedTotal: st.QueuedTotal, Refused: st.Refused}
}

// sleeper is a question whose run stays live for a minute.
const sleeper = "```python\nimport time\nprint('go', flush=True)\ntime.sleep(60)\n```"

// startLive signs a user in, starts a long run and returns the browser, the
// conversation and the run.
func (l *liveApp) startLive() (*browser, string, *store.Run) {
	l.t.Helper()
	br := l.signedIn("ana", store.RoleAnalyst)
	convID := br.create()
	u := mustUser(l.t, l.app, "ana")
	_, run, err := l.turns.Start(context.Background(), chat.Turn{UserID: u.ID, ConversationID: convID, Content: sleeper})
	if err != nil {
		l.t.Fatal(err)
	}
	l.t.Cleanup(func() { l.turns.Cancel(context.Background(), u.ID, convID, run.ID) })
	return br, convID, run
}

// openStream opens a run's event stream on a raw connection and reads up
// to its first update, so the server is following the run live.
func (l *liveApp) openStream(br *browser, path string) (net.Conn, error) {
	srvURL, _ := url.Parse(l.srv.URL)
	var cookies []string
	for _, c := range br.c.Jar.Cookies(srvURL) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	conn, err := net.Dial("tcp", srvURL.Host)
	if err != nil {
		return nil, err
	}
	req := "GET " + path + " HTTP/1.1\r\nHost: " + srvURL.Host + "\r\nAccept: text/event-stream\r\nCookie: " + strings.Join(cookies, "; ") + "\r\n\r\n"
	if _, err := conn.Write([]byte(req)); err != nil {
		conn.Close()
		return nil, err
	}
	rd := bufio.NewReader(conn)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, err
		}
		if strings.HasPrefix(line, "event: update") {
			return conn, nil
		}
	}
}

// TestLiveRunLeavesNoSubscribers follows a live run 200 times, dropping
// each connection, and views its page 200 times: afterwards the hub holds
// no subscription. Before subscriptions closed themselves, every page view
// left one behind until the run ended.
func TestLiveRunLeavesNoSubscribers(t *testing.T) {
	l := newLiveApp(t, sandbox.Config{})
	br, convID, run := l.startLive()
	path := "/conversations/" + convID + "/runs/" + run.ID + "/events"
	for i := range 200 {
		conn, err := l.openStream(br, path)
		if err != nil {
			t.Fatalf("stream %d: %v", i, err)
		}
		conn.Close()
		if r := br.get("/conversations/" + convID); r.status != 200 {
			t.Fatalf("page %d: status %d", i, r.status)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for l.turns.Subscribers() != 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond) // handlers notice the dropped connections
	}
	if n := l.turns.Subscribers(); n != 0 {
		t.Fatalf("%d subscriptions left behind by 200 dropped streams and page views", n)
	}
	if st, _ := l.db.RunByID(context.Background(), run.ID); st.Status != store.RunRunning {
		t.Fatalf("the run ended (%s) before the test did: it proves nothing", st.Status)
	}
}
