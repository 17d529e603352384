package handlers_test

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
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

// BenchmarkSSESubscribers1000 opens 1,000 event streams on one live run
// through the real handler stack and reports the heap they add, measured
// after a GC (clients included, so it is an upper bound for the server).
func BenchmarkSSESubscribers1000(b *testing.B) {
	const subscribers = 1000
	ctx := context.Background()
	dir := b.TempDir()
	db, _ := store.Open(ctx, filepath.Join(dir, "app.db"), migrations.FS, nil)
	defer db.Close()
	pool, err := sandbox.NewPool(ctx, sandbox.Config{Warm: 1})
	if err != nil {
		b.Skip("sandbox unavailable:", err)
	}
	defer pool.Close()
	emu, _ := emulator.New(emulator.Config{Token: "t", DataDir: filepath.Join(dir, "engine"), Kernels: emulator.SandboxKernels{Pool: pool}})
	defer emu.Close()
	esrv := httptest.NewServer(emu)
	defer esrv.Close()
	client, _ := foundry.New(foundry.Config{Endpoint: esrv.URL + "/api/projects/p", Credential: foundry.StaticToken("t")})
	blobs, _ := files.NewBlobs(filepath.Join(dir, "blobs"))
	turns := chat.New(chat.Config{DB: db, Client: client, Files: blobs, Agent: foundry.AgentSpec{Name: "a", Model: "m"}})
	defer turns.Shutdown(ctx)
	turns.EnsureAgent(ctx)
	secrets, _ := handlers.SessionSecrets("", dir)
	accounts := auth.NewAccounts(db, bcrypt.MinCost)
	h := handlers.New(handlers.Config{DB: db, Accounts: accounts, Chat: turns, Sessions: handlers.NewSessionStore(secrets), Engine: views.Engine{Local: true}})
	e := echo.New()
	h.Register(e)
	srv := httptest.NewServer(e)
	defer srv.Close()
	a := &app{t: b, srv: srv, db: db, accounts: accounts, echo: e}

	br := a.signedIn("ana", store.RoleAnalyst)
	convID := br.create()
	u := mustUser(b, a, "ana")
	_, run, err := turns.Start(ctx, chat.Turn{UserID: u.ID, ConversationID: convID, Content: "```python\nimport time\nprint('go', flush=True)\ntime.sleep(60)\n```"})
	if err != nil {
		b.Fatal(err)
	}
	srvURL, _ := url.Parse(srv.URL)
	var cookies []string
	for _, c := range br.c.Jar.Cookies(srvURL) {
		cookies = append(cookies, c.Name+"="+c.Value)
	}
	path := "/conversations/" + convID + "/runs/" + run.ID + "/events"

	before := heapInUse()
	var conns []net.Conn
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for range subscribers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			conn, err := net.Dial("tcp", srvURL.Host)
			if err != nil {
				b.Error(err)
				return
			}
			req := "GET " + path + " HTTP/1.1\r\nHost: " + srvURL.Host + "\r\nAccept: text/event-stream\r\nCookie: " + strings.Join(cookies, "; ") + "\r\n\r\n"
			conn.Write([]byte(req))
			rd := bufio.NewReader(conn)
			for { // wait for the first update: the stream is live
				line, err := rd.ReadString('\n')
				if err != nil {
					b.Error("stream ended early:", err)
					return
				}
				if strings.HasPrefix(line, "event: update") {
					break
				}
			}
			mu.Lock()
			conns = append(conns, conn)
			mu.Unlock()
		}()
	}
	wg.Wait()
	time.Sleep(500 * time.Millisecond)
	after := heapInUse()
	b.ReportMetric(float64(len(conns)), "streams")
	b.ReportMetric(float64(after-before)/(1<<20), "MB-added")
	for _, c := range conns {
		c.Close()
	}
	turns.Cancel(ctx, u.ID, convID, run.ID)
	_ = http.StatusOK
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse + m.StackInuse
}
