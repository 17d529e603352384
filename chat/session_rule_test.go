package chat_test

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// TestSessionBadgeAndSessionCountsShareTheRule: the badge's clock (chat)
// and the session counts of /admin and the conversation's usage line
// (store, which may import nothing of ours) follow the same article rule;
// a change to one alone would make the page say "expired" of a session the
// counts still call live, or the other way round.
func TestSessionBadgeAndSessionCountsShareTheRule(t *testing.T) {
	if chat.SessionIdle != store.SessionIdleTimeout || chat.SessionLifetime != store.SessionActiveLimit {
		t.Fatalf("chat: idle %v, lifetime %v; store: idle %v, limit %v",
			chat.SessionIdle, chat.SessionLifetime, store.SessionIdleTimeout, store.SessionActiveLimit)
	}
}
