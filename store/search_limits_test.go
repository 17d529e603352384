package store_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// seedSlowSearch gives ana enough text that a query of many prefix terms is
// dear (on an unbounded search 20 × "e" takes seconds) and returns her id.
func seedSlowSearch(t *testing.T, db *store.DB) string {
	t.Helper()
	ana, _ := db.CreateUser(context.Background(), "ana", "h", store.RoleAnalyst, nil)
	words := make([]string, 500)
	for i := range words {
		words[i] = fmt.Sprintf("e%dx", i)
	}
	if err := db.SeedSearch(ana.ID, 200, 10, 30, words); err != nil {
		t.Fatal(err)
	}
	return ana.ID
}

// timedSearch runs one search under a generous outer deadline (so that an
// unbounded search still ends the test) and says how long it took.
func timedSearch(db *store.DB, userID, q string) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := db.SearchConversations(ctx, userID, q, 50)
	return time.Since(start), err
}

// TestSearch_LongQueriesAreBounded searches 2,000 words, repeated and
// distinct, and wants each answered or refused as too slow within 2 s.
func TestSearch_LongQueriesAreBounded(t *testing.T) {
	db := openDB(t)
	ana := seedSlowSearch(t, db)
	distinct := make([]string, 2000)
	for i := range distinct {
		distinct[i] = fmt.Sprintf("e%d", i)
	}
	for name, q := range map[string]string{
		"repeated": strings.Repeat("e ", 2000),
		"distinct": strings.Join(distinct, " "),
		"mixed":    strings.Repeat("E e1 ", 1000),
	} {
		took, err := timedSearch(db, ana, q)
		t.Logf("%s: %v, %v", name, took, err)
		if err != nil && !errors.Is(err, store.ErrSearchTooSlow) {
			t.Fatalf("%s: %v", name, err)
		}
		if took > 2*time.Second {
			t.Errorf("%s: search took %v, want under 2 s (err %v)", name, took, err)
		}
	}
}

// TestSearch_ParallelSearchesLeaveConnections runs nine long searches at
// once and wants another user's conversation list answered in under
// 200 ms throughout: searches hold only their own share of the pool.
func TestSearch_ParallelSearchesLeaveConnections(t *testing.T) {
	db := openDB(t)
	ana := seedSlowSearch(t, db)
	ctx := context.Background()
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	db.CreateConversation(ctx, bob.ID, "Bob's own")
	long := strings.Repeat("e ", 150) // the report's 300 bytes
	var wg sync.WaitGroup
	done := make(chan struct{})
	for i := range 9 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			took, err := timedSearch(db, ana, long)
			t.Logf("search %d: %v, %v", i, took, err)
		}()
	}
	go func() { wg.Wait(); close(done) }()
	var worst time.Duration
	for measured := false; ; measured = true {
		select {
		case <-done:
			if measured {
				if worst > 200*time.Millisecond {
					t.Fatalf("another user's list took %v during nine searches, want under 200 ms", worst)
				}
				return
			}
		default:
		}
		start := time.Now()
		if _, err := db.Conversations(ctx, store.ConversationFilter{UserID: bob.ID, Limit: 50}); err != nil {
			t.Fatal(err)
		}
		worst = max(worst, time.Since(start))
	}
}

// TestMatchQuery_DedupesAndCaps folds repeated words, drops single letters
// and keeps at most MaxSearchWords terms.
func TestMatchQuery_DedupesAndCaps(t *testing.T) {
	if got, want := store.MatchQuery("Revenue revenue e REVENUE q3"), `"revenue"* "q3"*`; got != want {
		t.Errorf("MatchQuery = %s, want %s", got, want)
	}
	var words []string
	for i := range 40 {
		words = append(words, fmt.Sprintf("w%d", i))
	}
	if got := strings.Count(store.MatchQuery(strings.Join(words, " ")), "*"); got != store.MaxSearchWords {
		t.Errorf("%d terms, want %d", got, store.MaxSearchWords)
	}
}

// TestSearch_WaitsForItsShareOfThePool holds every connection searches may
// use and wants the next search refused as too slow within its deadline,
// while other queries still run.
func TestSearch_WaitsForItsShareOfThePool(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	release := db.HoldSearchSlots()
	defer release()
	took, err := timedSearch(db, ana.ID, "revenue")
	if !errors.Is(err, store.ErrSearchTooSlow) || took > 2*time.Second {
		t.Fatalf("search with no free slot: %v after %v, want ErrSearchTooSlow within 2 s", err, took)
	}
	if _, err := db.Conversations(ctx, store.ConversationFilter{UserID: ana.ID}); err != nil {
		t.Fatalf("list while searches are full: %v", err)
	}
}
