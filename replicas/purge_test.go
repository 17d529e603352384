package replicas

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// purgedConversations is how many conversations with a Foundry
// conversation each F purges: 50 queued remote deletions.
const purgedConversations = 50

// F: exactly one replica leads the purge; 50 queued remote deletions are
// each made once at the emulator; a SIGKILL of the leader hands the lead
// to the other replica within 15 s. It kills a replica, so it runs last.
func testPurgeLeader(t *testing.T, c *cluster, admin *browser) {
	leader, follower := c.purgeLeader(t)
	t.Logf("replica %d leads the purge", leader.n)

	convs, remote := c.conversationsWithRemotes(t, admin, purgedConversations)
	form := url.Values{"dry_run": {"0"}, "conversation_id": convs}
	// Queued on the other replica: the leader's worker is woken by the
	// outbox's notification, well before its idle poll (a minute).
	p := admin.post(follower.url, "/admin/purge", form)
	purgeID, ok := strings.CutPrefix(p.location, "/admin/purges/")
	if p.status != http.StatusSeeOther || !ok {
		t.Fatalf("POST /admin/purge: %d to %q: %.300s", p.status, p.location, p.body)
	}
	if _, ok := waitFor(30*time.Second, func() bool { return c.pendingOutbox(t, purgeID) == 0 }); !ok {
		t.Fatalf("%d outbox entries still pending 30 s after the purge", c.pendingOutbox(t, purgeID))
	}
	c.checkDeletedOnce(t, purgeID, remote)

	leader.p.kill()
	took, ok := waitFor(15*time.Second, func() bool { l, _ := follower.leads("purge"); return l })
	if !ok {
		t.Fatalf("replica %d does not lead 15 s after replica %d was killed", follower.n, leader.n)
	}
	t.Logf("replica %d took the lead %v after replica %d was killed", follower.n, took.Round(time.Millisecond), leader.n)
}

// purgeLeader waits until exactly one replica says it leads the purge, and
// returns it and the other.
func (c *cluster) purgeLeader(t *testing.T) (leader, follower *replica) {
	t.Helper()
	var state string
	_, ok := waitFor(10*time.Second, func() bool {
		l1, ok1 := c.replicas[0].leads("purge")
		l2, ok2 := c.replicas[1].leads("purge")
		state = strings.Join([]string{yesNo(l1, ok1), yesNo(l2, ok2)}, ", ")
		switch {
		case !ok1 || !ok2 || l1 == l2:
			return false
		case l1:
			leader, follower = c.replicas[0], c.replicas[1]
		default:
			leader, follower = c.replicas[1], c.replicas[0]
		}
		return true
	})
	if !ok {
		t.Fatalf("workbench_leader{task=\"purge\"} on replicas 1, 2: %s; want exactly one 1", state)
	}
	return leader, follower
}

func yesNo(leads, ok bool) string {
	switch {
	case !ok:
		return "no answer"
	case leads:
		return "1"
	}
	return "0"
}

// conversationsWithRemotes creates n conversations through the app, half
// on each replica, each with a conversation of its own at the emulator, and
// returns their ids and the emulator's. The link is written into the
// conversation's row, as a first turn would write it: n turns would take a
// sandbox kernel each, and the link is all a purge reads.
func (c *cluster) conversationsWithRemotes(t *testing.T, admin *browser, n int) (convs, remote []string) {
	t.Helper()
	for i := range n {
		conv := admin.newConversation(c.replicas[i%2].url)
		var fc struct{ ID string }
		if st := c.emulatorCall(t, http.MethodPost, "/openai/v1/conversations", `{"metadata":{"app":"workbench"}}`, &fc); st != http.StatusOK || fc.ID == "" {
			t.Fatalf("create a conversation at the emulator: %d", st)
		}
		if _, err := c.db.Exec(`UPDATE conversations SET foundry_conversation_id = $1 WHERE id = $2`, fc.ID, conv); err != nil {
			t.Fatal(err)
		}
		convs, remote = append(convs, conv), append(remote, fc.ID)
	}
	return convs, remote
}

func (c *cluster) pendingOutbox(t *testing.T, purgeID string) int {
	t.Helper()
	var n int
	if err := c.db.QueryRow(`SELECT count(*) FROM outbox WHERE purge_id = $1 AND done_at = 0`, purgeID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkDeletedOnce checks each remote conversation: one outbox entry, done
// at its first attempt as deleted (not "already gone", which a second
// worker would have found), one DELETE at the emulator, and gone there.
func (c *cluster) checkDeletedOnce(t *testing.T, purgeID string, remote []string) {
	t.Helper()
	entries := map[string]int{}
	rows, err := c.db.Query(`SELECT target, attempts, result FROM outbox WHERE purge_id = $1 AND kind = 'foundry_conversation'`, purgeID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var target, result string
		var attempts int
		if err := rows.Scan(&target, &attempts, &result); err != nil {
			t.Fatal(err)
		}
		entries[target]++
		if attempts != 0 || result != "deleted" {
			t.Errorf("outbox entry for %s: %d failed attempts, result %q; want done at once, deleted", target, attempts, result)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	deletes := map[string]int{}
	for key, n := range c.emulatorRequests(t) {
		method, rest, _ := strings.Cut(key, " ")
		path, _, _ := strings.Cut(rest, " ")
		if _, id, ok := strings.Cut(path, "/conversations/"); ok && method == http.MethodDelete {
			deletes[id] += n
		}
	}
	for _, id := range remote {
		if entries[id] != 1 || deletes[id] != 1 {
			t.Errorf("conversation %s: %d outbox entries, %d DELETEs at the emulator; want one of each", id, entries[id], deletes[id])
		}
		if st := c.emulatorCall(t, http.MethodGet, "/openai/v1/conversations/"+id, "", nil); st != http.StatusNotFound {
			t.Errorf("conversation %s at the emulator after the purge: %d, want 404", id, st)
		}
	}
}
