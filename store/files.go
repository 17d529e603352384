package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// File is a file uploaded into a conversation. Its bytes are a blob named
// by SHA256; Profile is the JSON profile shown beside it.
type File struct {
	ID             string
	ConversationID string
	Name           string
	ContentType    string
	Size           int64
	SHA256         string
	Profile        string
	// FoundryFileID is the id of the uploaded copy in Foundry, once made.
	FoundryFileID string
	CreatedAt     time.Time
}

const fileColumns = `f.id, f.conversation_id, f.name, f.content_type, f.size, f.sha256, f.profile, f.foundry_file_id, f.created_at`

func scanFile(row rowScanner) (*File, error) {
	var f File
	var created int64
	err := row.Scan(&f.ID, &f.ConversationID, &f.Name, &f.ContentType, &f.Size, &f.SHA256, &f.Profile, &f.FoundryFileID, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	f.CreatedAt = fromMillis(created)
	return &f, nil
}

// DuplicateFileError says the conversation already has a file with the same
// bytes; Existing is that file.
type DuplicateFileError struct{ Existing *File }

func (e *DuplicateFileError) Error() string {
	return fmt.Sprintf("store: %s has the same content as %s", e.Existing.ID, e.Existing.Name)
}

// AddFile records an uploaded file in a conversation of userID. The same
// bytes twice in one conversation give a *DuplicateFileError.
func (db *DB) AddFile(ctx context.Context, userID string, f File) (*File, error) {
	return db.AddFileWithin(ctx, userID, f, Usage{})
}

// Usage is what a user's files take up, across their conversations: Files
// counts uploads, Bytes the uploads and the files their code generated,
// which fill the same disk. As a limit, a zero field means no limit.
type Usage struct {
	Files int64
	Bytes int64
}

// ErrOverLimit is returned by AddFileWithin when the file would take its
// owner past the limit.
var ErrOverLimit = errors.New("store: over the upload limit")

// UploadUsage returns how many files userID has uploaded, and the size of
// those and of every file generated in their conversations.
func (db *DB) UploadUsage(ctx context.Context, userID string) (Usage, error) {
	u, err := uploadUsage(ctx, db.db, userID)
	if err != nil {
		return Usage{}, fmt.Errorf("store: upload usage: %w", err)
	}
	return u, nil
}

// queryer is what uploadUsage needs of a *sql.DB or a *sql.Tx.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func uploadUsage(ctx context.Context, q queryer, userID string) (Usage, error) {
	var u Usage
	err := q.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM files f JOIN conversations c ON c.id = f.conversation_id WHERE c.user_id = ?1),
		(SELECT COALESCE(SUM(f.size), 0) FROM files f JOIN conversations c ON c.id = f.conversation_id WHERE c.user_id = ?1) +
		(SELECT COALESCE(SUM(a.size), 0) FROM artifacts a JOIN conversations c ON c.id = a.conversation_id WHERE c.user_id = ?1)`,
		userID).Scan(&u.Files, &u.Bytes)
	return u, err
}

// AddFileWithin is AddFile that refuses with ErrOverLimit a file that
// would take userID past limit. It counts in the transaction that inserts,
// so concurrent uploads cannot pass the limit together.
func (db *DB) AddFileWithin(ctx context.Context, userID string, f File, limit Usage) (*File, error) {
	f.ID, f.CreatedAt = newID(), fromMillis(db.now())
	err := db.withTx(ctx, func(tx *txn) error {
		if err := checkOwner(ctx, tx, f.ConversationID, userID); err != nil {
			return err
		}
		if err := tx.lock(ctx, blobKey(f.SHA256)); err != nil {
			return err
		}
		if err := checkLimit(ctx, tx, userID, f.Size, limit); err != nil {
			return err
		}
		existing, err := scanFile(tx.QueryRowContext(ctx, `SELECT `+fileColumns+` FROM files f WHERE f.conversation_id = ? AND f.sha256 = ?`,
			f.ConversationID, f.SHA256))
		if err == nil {
			return &DuplicateFileError{Existing: existing}
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO files (id, conversation_id, name, content_type, size, sha256, profile, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, f.ID, f.ConversationID, f.Name, f.ContentType, f.Size, f.SHA256, f.Profile, toMillis(f.CreatedAt))
		return err
	})
	var dup *DuplicateFileError
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrOverLimit) || errors.As(err, &dup) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("store: add file: %w", err)
	}
	return &f, nil
}

// checkOwner gives ErrNotFound unless userID owns the conversation.
func checkOwner(ctx context.Context, tx *txn, convID, userID string) error {
	var owner string
	err := tx.QueryRowContext(ctx, `SELECT user_id FROM conversations WHERE id = ?`, convID).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && owner != userID) {
		return ErrNotFound
	}
	return err
}

// checkLimit gives ErrOverLimit if one more file of size bytes would take
// userID past limit.
func checkLimit(ctx context.Context, tx *txn, userID string, size int64, limit Usage) error {
	if limit == (Usage{}) {
		return nil
	}
	if err := tx.lock(ctx, "usage "+userID); err != nil {
		return err
	}
	used, err := uploadUsage(ctx, tx, userID)
	if err != nil {
		return err
	}
	if (limit.Files > 0 && used.Files+1 > limit.Files) || (limit.Bytes > 0 && used.Bytes+size > limit.Bytes) {
		return ErrOverLimit
	}
	return nil
}

// Files returns the files of a conversation of userID, oldest first.
func (db *DB) Files(ctx context.Context, userID, conversationID string) ([]*File, error) {
	rows, err := db.q.QueryContext(ctx, `SELECT `+fileColumns+` FROM files f JOIN conversations c ON c.id = f.conversation_id
		WHERE f.conversation_id = ? AND c.user_id = ? ORDER BY f.created_at, f.rowid`, conversationID, userID)
	if err != nil {
		return nil, fmt.Errorf("store: files: %w", err)
	}
	out, err := collect(rows, scanFile)
	if err != nil {
		return nil, fmt.Errorf("store: files: %w", err)
	}
	return out, nil
}

// SetFoundryFileID records the Foundry id of an uploaded file, and that
// this app uploaded it (see UnknownFoundryFiles).
func (db *DB) SetFoundryFileID(ctx context.Context, fileID, foundryID string) error {
	err := db.withTx(ctx, func(tx *txn) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO foundry_uploads (foundry_file_id, created_at) VALUES (?, ?)
			ON CONFLICT (foundry_file_id) DO NOTHING`,
			foundryID, db.now()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE files SET foundry_file_id = ? WHERE id = ?`, foundryID, fileID)
		return err
	})
	if err != nil {
		return fmt.Errorf("store: set foundry file id: %w", err)
	}
	return nil
}
