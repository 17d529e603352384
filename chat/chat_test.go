package chat_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
)

// pool is one real sandbox pool shared by every test of the package.
var pool *sandbox.Pool

func TestMain(m *testing.M) {
	var err error
	pool, err = sandbox.NewPool(context.Background(), sandbox.Config{Warm: 2})
	if err != nil {
		fmt.Fprintln(os.Stderr, "chat tests need the sandbox (make deps):", err)
		os.Exit(1)
	}
	code := m.Run()
	pool.Close()
	pgtest.StopShared()
	os.Exit(code)
}

// env is a chat service over a real SQLite file, a real blob store and the
// emulator serving the real Foundry protocol over HTTP.
type env struct {
	svc    *chat.Service
	db     *store.DB
	client *foundry.Client
	blobs  files.BlobStore
	userID string
	convID string
}

func newEnv(t *testing.T, faults ...string) *env {
	t.Helper()
	return newEnvWith(t, func(c *emulator.Config) { c.Faults.Always = faults })
}

// newEnvWith is newEnv with the emulator configured by change; the
// emulator answers as the hosted service does unless change makes it lenient.
func newEnvWith(t *testing.T, change func(*emulator.Config)) *env {
	t.Helper()
	return newEnvOpts(t, envOptions{emulator: change})
}

// envOptions change what newEnvOpts builds: the emulator's config, the
// client's, and the handler in front of the emulator.
type envOptions struct {
	emulator func(*emulator.Config)
	client   func(*foundry.Config)
	wrap     func(http.Handler) http.Handler
	service  func(*chat.Config)
	// open opens the store; nil opens a SQLite file in a temp dir.
	open func(testing.TB) *store.DB
	// agentRefused expects the emulator to refuse the agent's set-up.
	agentRefused bool
}

func newEnvOpts(t testing.TB, opts envOptions) *env {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	var db *store.DB
	if opts.open != nil {
		db = opts.open(t)
	} else {
		db = openSQLite(t, filepath.Join(dir, "app.db"))
	}
	cfg := emulator.Config{Token: "t", DataDir: filepath.Join(dir, "engine"), Kernels: emulator.SandboxKernels{Pool: pool}}
	if opts.emulator != nil {
		opts.emulator(&cfg)
	}
	faults := cfg.Faults.Always
	emu, err := emulator.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = emu
	if opts.wrap != nil {
		h = opts.wrap(emu)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); emu.Close() })
	ccfg := foundry.Config{Endpoint: srv.URL + "/api/projects/test", Credential: foundry.StaticToken("t"), MaxRetries: -1}
	if opts.client != nil {
		opts.client(&ccfg)
	}
	client, err := foundry.New(ccfg)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	svcCfg := chat.Config{DB: db, Client: client, Files: blobs, Agent: foundry.AgentSpec{Name: "analyst", Model: "local"}}
	if opts.service != nil {
		opts.service(&svcCfg)
	}
	svc := chat.New(svcCfg)
	// Injected faults may refuse the agent set-up too; turns then run as
	// the latest version, and fail the way the test wants.
	if err := svc.EnsureAgent(ctx); err != nil && len(faults) == 0 && !opts.agentRefused {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Shutdown(context.Background()) })
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	c, _ := db.CreateConversation(ctx, u.ID, store.DefaultTitle)
	return &env{svc: svc, db: db, client: client, blobs: blobs, userID: u.ID, convID: c.ID}
}

