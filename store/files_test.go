package store_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

func TestDB_AddFileWithin(t *testing.T) {
	db := openDB(t)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	bob, _ := db.CreateUser(ctx, "bob", "h", store.RoleAnalyst, nil)
	c1, _ := db.CreateConversation(ctx, ana.ID, "one")
	c2, _ := db.CreateConversation(ctx, ana.ID, "two")
	cb, _ := db.CreateConversation(ctx, bob.ID, "bob's")
	add := func(userID, convID string, size int64, limit store.Usage) error {
		sha := fmt.Sprintf("%064d", size*1000+int64(len(convID)))
		_, err := db.AddFileWithin(ctx, userID, store.File{ConversationID: convID, Name: "f.csv", Size: size, SHA256: sha}, limit)
		return err
	}
	limit := store.Usage{Files: 3, Bytes: 100}
	for _, step := range []struct {
		name       string
		user, conv string
		size       int64
		want       error
	}{
		{"within", ana.ID, c1.ID, 60, nil},
		{"counted across conversations", ana.ID, c2.ID, 41, store.ErrOverLimit},
		{"up to the byte limit", ana.ID, c2.ID, 40, nil},
		{"another user's usage is their own", bob.ID, cb.ID, 100, nil},
		{"the file limit", ana.ID, c2.ID, 0, nil},
		{"one file too many", ana.ID, c1.ID, 0, store.ErrOverLimit},
	} {
		if err := add(step.user, step.conv, step.size, limit); !errors.Is(err, step.want) {
			t.Errorf("%s: err = %v, want %v", step.name, err, step.want)
		}
	}
	got, err := db.UploadUsage(ctx, ana.ID)
	if want := (store.Usage{Files: 3, Bytes: 100}); err != nil || got != want {
		t.Errorf("UploadUsage = %+v, %v; want %+v", got, err, want)
	}
	if err := add(ana.ID, c1.ID, 1000, store.Usage{}); err != nil {
		t.Errorf("no limit: %v", err)
	}
}
