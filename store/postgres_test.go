package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/pressly/goose/v3/lock"

	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
)

// TestOpenPostgres_MigratesOnceFromTwoProcesses: two replicas starting at
// once on an empty database migrate it once between them (goose's session
// lock), and both open.
func TestOpenPostgres_MigratesOnceFromTwoProcesses(t *testing.T) {
	only(t, "postgres")
	url := pgtest.Shared(t).Database(t, "")
	errs := atOnce(2, func(int) error {
		db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
		if err != nil {
			return err
		}
		return db.Close()
	})
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("opening at once: %v", err)
	}
	if n := applied(t, url); n != 1 {
		t.Fatalf("baseline applied %d times, want once", n)
	}
}

// TestOpenPostgres_WaitsForTheMigrationLock: while another process holds
// goose's lock, opening an empty database migrates nothing; once it is
// released the open migrates, once.
func TestOpenPostgres_WaitsForTheMigrationLock(t *testing.T) {
	only(t, "postgres")
	ctx := context.Background()
	url := pgtest.Shared(t).Database(t, "")
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	holder, err := raw.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, lock.DefaultLockID); err != nil {
		t.Fatal(err)
	}
	opened := make(chan error, 1)
	go func() {
		db, err := store.OpenPostgres(ctx, url, migrations.Postgres, store.PostgresOptions{})
		if err == nil {
			err = db.Close()
		}
		opened <- err
	}()
	waitFor(t, func() bool {
		var n int
		raw.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
			AND query LIKE 'SELECT pg_try_advisory_lock%'`).Scan(&n)
		return n > 0
	})
	// goose may make its version table outside the lock; the schema waits.
	var users sql.NullString
	raw.QueryRow(`SELECT to_regclass('users')::text`).Scan(&users)
	if users.Valid {
		t.Fatal("migrated while another process held the lock")
	}
	if _, err := holder.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, lock.DefaultLockID); err != nil {
		t.Fatal(err)
	}
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
	if n := applied(t, url); n != 1 {
		t.Fatalf("baseline applied %d times, want once", n)
	}
}

// waitFor polls cond until it holds, failing t after half a minute.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// applied counts the applications of the baseline migration recorded in url.
func applied(t *testing.T, url string) int {
	t.Helper()
	raw, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var n int
	if err := raw.QueryRow(`SELECT count(*) FROM goose_db_version WHERE version_id = 13 AND is_applied`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestOpenPostgres_Reopens keeps the data and applies no migration twice.
func TestOpenPostgres_Reopens(t *testing.T) {
	only(t, "postgres")
	ctx := context.Background()
	url := postgresDatabase(t)
	db := openPostgres(t, url)
	if _, err := db.CreateUser(ctx, "ana", "h", store.RoleAdmin, nil); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openPostgres(t, url)
	if n, err := db.CountUsers(ctx); err != nil || n != 1 {
		t.Fatalf("CountUsers = %d, %v; want 1", n, err)
	}
	if n := applied(t, url); n != 1 {
		t.Fatalf("baseline applied %d times, want once", n)
	}
}

// rotatingCredential hands out the current token and counts the requests.
type rotatingCredential struct {
	mu     sync.Mutex
	token  string
	err    error
	scopes []string
	calls  atomic.Int64
}

func (c *rotatingCredential) GetToken(_ context.Context, o policy.TokenRequestOptions) (azcore.AccessToken, error) {
	c.calls.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.scopes = o.Scopes
	return azcore.AccessToken{Token: c.token, ExpiresOn: time.Now().Add(time.Hour)}, c.err
}

func (c *rotatingCredential) set(token string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.token, c.err = token, err
}

// TestOpenPostgres_EntraTokenPerConnection signs in with no password in the
// URL: each new connection asks the credential for a token of the Azure
// Database for PostgreSQL scope and uses it as the password, so a token
// renewed after the first keeps new connections opening.
func TestOpenPostgres_EntraTokenPerConnection(t *testing.T) {
	only(t, "postgres")
	ctx := context.Background()
	c := pgtest.Shared(t)
	role := fmt.Sprintf("entra_app_%d", time.Now().UnixNano())
	c.Exec(t, `CREATE ROLE `+role+` LOGIN SUPERUSER PASSWORD 'token-1' IN ROLE `+pgtest.PasswordGroup)
	t.Cleanup(func() { c.Exec(t, `DROP ROLE `+role) })
	url := pgtest.AsRole(postgresDatabase(t), role, "")
	cred := &rotatingCredential{token: "token-1"}
	db, err := store.OpenPostgres(ctx, url, migrations.Postgres, store.PostgresOptions{Credential: cred})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := strings.Join(cred.scopes, " "); got != store.EntraScope {
		t.Errorf("token scope %q, want %q", got, store.EntraScope)
	}
	before := cred.calls.Load()
	c.Exec(t, `ALTER ROLE `+role+` PASSWORD 'token-2'`)
	cred.set("token-2", nil)
	if err := db.PingConns(ctx, 4); err != nil {
		t.Fatalf("new connections after the token changed: %v", err)
	}
	if n := cred.calls.Load() - before; n < 3 {
		t.Errorf("%d token requests for at least 3 new connections", n)
	}
	cred.set("", errors.New("no managed identity here"))
	_, err = store.OpenPostgres(ctx, url, migrations.Postgres, store.PostgresOptions{Credential: cred})
	if err == nil || !strings.Contains(err.Error(), "no managed identity here") {
		t.Fatalf("open with a failing credential: %v, want its error", err)
	}
}
