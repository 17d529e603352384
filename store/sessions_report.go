package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// SessionReport is the admin's account of Code Interpreter sessions started
// since a time: per user, and the conversations that opened the most.
type SessionReport struct {
	Since time.Time
	Total SessionTotals
	// PerUser lists the users with at least one session, most time first.
	PerUser []UserSessions
	// TopConversations lists the conversations with the most sessions.
	TopConversations []ConversationSessions
}

// UserSessions is one user's sessions.
type UserSessions struct {
	UserID, Username string
	SessionTotals
}

// ConversationSessions is one conversation's sessions.
type ConversationSessions struct {
	ConversationID, Title, Username string
	SessionTotals
}

// sessionOwner is who a conversation belongs to, for the report's names.
type sessionOwner struct {
	userID, username, title string
}

// SessionReport counts the sessions that started in the last days at now,
// per user and per conversation, keeping the top conversations. It reads
// one row per turn that ran code in the window, and folds them in memory
// (foldSessions), because telling sessions apart needs the rule's clock.
func (db *DB) SessionReport(ctx context.Context, now time.Time, days, top int) (*SessionReport, error) {
	since := now.AddDate(0, 0, -days)
	uses, owners, err := db.sessionUsesSince(ctx, since)
	if err != nil {
		return nil, fmt.Errorf("store: session report: %w", err)
	}
	r := &SessionReport{Since: since}
	users := map[string]*UserSessions{}
	convs := map[string]*ConversationSessions{}
	for _, s := range foldSessions(uses) {
		o := owners[s.ConversationID]
		if users[o.userID] == nil {
			users[o.userID] = &UserSessions{UserID: o.userID, Username: o.username}
		}
		if convs[s.ConversationID] == nil {
			convs[s.ConversationID] = &ConversationSessions{ConversationID: s.ConversationID, Title: o.title, Username: o.username}
		}
		r.Total.add(s, now)
		users[o.userID].add(s, now)
		convs[s.ConversationID].add(s, now)
	}
	for _, u := range users {
		r.PerUser = append(r.PerUser, *u)
	}
	slices.SortFunc(r.PerUser, func(a, b UserSessions) int {
		return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(b.Sessions, a.Sessions), cmp.Compare(a.Username, b.Username))
	})
	for _, c := range convs {
		r.TopConversations = append(r.TopConversations, *c)
	}
	slices.SortFunc(r.TopConversations, func(a, b ConversationSessions) int {
		return cmp.Or(cmp.Compare(b.Sessions, a.Sessions), cmp.Compare(b.Time, a.Time), cmp.Compare(a.ConversationID, b.ConversationID))
	})
	r.TopConversations = r.TopConversations[:min(len(r.TopConversations), max(top, 0))]
	return r, nil
}

// sessionUsesSince reads the uses of containers that began at or after
// since, ordered by start, with the owner of each conversation.
func (db *DB) sessionUsesSince(ctx context.Context, since time.Time) ([]sessionUse, map[string]sessionOwner, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT x.conversation_id, x.container_id, x.started_at, x.used_at, c.user_id, u.username, c.title
		FROM (
			SELECT conversation_id, container_id, started_at, finished_at AS used_at FROM runs
			WHERE container_id <> '' AND started_at >= ?
			UNION ALL
			SELECT id, container_id, session_started_at, session_used_at FROM conversations
			WHERE container_id <> '' AND session_started_at >= ? AND session_started_at > 0 AND session_used_at > 0
		) x JOIN conversations c ON c.id = x.conversation_id JOIN users u ON u.id = c.user_id
		ORDER BY x.started_at`, toMillis(since), toMillis(since))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var uses []sessionUse
	owners := map[string]sessionOwner{}
	for rows.Next() {
		var u sessionUse
		var o sessionOwner
		var start, last int64
		if err := rows.Scan(&u.conversationID, &u.containerID, &start, &last, &o.userID, &o.username, &o.title); err != nil {
			return nil, nil, err
		}
		u.start, u.last = fromMillis(start), optMillis(last)
		uses = append(uses, u)
		owners[u.conversationID] = o
	}
	return uses, owners, rows.Err()
}
