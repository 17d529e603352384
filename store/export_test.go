package store

import (
	"context"
	"database/sql"
	"fmt"
)

// CheckPragmas holds n pooled connections at once, so that they are n
// distinct connections, and verifies on each that the DSN pragmas hold.
func (db *DB) CheckPragmas(ctx context.Context, n int) error {
	var conns []*sql.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		conn, err := db.db.Conn(ctx)
		if err != nil {
			return err
		}
		conns = append(conns, conn)
		if err := checkPragmas(ctx, conn); err != nil {
			return err
		}
	}
	return nil
}

func checkPragmas(ctx context.Context, conn *sql.Conn) error {
	var mode string
	var fk, busy int
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&busy); err != nil {
		return err
	}
	if mode != "wal" || fk != 1 || busy != 5000 {
		return fmt.Errorf("pragmas: journal_mode=%s foreign_keys=%d busy_timeout=%d", mode, fk, busy)
	}
	return nil
}
