package replicas

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
)

// counted is a cell that prints numbered lines slowly, then saves a file:
// long enough to kill its replica halfway, with an artifact to keep once.
const counted = "```python\nimport time\nfor i in range(30):\n    print('count %03d' % i, flush=True)\n    time.sleep(0.15)\n" +
	"open('/mnt/data/counts.csv', 'w').write('n\\n' + '\\n'.join(str(i) for i in range(30)))\nprint('saved counts.csv')\n```"

// D: kill -9 of the replica that runs a turn, after three deltas: the
// other adopts the run within the lease + 5 s and reads the response on;
// the stored events have no gap and no repeat, a reader following on the
// other replica through the kill gets the answer a single replica gives
// (every line once), and the file it saved is stored once. The killed replica is started again for the subtests
// that follow, under the parent test, which stops it at the end.
func testAdoption(t, parent *testing.T, c *cluster, admin *browser) {
	r1, r2 := c.replicas[0], c.replicas[1]
	conv := admin.newConversation(r1.url)
	run := admin.startTurn(r1.url, conv, counted)
	// A reader on the other replica follows the run live, through the kill.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	live := admin.follow(ctx, r2.url, conv, run)
	if _, ok := waitFor(time.Minute, func() bool { return c.runPrinted(t, run, "count 002") }); !ok {
		t.Fatal("the cell did not print three lines within a minute")
	}
	owner := c.runOwner(t, run)
	r1.p.kill()
	killed := time.Now()
	defer func() {
		r1.start(parent, c.webBin, c.replicaEnv(r1))
		r1.waitReady(t)
	}()
	took, ok := waitFor(chat.DefaultLeaseTerm+5*time.Second, func() bool {
		o := c.runOwner(t, run)
		return o != "" && o != owner
	})
	if !ok {
		t.Fatalf("no replica adopted the run within %v of the kill (owner %q)", chat.DefaultLeaseTerm+5*time.Second, c.runOwner(t, run))
	}
	t.Logf("adopted %v after the kill", took.Round(time.Millisecond))
	if _, ok := waitFor(2*time.Minute, func() bool { return c.runStatus(t, run) != "running" }); !ok {
		t.Fatal("the adopted run did not end within two minutes")
	}
	if st := c.runStatus(t, run); st != "completed" {
		t.Fatalf("the adopted run ended %s, want completed", st)
	}
	c.checkContiguous(t, run)
	got := collect(live, time.Minute)
	if len(got) < 2 || got[len(got)-1].name != "done" {
		t.Fatalf("the live stream on the other replica: %d events, last %+v", len(got), lastOf(got))
	}
	for i := 1; i < len(got)-1; i++ {
		if got[i].id < got[i-1].id {
			t.Fatalf("the live stream went back from %d to %d", got[i-1].id, got[i].id)
		}
	}
	answer := got[len(got)-2].data
	for i := range 30 {
		if n := strings.Count(answer, fmt.Sprintf("count %03d", i)); n != 1 {
			t.Fatalf("count %03d shows %d times in the adopted answer, want once", i, n)
		}
	}
	if n := c.artifactsNamed(t, run, "counts.csv"); n != 1 {
		t.Fatalf("counts.csv stored %d times, want once", n)
	}
	t.Logf("run ended %v after the kill", time.Since(killed).Round(time.Millisecond))
}

func (c *cluster) runOwner(t *testing.T, run string) string {
	t.Helper()
	var owner string
	if err := c.db.QueryRow(`SELECT owner FROM runs WHERE id = $1`, run).Scan(&owner); err != nil {
		t.Fatal(err)
	}
	return owner
}

// checkContiguous fails unless the run's events are numbered 1..n.
func (c *cluster) checkContiguous(t *testing.T, run string) {
	t.Helper()
	var n, low, high int64
	if err := c.db.QueryRow(`SELECT count(*), min(seq), max(seq) FROM run_events WHERE run_id = $1`, run).Scan(&n, &low, &high); err != nil {
		t.Fatal(err)
	}
	if low != 1 || high != n {
		t.Fatalf("events numbered %d..%d, %d of them: a gap", low, high, n)
	}
}

func (c *cluster) artifactsNamed(t *testing.T, run, name string) int {
	t.Helper()
	var n int
	if err := c.db.QueryRow(`SELECT count(*) FROM artifacts WHERE run_id = $1 AND name = $2`, run, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