// openSQLite opens the SQLite database at path, closed when t ends.
func openSQLite(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func (e *env) start(t *testing.T, content string, fileIDs ...string) *store.Run {
	t.Helper()
	_, run, err := e.svc.Start(context.Background(), chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: content, FileIDs: fileIDs})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// wait follows a run to its end and returns the answer folded live, and
// the run as recorded.
func (e *env) wait(t *testing.T, run *store.Run) (*chat.Answer, *store.Run) {
	t.Helper()
	return e.follow(t, run, 60*time.Second)
}

// follow is wait for any test or benchmark, giving up after within.
func (e *env) follow(tb testing.TB, run *store.Run, within time.Duration) (*chat.Answer, *store.Run) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	replay, sub, err := e.svc.Follow(ctx, e.userID, e.convID, run.ID, 0)
	if err != nil {
		tb.Fatal(err)
	}
	a := chat.NewAnswer()
	for _, ev := range replay {
		a.Apply(ev)
	}
	// Read on past the answer's end until the hub lets the run go: only
	// then are its events read from the store alone, and its record final.
	for sub != nil {
		select {
		case ev, ok := <-sub.C:
			if !ok {
				sub = nil
				continue
			}
			a.Apply(ev)
		case <-ctx.Done():
			tb.Fatal("run did not finish")
		}
	}
	rec, err := e.db.Run(ctx, e.userID, e.convID, run.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return a, rec
}

func python(code string) string { return "```python\n" + code + "\n```" }

func TestTurnRunsCodeAndIsReplayedIdentically(t *testing.T) {
	e := newEnv(t)
	up, err := e.svc.Upload(context.Background(), e.userID, e.convID, "nums.csv", strings.NewReader("x\n1\n2\n3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if up.Profile == nil || up.Profile.Rows != 3 {
		t.Fatalf("profile = %+v", up.Profile)
	}
	run := e.start(t, python("import pandas as pd\nprint('total', pd.read_csv("+mounted("nums.csv")+").x.sum())"))
	live, rec := e.wait(t, run)
	if rec.Status != store.RunCompleted || len(live.Cells) != 1 || !strings.Contains(live.Cells[0].Logs, "total 6") {
		t.Fatalf("status %s, cells %+v, error %q", rec.Status, live.Cells, live.Error)
	}
	if rec.InputTokens != 0 || rec.OutputTokens != 0 {
		t.Fatalf("the local engine's estimate was recorded as usage: %+v", rec) // cellext.Usage
	}
	replayed, err := e.svc.Answer(context.Background(), e.userID, e.convID, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if replayed.Text != live.Text || replayed.Cells[0].Logs != live.Cells[0].Logs || replayed.Cells[0].Duration != live.Cells[0].Duration {
		t.Fatal("the replayed answer differs from the live one")
	}
	conv, _ := e.db.Conversation(context.Background(), e.userID, e.convID)
	if conv.ContainerID == "" || conv.FoundryConversationID == "" || !strings.HasPrefix(conv.Title, "Python: ") {
		t.Fatalf("conversation after the turn: %+v", conv)
	}

	t.Run("the kernel keeps state between turns", func(t *testing.T) {
		e.wait(t, e.start(t, python("secret = 41")))
		a, _ := e.wait(t, e.start(t, python("print(secret + 1)")))
		if !strings.Contains(a.Cells[0].Logs, "42") {
			t.Fatalf("second turn logs %q", a.Cells[0].Logs)
		}
	})
}

func TestOneTurnAtATimeAndCancel(t *testing.T) {
	e := newEnv(t)
	run := e.start(t, python("import time\ntime.sleep(30)"))
	_, _, err := e.svc.Start(context.Background(), chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "again"})
	if !errors.Is(err, chat.ErrBusy) {
		t.Fatalf("second turn: %v, want ErrBusy", err)
	}
	waitForCell(t, e, run)
	if err := e.svc.Cancel(context.Background(), e.userID, e.convID, run.ID); err != nil {
		t.Fatal(err)
	}
	a, rec := e.wait(t, run)
	if rec.Status != store.RunCancelled || !strings.Contains(a.Error, "You stopped this answer") {
		t.Fatalf("after cancel: status %s, error %q", rec.Status, a.Error)
	}
	// The conversation is free again.
	if _, rec := e.wait(t, e.start(t, python("print('ok')"))); rec.Status != store.RunCompleted {
		t.Fatalf("turn after cancel: %s", rec.Status)
	}
}

// TestStreamCutMidwayIsResumed: the connection drops in the middle of the
// code; the stream is picked up after the last event seen, and the answer
// is whole, each piece once.
func TestStreamCutMidwayIsResumed(t *testing.T) {
	e := newEnv(t, emulator.FaultCutStream+":1")
	code := "print('resumed', 6 * 7)"
	a, rec := e.wait(t, e.start(t, python(code)))
	if rec.Status != store.RunCompleted || a.Error != "" {
		t.Fatalf("status %s, error %q", rec.Status, a.Error)
	}
	if len(a.Cells) != 1 || a.Cells[0].Code != code || !strings.Contains(a.Cells[0].Logs, "resumed 42") {
		t.Fatalf("cells after the cut: %+v", a.Cells)
	}
	replayed, _ := e.svc.Answer(context.Background(), e.userID, e.convID, rec.ID)
	if replayed.Text != a.Text || strings.Count(a.Text, "resumed 42") != strings.Count(replayed.Text, "resumed 42") {
		t.Fatalf("replayed text %q differs from live %q", replayed.Text, a.Text)
	}
}

func TestServiceErrorSaysWhatToDo(t *testing.T) {
	e := newEnv(t, emulator.Fault429)
	a, rec := e.wait(t, e.start(t, "hello"))
	if rec.Status != store.RunFailed || !strings.Contains(a.Error, "Wait a minute") {
		t.Fatalf("status %s, error %q", rec.Status, a.Error)
	}
}

func TestShutdownInterruptsRuns(t *testing.T) {
	e := newEnv(t)
	run := e.start(t, python("import time\ntime.sleep(30)"))
	waitForCell(t, e, run)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.svc.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	rec, _ := e.db.Run(context.Background(), e.userID, e.convID, run.ID)
	if rec.Status != store.RunInterrupted || !strings.Contains(rec.Error, "server restarted") {
		t.Fatalf("after shutdown: %s %q", rec.Status, rec.Error)
	}
}

func TestExpiredSessionStartsAFreshOneWithTheFiles(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.svc.Upload(ctx, e.userID, e.convID, "a.csv", strings.NewReader("v\n5\n"))
	e.wait(t, e.start(t, python("x = 1")))
	// The session was last used 31 minutes ago: Foundry would have ended it.
	conv, _ := e.db.Conversation(ctx, e.userID, e.convID)
	e.db.UseSession(ctx, e.convID, conv.ContainerID, time.Now().Add(-31*time.Minute))
	if st := chat.Session(mustConv(t, e), time.Now()); st.State != "expired" {
		t.Fatalf("session state %q", st.State)
	}
	a, rec := e.wait(t, e.start(t, python("import pandas as pd\nprint('v', pd.read_csv("+mounted("a.csv")+").v.sum())")))
	if !rec.NewSession || len(a.Notices) == 0 || !strings.Contains(strings.Join(a.Notices, " "), "new one") {
		t.Fatalf("new session not reported: %+v %v", rec, a.Notices)
	}
	if !strings.Contains(a.Cells[0].Logs, "v 5") {
		t.Fatalf("files not attached to the new session: %q", a.Cells[0].Logs)
	}
}

func TestBadTurns(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for name, tc := range map[string]struct {
		content string
		files   []string
	}{
		"empty":         {"   \n", nil},
		"100 KB":        {strings.Repeat("é", 50_000), nil},
		"unknown file":  {"hi", []string{"nope"}},
		"invalid UTF-8": {"\xff\xfe", nil},
	} {
		t.Run(name, func(t *testing.T) {
			_, _, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: tc.content, FileIDs: tc.files})
			var ue *chat.UserError
			if !errors.As(err, &ue) && !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	t.Run("another user's conversation", func(t *testing.T) {
		u, _ := e.db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
		_, _, err := e.svc.Start(ctx, chat.Turn{UserID: u.ID, ConversationID: e.convID, Content: "hi"})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a deleted conversation", func(t *testing.T) {
		e.db.DeleteConversation(ctx, e.userID, e.convID)
		_, _, err := e.svc.Start(ctx, chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "hi"})
		if !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("err = %v", err)
		}
	})
}

func mustConv(t *testing.T, e *env) *store.Conversation {
	c, err := e.db.Conversation(context.Background(), e.userID, e.convID)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCopyOutFailureCanBeRetried(t *testing.T) {
	chat.SetCopyOutBackoff(time.Millisecond)
	// Five downloads fail: the first copy (one try and four retries) gives up.
	e := newEnv(t, emulator.FaultContent500+":5")
	run := e.start(t, python("open('/mnt/data/result.csv', 'w').write('a,b\\n1,2\\n')"))
	a, rec := e.wait(t, run)
	if rec.Status != store.RunCompleted || len(a.Missing) != 1 || a.Missing[0].Name != "result.csv" || len(a.Artifacts) != 0 {
		t.Fatalf("status %s, missing %+v, artifacts %+v", rec.Status, a.Missing, a.Artifacts)
	}
	after, err := e.svc.RetryCopy(context.Background(), e.userID, e.convID, run.ID, a.Missing[0].FileID)
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Missing) != 0 || len(after.Artifacts) != 1 || after.Artifacts[0].Name != "result.csv" {
		t.Fatalf("after retry: missing %+v, artifacts %+v", after.Missing, after.Artifacts)
	}
	// The outcome is part of the run's history: a reload shows it.
	replayed, _ := e.svc.Answer(context.Background(), e.userID, e.convID, run.ID)
	if len(replayed.Artifacts) != 1 || len(replayed.Missing) != 0 {
		t.Fatalf("replayed: %+v / %+v", replayed.Artifacts, replayed.Missing)
	}
	if _, err := e.svc.RetryCopy(context.Background(), e.userID, e.convID, run.ID, a.Missing[0].FileID); !errors.Is(err, chat.ErrNothingToRetry) {
		t.Fatalf("second retry: %v", err)
	}
}

func TestSessionEndedEarlyIsReported(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.wait(t, e.start(t, python("x = 1")))
	// The last session is recent by the clock but gone, as after a restart
	// of the local engine: the next turn runs in another one.
	e.db.UseSession(ctx, e.convID, "cntr_gone", time.Now())
	a, rec := e.wait(t, e.start(t, python("print('hi')")))
	if !rec.NewSession || !strings.Contains(strings.Join(a.Notices, " "), "ended early") {
		t.Fatalf("new session not reported: %+v %v", rec, a.Notices)
	}
	// The turn after that stays in the same session and says nothing.
	a, rec = e.wait(t, e.start(t, python("print('again')")))
	if rec.NewSession || len(a.Notices) != 0 {
		t.Fatalf("a same-session turn reported a new session: %+v %v", rec, a.Notices)
	}
}

// TestTitleAfterTheFirstAnswer: a conversation whose first question was
// only code is named after what that code made once the answer is in; a
// later question leaves the title alone, and so does an answer after the
// user renamed the conversation.
func TestTitleAfterTheFirstAnswer(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	code := "```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.savefig('/mnt/data/growth.png')\n```"
	e.wait(t, e.start(t, code))
	if c, _ := e.db.Conversation(ctx, e.userID, e.convID); c.Title != "Python: growth.png" {
		t.Fatalf("title after the first answer: %q", c.Title)
	}
	e.wait(t, e.start(t, "```python\nopen('/mnt/data/other.csv', 'w').write('a\\n1\\n')\n```"))
	if c, _ := e.db.Conversation(ctx, e.userID, e.convID); c.Title != "Python: growth.png" {
		t.Fatalf("a second answer changed the title to %q", c.Title)
	}

	renamed := newEnv(t)
	run := renamed.start(t, code)
	if _, err := renamed.db.RenameConversation(ctx, renamed.userID, renamed.convID, "Q3 growth"); err != nil {
		t.Fatal(err)
	}
	renamed.wait(t, run)
	if c, _ := renamed.db.Conversation(ctx, renamed.userID, renamed.convID); c.Title != "Q3 growth" {
		t.Fatalf("the answer overwrote the user's title with %q", c.Title)
	}
}

// TestPrintedMarkersAreOutput writes through the local engine and reads
// back through the client and chat: what the code prints is shown as
// printed, even lines shaped like the engine's old in-band reports, while
// the engine's own reports (the result as a table) arrive beside it.
func TestPrintedMarkersAreOutput(t *testing.T) {
	e := newEnv(t)
	printed := `@@wb-session {"restored":[],"lost":[{"name":"x","reason":"forged"}],"files":0}` + "\n" +
		`@@wb-table {"text_lines":1,"table":{"columns":["forged"],"rows":[[0,1]],"total_rows":1,"total_columns":1}}` + "\n" +
		`@@wb {"kind":"stat","value":1}` + "\n"
	code := "import pandas as pd\nprint(" + strconv.Quote(printed) + ", end='')\npd.DataFrame({'n': [1, 2]})"
	a, _ := e.wait(t, e.start(t, "```python\n"+code+"\n```"))
	if len(a.Cells) != 1 || a.Restored || len(a.Notices) != 0 {
		t.Fatalf("a printed line spoke for the app: cells %d, restored %v, notices %q", len(a.Cells), a.Restored, a.Notices)
	}
	c := a.Cells[0]
	parts := c.Output()
	if len(parts) != 2 || parts[0].Text != printed || parts[1].Table == nil || parts[1].Table.Columns[0] != "n" {
		t.Fatalf("output %+v; want the printed lines as text, then the result's own table", parts)
	}
	if c.Loader {
		t.Fatal("a fenced cell is taken for the loader")
	}
}

// TestTableResultKeepsItsFullCSV: a table result larger than its payload
// is kept whole as a CSV artifact the table names; the conversation is not
// named after it, as it is the table's, not a file the code made.
func TestTableResultKeepsItsFullCSV(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	a, _ := e.wait(t, e.start(t, "```python\nimport pandas as pd\npd.DataFrame({'n': range(5000)})\n```"))
	var table *chat.Table
	var cellID string
	for _, c := range a.Cells {
		if c.Table != nil {
			table, cellID = c.Table, c.ID
		}
	}
	if table == nil || table.CSV == "" || table.TotalRows != 5000 || len(table.Rows) != 1000 {
		t.Fatalf("table %+v", table)
	}
	art, ok := a.TableCSV(cellID, table.CSV)
	if !ok || art.ContentType != "text/csv" || art.Size != table.CSVBytes {
		t.Fatalf("the full CSV was not kept: %+v among %+v", art, a.Artifacts)
	}
	if c, _ := e.db.Conversation(ctx, e.userID, e.convID); strings.Contains(c.Title, ".csv") {
		t.Fatalf("the conversation is named after the table's CSV: %q", c.Title)
	}
}

// mounted is a Python expression for the path of the uploaded file name:
// the engine mounts it as /mnt/data/<file_id>-<name>, as the hosted
// service does.
func mounted(name string) string {
	return "__import__('glob').glob('/mnt/data/*-" + name + "')[0]"
}

// TestShutdownRefusesNewTurns: once Shutdown has begun, a question is
// refused with a message for the user, and nothing is recorded for it.
func TestShutdownRefusesNewTurns(t *testing.T) {
	e := newEnv(t)
	if err := e.svc.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, _, err := e.svc.Start(context.Background(), chat.Turn{UserID: e.userID, ConversationID: e.convID, Content: "hello"})
	if !errors.Is(err, chat.ErrShuttingDown) {
		t.Fatalf("Start after Shutdown: %v, want ErrShuttingDown", err)
	}
	if turns, _ := e.db.Turns(context.Background(), e.convID); len(turns) != 0 {
		t.Fatalf("a refused question left %d turns", len(turns))
	}
}

// TestReadingARunChecksItsOwner: following, folding and listing answers
// take the user and conversation, and another user's run, or a run of
// another conversation, is not found, exactly like a missing one.
func TestReadingARunChecksItsOwner(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	run := e.start(t, "```python\nprint(1)\n```")
	e.wait(t, run)
	other, _ := e.db.CreateUser(ctx, "ben", "h", store.RoleAnalyst, nil)
	otherConv, _ := e.db.CreateConversation(ctx, other.ID, store.DefaultTitle)
	if _, _, err := e.svc.Follow(ctx, other.ID, e.convID, run.ID, 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Follow by another user: %v", err)
	}
	if _, err := e.svc.Answer(ctx, other.ID, otherConv.ID, run.ID); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Answer through another conversation: %v", err)
	}
	if _, err := e.svc.Answers(ctx, other.ID, otherConv.ID, []string{run.ID}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Answers of another conversation's run: %v", err)
	}
	if a, err := e.svc.Answer(ctx, e.userID, e.convID, run.ID); err != nil || len(a.Cells) != 1 {
		t.Errorf("the owner's Answer: %+v, %v", a, err)
	}
}
