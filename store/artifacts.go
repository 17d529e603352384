package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Artifact kinds.
const (
	ArtifactImage = "image"
	ArtifactFile  = "file"
)

// Artifact is a file the agent's code made, kept after its session ended.
type Artifact struct {
	ID              string
	ConversationID  string
	RunID           string
	CellID          string
	ContainerID     string
	ContainerFileID string
	Name            string
	ContentType     string
	Size            int64
	SHA256          string
	Kind            string
	// Flaw is what chat found wrong with the file's bytes ("" for
	// nothing): chat decides it, the store keeps it for the gallery.
	Flaw      string
	CreatedAt time.Time
	// UserID owns the conversation; set by the lookups that join it.
	UserID string
}

const artifactColumns = `a.id, a.conversation_id, a.run_id, a.cell_id, a.container_id, a.container_file_id, a.name,
	a.content_type, a.size, a.sha256, a.kind, a.flaw, a.created_at, c.user_id`

func scanArtifact(row rowScanner) (*Artifact, error) {
	var a Artifact
	var created int64
	err := row.Scan(&a.ID, &a.ConversationID, &a.RunID, &a.CellID, &a.ContainerID, &a.ContainerFileID, &a.Name,
		&a.ContentType, &a.Size, &a.SHA256, &a.Kind, &a.Flaw, &created, &a.UserID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	a.CreatedAt = fromMillis(created)
	return &a, nil
}

// AddArtifact records a copied-out file. A version of a container file
// already recorded (same container file, same content) is not recorded
// twice: the existing row is returned.
func (db *DB) AddArtifact(ctx context.Context, a Artifact) (*Artifact, error) {
	a.ID, a.CreatedAt = newID(), fromMillis(db.now())
	err := db.withTx(ctx, func(tx *txn) error {
		if err := tx.lock(ctx, blobKey(a.SHA256)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO artifacts (id, conversation_id, run_id, cell_id, container_id,
			container_file_id, name, content_type, size, sha256, kind, flaw, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.ConversationID, a.RunID, a.CellID, a.ContainerID, a.ContainerFileID, a.Name, a.ContentType, a.Size,
			a.SHA256, a.Kind, a.Flaw, toMillis(a.CreatedAt))
		return err
	})
	if db.d.uniqueViolation(err) {
		return db.artifactByContainerFile(ctx, a.ContainerID, a.ContainerFileID, a.SHA256)
	}
	if err != nil {
		return nil, fmt.Errorf("store: add artifact: %w", err)
	}
	return &a, nil
}

func (db *DB) artifactByContainerFile(ctx context.Context, containerID, fileID, sha string) (*Artifact, error) {
	return scanArtifact(db.q.QueryRowContext(ctx, `SELECT `+artifactColumns+` FROM artifacts a
		JOIN conversations c ON c.id = a.conversation_id
		WHERE a.container_id = ? AND a.container_file_id = ? AND a.sha256 = ?`, containerID, fileID, sha))
}

// Artifact returns an artifact with the id of its conversation's owner;
// callers decide who may see it.
func (db *DB) Artifact(ctx context.Context, id string) (*Artifact, error) {
	a, err := scanArtifact(db.q.QueryRowContext(ctx, `SELECT `+artifactColumns+` FROM artifacts a
		JOIN conversations c ON c.id = a.conversation_id WHERE a.id = ?`, id))
	if err != nil && !errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("store: artifact %s: %w", id, err)
	}
	return a, err
}

// Artifacts returns the artifacts of a conversation of userID, oldest first.
func (db *DB) Artifacts(ctx context.Context, userID, conversationID string) ([]*Artifact, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+artifactColumns+` FROM artifacts a
		JOIN conversations c ON c.id = a.conversation_id
		WHERE a.conversation_id = ? AND c.user_id = ? ORDER BY a.created_at, a.rowid`, conversationID, userID)
	if err != nil {
		return nil, fmt.Errorf("store: artifacts: %w", err)
	}
	out, err := collect(rows, scanArtifact)
	if err != nil {
		return nil, fmt.Errorf("store: artifacts: %w", err)
	}
	return out, nil
}
