package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Overview is what the admin page counts across every user.
type Overview struct {
	Users, Conversations      int64
	Files, FileBytes          int64
	Artifacts, ArtifactBytes  int64
	InputTokens, OutputTokens int64
	// Foundry objects this app created and still tracks.
	FoundryFiles, FoundryConversations int64
	// SessionsActive are conversations whose Code Interpreter session is
	// still alive; SessionsPerDay counts distinct sessions used per day.
	SessionsActive int64
	SessionsPerDay []DayCount
	PerUser        []UserUsage
}

// DayCount is a count on one day (UTC).
type DayCount struct {
	Day   time.Time
	Count int64
}

// UserUsage is one user's share.
type UserUsage struct {
	UserID, Username, Role    string
	Disabled                  bool
	Conversations, Files      int64
	StoredBytes               int64
	InputTokens, OutputTokens int64
	LastActive                time.Time
}

// Overview computes the admin totals with aggregate queries, so its cost
// does not grow with what it counts beyond one scan per table.
func (db *DB) Overview(ctx context.Context, now time.Time, days int) (*Overview, error) {
	o := &Overview{}
	row := db.q.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM users),
		(SELECT count(*) FROM conversations),
		(SELECT count(*) FROM files), (SELECT coalesce(sum(size), 0) FROM files),
		(SELECT count(*) FROM artifacts), (SELECT coalesce(sum(size), 0) FROM artifacts),
		(SELECT coalesce(sum(input_tokens), 0) FROM runs), (SELECT coalesce(sum(output_tokens), 0) FROM runs),
		(SELECT count(*) FROM files WHERE foundry_file_id <> ''),
		(SELECT count(*) FROM conversations WHERE foundry_conversation_id <> ''),
		(SELECT count(*) FROM conversations WHERE container_id <> '' AND session_used_at > ? AND session_started_at > ?)`,
		now.Add(-30*time.Minute).UnixMilli(), now.Add(-time.Hour).UnixMilli())
	if err := row.Scan(&o.Users, &o.Conversations, &o.Files, &o.FileBytes, &o.Artifacts, &o.ArtifactBytes,
		&o.InputTokens, &o.OutputTokens, &o.FoundryFiles, &o.FoundryConversations, &o.SessionsActive); err != nil {
		return nil, fmt.Errorf("store: overview: %w", err)
	}
	var err error
	if o.SessionsPerDay, err = db.sessionsPerDay(ctx, now, days); err != nil {
		return nil, err
	}
	if o.PerUser, err = db.usagePerUser(ctx); err != nil {
		return nil, err
	}
	return o, nil
}

func (db *DB) sessionsPerDay(ctx context.Context, now time.Time, days int) ([]DayCount, error) {
	since := now.AddDate(0, 0, -days).UnixMilli()
	rows, err := db.q.QueryContext(ctx, `SELECT started_at / 86400000 AS day, count(DISTINCT container_id)
		FROM runs WHERE container_id <> '' AND started_at >= ? GROUP BY day ORDER BY day`, since)
	if err != nil {
		return nil, fmt.Errorf("store: sessions per day: %w", err)
	}
	defer rows.Close()
	var out []DayCount
	for rows.Next() {
		var day, n int64
		if err := rows.Scan(&day, &n); err != nil {
			return nil, err
		}
		out = append(out, DayCount{Day: time.UnixMilli(day * 86400000).UTC(), Count: n})
	}
	return out, rows.Err()
}

func (db *DB) usagePerUser(ctx context.Context) ([]UserUsage, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT u.id, u.username, u.role, u.disabled,
		(SELECT count(*) FROM conversations c WHERE c.user_id = u.id),
		(SELECT count(*) FROM files f JOIN conversations c ON c.id = f.conversation_id WHERE c.user_id = u.id),
		(SELECT coalesce(sum(f.size), 0) FROM files f JOIN conversations c ON c.id = f.conversation_id WHERE c.user_id = u.id) +
		(SELECT coalesce(sum(a.size), 0) FROM artifacts a JOIN conversations c ON c.id = a.conversation_id WHERE c.user_id = u.id),
		(SELECT coalesce(sum(r.input_tokens), 0) FROM runs r JOIN conversations c ON c.id = r.conversation_id WHERE c.user_id = u.id),
		(SELECT coalesce(sum(r.output_tokens), 0) FROM runs r JOIN conversations c ON c.id = r.conversation_id WHERE c.user_id = u.id),
		(SELECT coalesce(max(c.updated_at), 0) FROM conversations c WHERE c.user_id = u.id)
		FROM users u ORDER BY `+db.d.nocase("u.username"))
	if err != nil {
		return nil, fmt.Errorf("store: usage per user: %w", err)
	}
	defer rows.Close()
	var out []UserUsage
	for rows.Next() {
		var u UserUsage
		var last int64
		if err := rows.Scan(&u.UserID, &u.Username, &u.Role, &u.Disabled, &u.Conversations, &u.Files, &u.StoredBytes,
			&u.InputTokens, &u.OutputTokens, &last); err != nil {
			return nil, err
		}
		u.LastActive = optMillis(last)
		out = append(out, u)
	}
	return out, rows.Err()
}

