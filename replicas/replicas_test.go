package replicas

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/migrations"
)

const (
	adminName     = "ops"
	adminPassword = "a long enough admin password"
)

// TestTwoReplicas is issue 29's acceptance test. One fixture serves every
// subtest; D kills a replica and starts it again, F kills one for good,
// so it runs last.
func TestTwoReplicas(t *testing.T) {
	c := startCluster(t)
	parent := t
	r1, r2 := c.replicas[0].url, c.replicas[1].url
	admin := newBrowser(t)
	admin.setUp(r1, adminName, adminPassword)

	t.Run("G_OneMigrationOneAgentVersion", func(t *testing.T) { testMigratedOnce(t, c) })
	t.Run("A_SessionsAcrossReplicas", func(t *testing.T) { testSessions(t, r1, r2) })
	t.Run("B_BlobsShared", func(t *testing.T) { testBlobs(t, c, admin) })
	t.Run("C_LiveStreamOnTheOtherReplica", func(t *testing.T) { testLiveStream(t, c, admin) })
	t.Run("E_CancelFromTheOtherReplica", func(t *testing.T) { testCancel(t, c, admin) })
	t.Run("D_AdoptedAfterKill", func(t *testing.T) { testAdoption(t, parent, c, admin) })
	t.Run("H_SharedSignInThrottle", func(t *testing.T) { testThrottle(t, r1, r2) })
	t.Run("F_OnePurgeLeader", func(t *testing.T) { testPurgeLeader(t, c, admin) })
}

