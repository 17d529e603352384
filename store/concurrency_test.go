package store_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// atOnce runs fn(i) for i in [0, n) in n goroutines released together, and
// returns their errors.
func atOnce(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			errs[i] = fn(i)
		})
	}
	close(start)
	wg.Wait()
	return errs
}

// count tallies errs: how many are nil and how many are target.
func count(errs []error, target error) (ok, matched int, other error) {
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case errors.Is(err, target):
			matched++
		default:
			other = err
		}
	}
	return ok, matched, other
}

// TestCreateFirstUser_OnceUnderConcurrency: set-up requests arriving
// together make one administrator, on either back end (SQLite's write
// lock; PostgreSQL's lock on the decision).
func TestCreateFirstUser_OnceUnderConcurrency(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	errs := atOnce(8, func(i int) error {
		_, err := db.CreateFirstUser(ctx, fmt.Sprintf("admin%d", i), "h", store.RoleAdmin, nil)
		return err
	})
	if ok, conflicts, other := count(errs, store.ErrConflict); ok != 1 || conflicts != 7 || other != nil {
		t.Fatalf("%d made, %d refused, other error %v; want 1 and 7", ok, conflicts, other)
	}
	if n, _ := db.CountUsers(ctx); n != 1 {
		t.Fatalf("%d users, want 1", n)
	}
}

// TestAddFileWithin_ConcurrentUploadsKeepTheLimit: uploads that arrive
// together cannot pass a user's file limit between them.
func TestAddFileWithin_ConcurrentUploadsKeepTheLimit(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	u, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	var convs []string
	for range 2 {
		c, _ := db.CreateConversation(ctx, u.ID, "c")
		convs = append(convs, c.ID)
	}
	errs := atOnce(8, func(i int) error {
		_, err := db.AddFileWithin(ctx, u.ID, store.File{ConversationID: convs[i%2], Name: "f.csv", ContentType: "text/csv",
			Size: 1, SHA256: fmt.Sprintf("%064x", i+1)}, store.Usage{Files: 3})
		return err
	})
	if ok, over, other := count(errs, store.ErrOverLimit); ok != 3 || over != 5 || other != nil {
		t.Fatalf("%d stored, %d over the limit, other error %v; want 3 and 5", ok, over, other)
	}
}

// TestCompleteOutbox_ConcurrentCompletionsFinishThePurgeOnce: workers that
// complete a purge's last entries together write its completed entry once.
func TestCompleteOutbox_ConcurrentCompletionsFinishThePurgeOnce(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	var objects []store.PurgeObject
	for i := range 8 {
		objects = append(objects, store.PurgeObject{Kind: store.OutboxFoundryFile, Target: fmt.Sprintf("assistant-%d", i)})
	}
	purgeID, err := db.StartPurge(ctx, store.PurgeStart{Actor: "admin", Action: "purge", Objects: objects})
	if err != nil {
		t.Fatal(err)
	}
	due, err := db.DueOutbox(ctx, time.Now().Add(time.Hour), 100)
	if err != nil || len(due) != 8 {
		t.Fatalf("due = %d, %v; want 8", len(due), err)
	}
	errs := atOnce(len(due), func(i int) error { return db.CompleteOutbox(ctx, due[i].ID, store.ResultDeleted) })
	if ok, _, other := count(errs, nil); ok != len(due) {
		t.Fatalf("%d completed; error %v", ok, other)
	}
	log, _ := db.AuditLog(ctx, 10)
	completed := 0
	for _, e := range log {
		if e.PurgeID == purgeID && e.Outcome == store.AuditCompleted {
			completed++
		}
	}
	if completed != 1 {
		t.Fatalf("%d completed entries for the purge, want 1: %+v", completed, log)
	}
}
