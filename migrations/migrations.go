// Package migrations holds the SQL migrations of the application database,
// embedded so that the binary carries its own schema. They are applied at
// start by goose (see store.Open); file names follow NNNN_name.sql.
package migrations

import "embed"

// FS holds every migration file.
//
//go:embed *.sql
var FS embed.FS