// AdminConversation is a conversation in the admin's cross-user list.
type AdminConversation struct {
	ID, Title, Username   string
	FoundryConversationID string
	ContainerID           string
	Files                 int64
	StoredBytes           int64
	UpdatedAt             time.Time
}

// AdminFilter narrows the admin lists.
type AdminFilter struct {
	UserID string
	Query  string
	Limit  int
}

// AdminConversations lists conversations across users, newest first.
func (db *DB) AdminConversations(ctx context.Context, f AdminFilter) ([]AdminConversation, error) {
	where, args := adminWhere(db.d, f, "c.title")
	rows, err := db.q.QueryContext(ctx, `SELECT c.id, c.title, u.username, c.foundry_conversation_id, c.container_id,
		(SELECT count(*) FROM files f WHERE f.conversation_id = c.id),
		(SELECT coalesce(sum(size), 0) FROM files f WHERE f.conversation_id = c.id) +
		(SELECT coalesce(sum(size), 0) FROM artifacts a WHERE a.conversation_id = c.id),
		c.updated_at
		FROM conversations c JOIN users u ON u.id = c.user_id`+where+` ORDER BY c.updated_at DESC LIMIT ?`, append(args, limitOr(f.Limit))...)
	if err != nil {
		return nil, fmt.Errorf("store: admin conversations: %w", err)
	}
	defer rows.Close()
	var out []AdminConversation
	for rows.Next() {
		var c AdminConversation
		var updated int64
		if err := rows.Scan(&c.ID, &c.Title, &c.Username, &c.FoundryConversationID, &c.ContainerID, &c.Files, &c.StoredBytes, &updated); err != nil {
			return nil, err
		}
		c.UpdatedAt = fromMillis(updated)
		out = append(out, c)
	}
	return out, rows.Err()
}

// AdminFile is an uploaded file in the admin's cross-user list.
type AdminFile struct {
	ID, Name, Username, ConversationTitle string
	FoundryFileID                         string
	Size                                  int64
	CreatedAt                             time.Time
}

// AdminFiles lists uploaded files across users, newest first.
func (db *DB) AdminFiles(ctx context.Context, f AdminFilter) ([]AdminFile, error) {
	where, args := adminWhere(db.d, f, "f.name")
	rows, err := db.q.QueryContext(ctx, `SELECT f.id, f.name, u.username, c.title, f.foundry_file_id, f.size, f.created_at
		FROM files f JOIN conversations c ON c.id = f.conversation_id JOIN users u ON u.id = c.user_id`+where+`
		ORDER BY f.created_at DESC LIMIT ?`, append(args, limitOr(f.Limit))...)
	if err != nil {
		return nil, fmt.Errorf("store: admin files: %w", err)
	}
	defer rows.Close()
	var out []AdminFile
	for rows.Next() {
		var a AdminFile
		var created int64
		if err := rows.Scan(&a.ID, &a.Name, &a.Username, &a.ConversationTitle, &a.FoundryFileID, &a.Size, &created); err != nil {
			return nil, err
		}
		a.CreatedAt = fromMillis(created)
		out = append(out, a)
	}
	return out, rows.Err()
}

func adminWhere(d *dialect, f AdminFilter, textColumn string) (string, []any) {
	var conds []string
	var args []any
	if f.UserID != "" {
		conds = append(conds, "u.id = ?")
		args = append(args, f.UserID)
	}
	if q := strings.TrimSpace(f.Query); q != "" {
		conds = append(conds, textColumn+` `+d.like+` ? ESCAPE '\'`)
		args = append(args, "%"+escapeLike(q)+"%")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

func limitOr(n int) int {
	if n <= 0 || n > 500 {
		return 100
	}
	return n
}
