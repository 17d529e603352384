package handlers

import (
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// TestStatesMapOneToOne: every cell status, run status and session state
// chat and the store know shows as the view's state of the same name.
func TestStatesMapOneToOne(t *testing.T) {
	t.Parallel()
	for _, s := range []chat.CellStatus{chat.CellWriting, chat.CellRunning, chat.CellCompleted, chat.CellFailed, chat.CellStopped, chat.CellUnreadable} {
		if got := cellState(s); string(got) != string(s) {
			t.Errorf("cell %q shows as %q", s, got)
		}
	}
	for _, s := range []store.RunStatus{store.RunRunning, store.RunCompleted, store.RunIncomplete, store.RunFailed, store.RunCancelled, store.RunInterrupted} {
		if got := runStatus(s); string(got) != string(s) {
			t.Errorf("run %q shows as %q", s, got)
		}
	}
	for _, f := range []chat.FileFlaw{chat.FileSound, chat.FileEmpty, chat.FileNotType, chat.FileNotText} {
		if got := fileFlaw(f); string(got) != string(f) {
			t.Errorf("file flaw %q shows as %q", f, got)
		}
	}
	for _, s := range []chat.SessionStatus{chat.StatusNone, chat.StatusActive, chat.StatusIdle, chat.StatusExpired, chat.StatusRestored} {
		if got := sessionState(s); string(got) != string(s) {
			t.Errorf("session %q shows as %q", s, got)
		}
	}
}
