package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"log/slog"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// EntraScope is the scope of the access tokens Azure Database for
// PostgreSQL takes as passwords.
const EntraScope = "https://ossrdbms-aad.database.windows.net/.default"

// PostgresOptions are the choices of OpenPostgres beyond its URL.
type PostgresOptions struct {
	// Log receives goose's migration messages; nil for none.
	Log *slog.Logger
	// Credential signs in with Entra ID when no password is configured
	// (in the URL, PGPASSWORD or a pgpass file): every new connection gets a
	// fresh access token as its password, so pooled connections keep
	// opening after the first token expires. Nil means azidentity's default
	// credential chain for a TCP host, and no token for a unix socket,
	// whose server trusts the local user instead.
	Credential azcore.TokenCredential
}

// IsPostgresURL reports whether s names a PostgreSQL database
// (postgres:// or postgresql://), for OpenPostgres rather than Open.
func IsPostgresURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// OpenPostgres opens the PostgreSQL database at url and applies every
// migration in migrations (migrations.Postgres) that has not run yet. Two
// processes opening an empty database at once migrate it once: goose holds
// a PostgreSQL advisory lock for the whole migration.
//
// The pool is database/sql's over pgx's stdlib driver rather than a
// pgxpool: the store keeps one code path (the same *sql.DB, *sql.Tx and
// Scan for both dialects), database/sql pools and health-checks the
// connections as it does for SQLite, and pgx's connection stays reachable
// through sql.Conn.Raw for what database/sql cannot say (LISTEN).
func OpenPostgres(ctx context.Context, url string, migrations fs.FS, opts PostgresOptions) (*DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: postgres url: %w", err)
	}
	var connOpts []stdlib.OptionOpenDB
	if cred, err := tokenCredential(cfg, opts.Credential); err != nil {
		return nil, err
	} else if cred != nil {
		connOpts = append(connOpts, stdlib.OptionBeforeConnect(entraPassword(cred)))
	}
	connector := stdlib.GetConnector(*cfg, connOpts...)
	sqldb := sql.OpenDB(rebindConnector{connector})
	sqldb.SetMaxOpenConns(maxConns)
	sqldb.SetMaxIdleConns(maxConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	if err := sqldb.PingContext(ctx); err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: open postgres %s@%s/%s: %w", cfg.User, cfg.Host, cfg.Database, err)
	}
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		sqldb.Close()
		return nil, fmt.Errorf("store: migration lock: %w", err)
	}
	// The listener's connection is its own, outside the pool: it is held
	// for as long as the server runs, and is signed in the same way.
	return ready(ctx, sqldb, &postgresDialect, connector, migrations, opts.Log, goose.WithSessionLocker(locker))
}

// tokenCredential is the credential whose tokens are the password, or nil
// when a password is configured or the server is on a unix socket and no
// credential was given.
func tokenCredential(cfg *pgx.ConnConfig, given azcore.TokenCredential) (azcore.TokenCredential, error) {
	if cfg.Password != "" {
		return nil, nil
	}
	if given != nil {
		return given, nil
	}
	if strings.HasPrefix(cfg.Host, "/") {
		return nil, nil
	}
	cred, err := azidentity.NewDefaultAzureCredential(nil)
	if err != nil {
		return nil, fmt.Errorf("store: postgres url has no password, and no Entra ID credential: %w", err)
	}
	return cred, nil
}

// entraPassword sets each new connection's password to an access token;
// the credential caches tokens and renews them before they expire.
func entraPassword(cred azcore.TokenCredential) func(context.Context, *pgx.ConnConfig) error {
	return func(ctx context.Context, cc *pgx.ConnConfig) error {
		tok, err := cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{EntraScope}})
		if err != nil {
			return fmt.Errorf("store: entra token for postgres: %w", err)
		}
		cc.Password = tok.Token
		return nil
	}
}
