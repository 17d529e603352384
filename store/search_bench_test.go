package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// BenchmarkSearchConversations searches 10,000 conversations of one user
// (the worst case for the per-user filter) holding 200,000 messages of 30
// words from a vocabulary of 5,000, beside another user's conversations.
// "common" matches about 1 message in 170, "rare" is a word that only one
// conversation holds, and "prefix" is a word being typed.
func BenchmarkSearchConversations(b *testing.B) {
	db := openDB(b)
	ctx := context.Background()
	ana, _ := db.CreateUser(ctx, "ana", "h", store.RoleAnalyst, nil)
	words := make([]string, 5000)
	for i := range words {
		words[i] = fmt.Sprintf("w%dx", i)
	}
	if err := db.SeedSearch(ana.ID, 10_000, 20, 30, words); err != nil {
		b.Fatal(err)
	}
	c, _ := db.CreateConversation(ctx, ana.ID, "Portfolio NVDA")
	for name, q := range map[string]string{"common": "w42x", "rare": "nvda", "prefix": "w42", "two-words": "w42x w55x"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				hits, err := db.SearchConversations(ctx, ana.ID, q, 50)
				if err != nil || len(hits) == 0 {
					b.Fatalf("search %q: %d hits, %v", q, len(hits), err)
				}
			}
		})
	}
	_ = c
}
