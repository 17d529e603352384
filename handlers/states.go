package handlers

import (
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// Chat decides a cell's outcome, a run's status and a session's state; the
// views only show them. These switches map each of chat's values onto the
// view's own by name, never by a cast: a value chat adds without a view
// shows as the nearest state the views know, not as one no view knows
// (TestStatesMapOneToOne holds the names together).

// cellState is how the page shows a cell's status.
func cellState(s chat.CellStatus) views.CellState {
	switch s {
	case chat.CellWriting:
		return views.CellWriting
	case chat.CellRunning:
		return views.CellRunning
	case chat.CellCompleted:
		return views.CellCompleted
	case chat.CellFailed:
		return views.CellFailed
	case chat.CellStopped:
		return views.CellStopped
	default: // chat.CellUnreadable, and anything chat adds without a view
		return views.CellUnreadable
	}
}

// runStatus is how the page shows a run's status.
func runStatus(s store.RunStatus) views.RunStatus {
	switch s {
	case store.RunRunning:
		return views.RunRunning
	case store.RunCompleted:
		return views.RunCompleted
	case store.RunCancelled:
		return views.RunCancelled
	case store.RunIncomplete:
		return views.RunIncomplete
	case store.RunInterrupted:
		return views.RunInterrupted
	default: // store.RunFailed, and any status an older version stored
		return views.RunFailed
	}
}

// sessionState is what the session badge says.
func sessionState(s chat.SessionStatus) views.SessionState {
	switch s {
	case chat.StatusActive:
		return views.SessionActive
	case chat.StatusIdle:
		return views.SessionIdle
	case chat.StatusExpired:
		return views.SessionExpired
	case chat.StatusRestored:
		return views.SessionRestored
	default: // chat.StatusNone
		return views.SessionNone
	}
}

// fileFlaw is how the page shows what is wrong with a generated file.
func fileFlaw(f chat.FileFlaw) views.FileFlaw {
	switch f {
	case chat.FileEmpty:
		return views.FileEmpty
	case chat.FileNotType:
		return views.FileNotType
	case chat.FileNotText:
		return views.FileNotText
	default: // chat.FileSound, and any flaw chat adds without a view
		return views.FileSound
	}
}

// agentState is how the admin page shows the agent's set-up; a status
// chat adds without a view shows as pending.
func agentState(s chat.AgentStatus) views.AgentState {
	switch s {
	case chat.AgentReady:
		return views.AgentReady
	case chat.AgentFailed:
		return views.AgentFailed
	case chat.AgentRemoved:
		return views.AgentRemoved
	default: // chat.AgentPending
		return views.AgentPending
	}
}
