package store

import (
	"context"
	"fmt"
	"time"
)

// How the app counts Code Interpreter sessions, the unit Foundry bills the
// tool by. Microsoft's Code Interpreter article: "If your agent calls Code
// Interpreter simultaneously in two different conversations, it creates two
// Code Interpreter sessions. Each session is active by default for one hour
// with an idle timeout of 30 minutes."
//
// UNCONFIRMED: how Foundry meters a session exactly (per session opened, or
// by how long it lived) is not documented; the app reports both the count
// and an estimate of the time, and says that they are estimates.
const (
	// SessionIdleTimeout ends a session this long after its last use.
	SessionIdleTimeout = 30 * time.Minute
	// SessionActiveLimit ends a session this long after it started,
	// however busy it is.
	SessionActiveLimit = time.Hour
)

// CodeSession is one Code Interpreter session: one container started for a
// conversation. A conversation has several when its container expired and a
// later question started a new one; each counts.
type CodeSession struct {
	ConversationID, ContainerID string
	// Start is when the first turn that ran code in the container began;
	// LastUse is when the latest such turn ended (or last ran code, while
	// it runs).
	Start, LastUse time.Time
}

// End is when the session ends by the article's rule: 30 minutes after its
// last use, and at most one hour after its start.
func (s CodeSession) End() time.Time {
	return minTime(s.LastUse.Add(SessionIdleTimeout), s.Start.Add(SessionActiveLimit))
}

// Live reports whether the session has not yet ended at now.
func (s CodeSession) Live(now time.Time) bool { return now.Before(s.End()) }

// Time is the session's estimated time at now: from its start to its end,
// min(last use + 30 min, start + 60 min) − start, or to now while it lives.
// It counts the idle minutes before expiry, because the service keeps the
// container for them whether or not it is used again.
func (s CodeSession) Time(now time.Time) time.Duration {
	return max(minTime(s.End(), now).Sub(s.Start), 0)
}

// SessionTotals sums sessions: how many, how many still live, and their
// estimated time (CodeSession.Time).
type SessionTotals struct {
	Sessions, Live int64
	Time           time.Duration
}

// add counts one session at now.
func (t *SessionTotals) add(s CodeSession, now time.Time) {
	t.Sessions++
	if s.Live(now) {
		t.Live++
	}
	t.Time += s.Time(now)
}

// sessionUse is one use of a container: a finished turn that ran code in
// it, or the conversation's record of its current session, which also
// covers a turn still running.
type sessionUse struct {
	conversationID, containerID string
	start, last                 time.Time
}

// foldSessions groups uses, ordered by start, into sessions. A use joins the
// latest session of its conversation and container when it starts before
// that session's end; otherwise it opens a new session, so a container seen
// again after it should have expired is counted again rather than stretched
// past the hour.
func foldSessions(uses []sessionUse) []CodeSession {
	var out []CodeSession
	latest := map[[2]string]int{}
	for _, u := range uses {
		key := [2]string{u.conversationID, u.containerID}
		if i, ok := latest[key]; ok && u.start.Before(out[i].End()) {
			out[i].LastUse = maxTime(out[i].LastUse, u.last)
			continue
		}
		latest[key] = len(out)
		out = append(out, CodeSession{ConversationID: u.conversationID, ContainerID: u.containerID,
			Start: u.start, LastUse: maxTime(u.start, u.last)})
	}
	return out
}

// ConversationSessions returns the totals of every Code Interpreter session
// the conversation has had, at now.
func (db *DB) ConversationSessions(ctx context.Context, conversationID string, now time.Time) (SessionTotals, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT container_id, started_at, finished_at FROM runs
		WHERE conversation_id = ? AND container_id <> ''
		UNION ALL
		SELECT container_id, session_started_at, session_used_at FROM conversations
		WHERE id = ? AND container_id <> '' AND session_started_at > 0 AND session_used_at > 0
		ORDER BY 2`, conversationID, conversationID)
	if err != nil {
		return SessionTotals{}, fmt.Errorf("store: conversation sessions: %w", err)
	}
	defer rows.Close()
	var uses []sessionUse
	for rows.Next() {
		u := sessionUse{conversationID: conversationID}
		var start, last int64
		if err := rows.Scan(&u.containerID, &start, &last); err != nil {
			return SessionTotals{}, err
		}
		u.start, u.last = fromMillis(start), optMillis(last)
		uses = append(uses, u)
	}
	if err := rows.Err(); err != nil {
		return SessionTotals{}, fmt.Errorf("store: conversation sessions: %w", err)
	}
	var t SessionTotals
	for _, s := range foldSessions(uses) {
		t.add(s, now)
	}
	return t, nil
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
