package chat

import (
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// SessionStatus names the state of a conversation's Code Interpreter
// session, as the page's badge shows it.
type SessionStatus string

// The states of a session.
const (
	StatusNone    SessionStatus = "none"    // no question has run code yet
	StatusActive  SessionStatus = "active"  // used in the last two minutes
	StatusIdle    SessionStatus = "idle"    // alive, waiting; it ends after SessionIdle
	StatusExpired SessionStatus = "expired" // ended: the next question starts a new one
	// StatusRestored is active, and the latest answer found it restored
	// after the local engine had set it aside to free memory.
	StatusRestored SessionStatus = "restored"
)

// SessionState is what the page says about a conversation's Code
// Interpreter session.
type SessionState struct {
	State SessionStatus
	// ExpiresIn is the time left before an idle session ends.
	ExpiresIn time.Duration
}

// Session describes the conversation's session at now.
func Session(c *store.Conversation, now time.Time) SessionState {
	if c.ContainerID == "" {
		return SessionState{State: StatusNone}
	}
	if c.SessionUsedAt.IsZero() {
		// A session known to have ended (store.EndSessions) without its clock
		// running out.
		return SessionState{State: StatusExpired}
	}
	idleLeft := SessionIdle - now.Sub(c.SessionUsedAt)
	lifeLeft := SessionLifetime - now.Sub(c.SessionStartedAt)
	left := min(idleLeft, lifeLeft)
	switch {
	case left <= 0:
		return SessionState{State: StatusExpired}
	case now.Sub(c.SessionUsedAt) < 2*time.Minute:
		return SessionState{State: StatusActive, ExpiresIn: left}
	default:
		return SessionState{State: StatusIdle, ExpiresIn: left}
	}
}

// After says the state once an answer has run: restored when that answer
// found its session restored and the session still lives.
func (st SessionState) After(a *Answer) SessionState {
	if a != nil && a.Restored && (st.State == StatusActive || st.State == StatusIdle) {
		st.State = StatusRestored
	}
	return st
}
