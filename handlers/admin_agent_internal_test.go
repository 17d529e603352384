package handlers

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/purge"
)

// TestAgentStatesMapOneToOne: every agent status chat knows, and every
// listing purge knows, shows as the view's state of the same name.
func TestAgentStatesMapOneToOne(t *testing.T) {
	t.Parallel()
	for _, s := range []chat.AgentStatus{chat.AgentPending, chat.AgentReady, chat.AgentFailed, chat.AgentRemoved} {
		if got := agentState(s); string(got) != string(s) {
			t.Errorf("agent %q shows as %q", s, got)
		}
	}
	for _, l := range []purge.AgentListing{purge.AgentListed, purge.AgentMissing, purge.AgentUnlisted} {
		if got := agentListing(l); string(got) != string(l) {
			t.Errorf("listing %q shows as %q", l, got)
		}
	}
}
