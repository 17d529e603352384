// Package migrations holds the SQL migrations of the application database,
// embedded so that the binary carries its own schema. They are applied at
// start by goose (see store.Open and store.OpenPostgres); file names follow
// NNNN_name.sql. FS holds SQLite's; Postgres holds PostgreSQL's, which
// start from one baseline at version 13 and then follow SQLite's numbers.
package migrations

import (
	"embed"
	"io/fs"
)

// FS holds every SQLite migration file.
//
//go:embed *.sql
var FS embed.FS

//go:embed postgres/*.sql
var postgres embed.FS

// Postgres holds every PostgreSQL migration file, at its root as FS does.
var Postgres = mustSub(postgres, "postgres")

func mustSub(f fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(f, dir)
	if err != nil {
		panic(err) // dir is a literal embedded above
	}
	return sub
}
