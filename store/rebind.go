package store

import (
	"context"
	"database/sql/driver"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"
)

// rebind rewrites SQLite's placeholders into PostgreSQL's: ?NNN becomes
// $NNN, and a bare ? the next number after the largest one before it, which
// is how SQLite numbers them. Placeholders inside string literals, quoted
// identifiers, comments and dollar-quoted bodies are left alone. The store
// writes its SQL once, with ?, and this is the only place that knows.
func rebind(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	last := 0
	for i := 0; i < len(query); {
		switch c := query[i]; {
		case c == '\'' || c == '"':
			end := closing(query, i+1, string(c))
			b.WriteString(query[i:end])
			i = end
		case c == '-' && strings.HasPrefix(query[i:], "--"):
			end := closing(query, i, "\n")
			b.WriteString(query[i:end])
			i = end
		case c == '$':
			end := dollarQuoted(query, i)
			b.WriteString(query[i:end])
			i = end
		case c == '?':
			j := i + 1
			for j < len(query) && query[j] >= '0' && query[j] <= '9' {
				j++
			}
			n := last + 1
			if j > i+1 {
				n, _ = strconv.Atoi(query[i+1 : j])
			}
			last = max(last, n)
			b.WriteString("$" + strconv.Itoa(n))
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// closing returns the index just past the first end at or after from, or
// the length of s when there is none.
func closing(s string, from int, end string) int {
	if k := strings.Index(s[from:], end); k >= 0 {
		return from + k + len(end)
	}
	return len(s)
}

// dollarQuoted returns the index past the dollar-quoted string starting at
// i ($$…$$ or $tag$…$tag$), or i+1 when the $ starts none (a $1 parameter).
func dollarQuoted(s string, i int) int {
	j := i + 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > i+1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return i + 1
	}
	tag := s[i : j+1]
	return closing(s, j+1, tag)
}

// rebindConnector hands out pgx connections whose statements are rebound.
type rebindConnector struct{ driver.Connector }

// Connect opens a pgx connection and wraps it.
func (c rebindConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rebindConn{conn.(*stdlib.Conn)}, nil
}

// rebindConn is a pgx connection that rebinds each statement it is given;
// every other method, transactions and resets included, is pgx's own.
type rebindConn struct{ *stdlib.Conn }

// Prepare prepares the rebound query.
func (c *rebindConn) Prepare(query string) (driver.Stmt, error) { return c.Conn.Prepare(rebind(query)) }

// PrepareContext prepares the rebound query.
func (c *rebindConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.PrepareContext(ctx, rebind(query))
}

// ExecContext runs the rebound query.
func (c *rebindConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.ExecContext(ctx, rebind(query), args)
}

// QueryContext runs the rebound query.
func (c *rebindConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.Conn.QueryContext(ctx, rebind(query), args)
}