// G: both replicas started together on an empty database: goose recorded
// each migration once (its advisory lock let one replica migrate), both
// serve, and the agent got one version (store.Exclusive).
func testMigratedOnce(t *testing.T, c *cluster) {
	want, err := fs.Glob(migrations.Postgres, "*.sql")
	if err != nil || len(want) == 0 {
		t.Fatalf("no PostgreSQL migrations embedded: %v", err)
	}
	rows, err := c.db.Query(`SELECT version_id, count(*) FROM goose_db_version WHERE version_id > 0 GROUP BY version_id ORDER BY version_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	versions := 0
	for rows.Next() {
		var v, n int64
		if err := rows.Scan(&v, &n); err != nil {
			t.Fatal(err)
		}
		versions++
		if n != 1 {
			t.Errorf("migration %d recorded %d times, want once", v, n)
		}
	}
	if versions != len(want) {
		t.Errorf("%d migrations recorded, want the %d of migrations/postgres", versions, len(want))
	}
	for _, r := range c.replicas {
		if resp, err := http.Get(r.url + "/readyz"); err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("replica %d not ready: %v", r.n, err)
		} else {
			resp.Body.Close()
		}
	}
	var list struct {
		Data []struct{ Version string }
	}
	if st := c.emulatorCall(t, http.MethodGet, "/agents/"+agentName+"/versions?api-version=v1", "", &list); st != http.StatusOK || len(list.Data) != 1 {
		t.Errorf("agent versions at the emulator: %d, %+v; want exactly one", st, list.Data)
	}
}

// A: a session opened on one replica is open on the other (the same
// cookie, the same user on the page); a sign-out on either ends it on both.
func testSessions(t *testing.T, r1, r2 string) {
	for _, dir := range [][2]string{{r1, r2}, {r2, r1}} {
		in, other := dir[0], dir[1]
		b := newBrowser(t)
		if st := b.signIn(in, adminName, adminPassword); st != http.StatusSeeOther {
			t.Fatalf("sign-in on %s: %d, want 303", in, st)
		}
		if p := b.get(other, "/"); p.status != http.StatusOK || !strings.Contains(p.body, adminName) {
			t.Fatalf("GET / on %s with the cookie from %s: %d, want 200 and the user's page", other, in, p.status)
		}
		copied := b.copySession(in)
		b.signOut(other)
		if p := copied.get(in, "/"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/login") {
			t.Errorf("after a sign-out on %s, GET / on %s with the old cookie: %d to %q, want a redirect to /login",
				other, in, p.status, p.location)
		}
		if p := copied.get(other, "/"); p.status != http.StatusSeeOther || !strings.HasPrefix(p.location, "/login") {
			t.Errorf("after a sign-out on %s, GET / there with the old cookie: %d to %q, want a redirect to /login", other, p.status, p.location)
		}
	}
}

// B: a file uploaded on replica 1 downloads from replica 2 with the same
// sha256, and its bytes are in neither DATA_DIR.
func testBlobs(t *testing.T, c *cluster, admin *browser) {
	r1, r2 := c.replicas[0].url, c.replicas[1].url
	content := []byte("date,region,revenue\n" + strings.Repeat("2026-01-01,North,1200.5\n2026-01-02,South,980\n", 5000))
	sum := sha256.Sum256(content)
	sha := fmt.Sprintf("%x", sum)
	conv := admin.newConversation(r1)
	fileID := admin.upload(r1, conv, "sales.csv", content)
	share := admin.sharePath(r1, conv)
	p := newBrowser(t).get(r2, share+"/files/"+fileID)
	if p.status != http.StatusOK || sha256.Sum256([]byte(p.body)) != sum {
		t.Errorf("download from replica 2: %d, %d bytes, sha256 %x; want 200 and %s", p.status, len(p.body), sha256.Sum256([]byte(p.body)), sha)
	}
	for _, r := range c.replicas {
		files, copies := walkDataDir(t, r.dataDir, content, sha)
		t.Logf("replica %d DATA_DIR holds: %v", r.n, files)
		if len(copies) > 0 {
			t.Errorf("replica %d: the upload's bytes landed in DATA_DIR: %v", r.n, copies)
		}
	}
}

// walkDataDir lists every file under dir, and those that hold content or
// are named after its digest.
func walkDataDir(t *testing.T, dir string, content []byte, sha string) (all, copies []string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		all = append(all, rel)
		if strings.Contains(d.Name(), sha) {
			copies = append(copies, rel)
		} else if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, content[:4096]) {
			copies = append(copies, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return all, copies
}

// ticks is how many numbered lines the ticker cell prints.
const ticks = 140

// ticker is a cell that prints a numbered line every 80 ms, flushing each:
// the engine passes on output as it comes, a few lines an event when they
// come faster (every 40 ms gave two lines an event), so that its run stores well
// over a hundred events in 12 s.
var ticker = fmt.Sprintf("```python\nimport time\nfor i in range(%d):\n    print('tick %%03d' %% i, flush=True)\n    time.sleep(0.08)\n```", ticks)

// C: a turn started on replica 1 streams live to a reader on replica 2:
// every stored event reaches the reader (p95 store to reader < 500 ms over
// at least 100 events), in order with no gap, and the stream ends with
// done.
func testLiveStream(t *testing.T, c *cluster, admin *browser) {
	r1, r2 := c.replicas[0].url, c.replicas[1].url
	conv := admin.newConversation(r1)
	run := admin.startTurn(r1, conv, ticker)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	got := collect(admin.follow(ctx, r2, conv, run), 2*time.Minute)
	stored := c.storedEventTimes(t, run)
	checkLiveStream(t, got, stored)
}

// storedEventTimes is when each event of the run was stored, by sequence
// number, from the events' own at field.
func (c *cluster) storedEventTimes(t *testing.T, run string) map[int64]time.Time {
	t.Helper()
	rows, err := c.db.Query(`SELECT seq, (data::jsonb ->> 'at') FROM run_events WHERE run_id = $1 ORDER BY seq`, run)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]time.Time{}
	for rows.Next() {
		var seq int64
		var at string
		if err := rows.Scan(&seq, &at); err != nil {
			t.Fatal(err)
		}
		ts, err := time.Parse(time.RFC3339Nano, at)
		if err != nil {
			t.Fatalf("event %d: at %q: %v", seq, at, err)
		}
		out[seq] = ts
	}
	return out
}

// checkLiveStream checks what a reader got against what was stored. An
// update carries the answer up to its id, so an event reached the reader
// with the first update whose id is at least its sequence number.
func checkLiveStream(t *testing.T, got []sseEvent, stored map[int64]time.Time) {
	t.Helper()
	if len(got) == 0 || got[len(got)-1].name != "done" {
		t.Fatalf("the stream did not end with done: %d events, last %+v", len(got), lastOf(got))
	}
	if st := got[len(got)-1].data; st != "completed" {
		t.Errorf("done says %q, want completed", st)
	}
	n := int64(len(stored))
	if n < 100 {
		t.Fatalf("%d events stored, want at least 100", n)
	}
	var lat []time.Duration
	next := 0
	for seq := int64(1); seq <= n; seq++ {
		at, ok := stored[seq]
		if !ok {
			t.Fatalf("stored events skip %d", seq)
		}
		for next < len(got) && got[next].id < seq {
			if next > 0 && got[next].id < got[next-1].id {
				t.Fatalf("the stream went back from %d to %d", got[next-1].id, got[next].id)
			}
			next++
		}
		if next == len(got) {
			t.Fatalf("event %d never reached the reader (last id %d)", seq, got[len(got)-1].id)
		}
		lat = append(lat, got[next].at.Sub(at))
	}
	if p := percentile(lat, 95); p >= 500*time.Millisecond {
		t.Errorf("p95 store to reader %v over %d events, want under 500 ms", p, n)
	} else {
		t.Logf("p95 store to reader %v over %d events", p, n)
	}
	last := got[len(got)-2].data
	for i := range ticks {
		if !strings.Contains(last, fmt.Sprintf("tick %03d", i)) {
			t.Fatalf("the final answer lacks tick %03d", i)
		}
	}
}

func lastOf(es []sseEvent) sseEvent {
	if len(es) == 0 {
		return sseEvent{}
	}
	return es[len(es)-1]
}

// sleeper is a cell that prints, then sleeps for a minute: a run that
// only a cancel ends soon.
const sleeper = "```python\nimport time\nprint('started', flush=True)\ntime.sleep(60)\nprint('never')\n```"

// E: a Stop pressed on replica 2 ends a run that replica 1 runs within 5 s.
func testCancel(t *testing.T, c *cluster, admin *browser) {
	r1, r2 := c.replicas[0].url, c.replicas[1].url
	conv := admin.newConversation(r1)
	run := admin.startTurn(r1, conv, sleeper)
	if _, ok := waitFor(time.Minute, func() bool { return c.runPrinted(t, run, "started") }); !ok {
		t.Fatal("the run did not start its cell within a minute")
	}
	if p := admin.cancelTurn(r2, conv, run); p.status >= 300 {
		t.Fatalf("cancel on replica 2: %d: %.300s", p.status, p.body)
	}
	took, ok := waitFor(5*time.Second, func() bool { return c.runStatus(t, run) != "running" })
	if !ok {
		t.Fatalf("the run is still %s 5 s after the cancel on replica 2", c.runStatus(t, run))
	}
	t.Logf("the run ended (%s) %v after the cancel on the other replica", c.runStatus(t, run), took.Round(time.Millisecond))
}

func (c *cluster) runStatus(t *testing.T, run string) string {
	t.Helper()
	var st string
	if err := c.db.QueryRow(`SELECT status FROM runs WHERE id = $1`, run).Scan(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// runPrinted reports whether the run's stored output (not its code, which
// holds the same words) holds text.
func (c *cluster) runPrinted(t *testing.T, run, text string) bool {
	t.Helper()
	var n int
	if err := c.db.QueryRow(`SELECT count(*) FROM run_events WHERE run_id = $1 AND type IN ('logs', 'logs_delta') AND strpos(data, $2) > 0`, run, text).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}

// H: failed sign-ins for one account from one address, split across both
// replicas, reach the one limit: after auth's three free failures the
// fourth attempt is throttled, whichever replica it reaches.
func testThrottle(t *testing.T, r1, r2 string) {
	b := newBrowser(t)
	for i := range 4 {
		base := []string{r1, r2}[i%2]
		st := b.signIn(base, "mallory", "not the password")
		want := http.StatusUnauthorized
		if i == 3 {
			want = http.StatusTooManyRequests
		}
		if st != want {
			t.Fatalf("failed sign-in %d (replica %d): %d, want %d", i+1, i%2+1, st, want)
		}
	}
}

// percentile is the p-th percentile of ds (nearest rank).
func percentile(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s[(len(s)*p+99)/100-1]
}
