package auth_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/internal/pgtest"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
	"golang.org/x/crypto/bcrypt"
)

// twoReplicas returns the accounts services of two replicas sharing one
// PostgreSQL database, each with a pool of its own, as two processes have.
func twoReplicas(t *testing.T) [2]*auth.Accounts {
	t.Helper()
	url := pgtest.Shared(t).Database(t, "")
	var out [2]*auth.Accounts
	for i := range out {
		db, err := store.OpenPostgres(context.Background(), url, migrations.Postgres, store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		out[i] = auth.NewAccounts(db, bcrypt.MinCost)
	}
	return out
}

// TestSharedThrottle_FailuresSplitAcrossReplicasReachOneLimit is issue 29's
// acceptance H: failed sign-ins from one address, sent alternately to two
// replicas, reach the address's limit of 20 together, and the next attempt
// is refused on both; another address is not.
func TestSharedThrottle_FailuresSplitAcrossReplicasReachOneLimit(t *testing.T) {
	ctx := context.Background()
	r := twoReplicas(t)
	if _, err := r[0].Create(ctx, "", "ana", goodPassword, store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		// A new name each time, so that only the address's limit counts.
		if _, err := r[i%2].Login(ctx, fmt.Sprintf("guess%d", i), "wrong password", "203.0.113.9"); err != auth.ErrBadCredentials {
			t.Fatalf("failure %d on replica %d: %v", i+1, i%2+1, err)
		}
	}
	for i, a := range r {
		if _, err := a.Login(ctx, "ana", goodPassword, "203.0.113.9"); !errors.Is(err, auth.ErrThrottled) {
			t.Fatalf("21st attempt on replica %d: err = %v, want ErrThrottled", i+1, err)
		}
	}
	if _, err := r[1].Login(ctx, "ana", goodPassword, "198.51.100.7"); err != nil {
		t.Fatalf("another address: %v", err)
	}
}

// TestSharedThrottle_BackoffCountsBothReplicas: a success on either
// replica forgets the account's failures from that address on both, and
// failures split across them use up its free failures once.
func TestSharedThrottle_BackoffCountsBothReplicas(t *testing.T) {
	ctx := context.Background()
	r := twoReplicas(t)
	if _, err := r[0].Create(ctx, "", "ana", goodPassword, store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	fail := func(on int) {
		t.Helper()
		if _, err := r[on].Login(ctx, "ana", "wrong password", "203.0.113.66"); err != auth.ErrBadCredentials {
			t.Fatalf("failure on replica %d: %v", on+1, err)
		}
	}
	signIn := func(on int) error {
		_, err := r[on].Login(ctx, "ana", goodPassword, "203.0.113.66")
		return err
	}
	fail(0)
	fail(1)
	if err := signIn(1); err != nil {
		t.Fatalf("within the free failures: %v", err)
	}
	// Four failures in all, but the success forgot the first two.
	fail(0)
	fail(1)
	if err := signIn(0); err != nil {
		t.Fatalf("after a success on replica 2 and two more failures: %v", err)
	}
	fail(1)
	fail(0)
	fail(1)
	var te *auth.ThrottleError
	if err := signIn(0); !errors.As(err, &te) || te.Wait <= 0 {
		t.Fatalf("after 3 failures split across replicas: err = %v, want a ThrottleError", err)
	}
}

// TestEnsureAdmin_TwoReplicasAtOnce: replicas starting together with the
// same ADMIN_USERNAME both start, and make one account between them.
func TestEnsureAdmin_TwoReplicasAtOnce(t *testing.T) {
	ctx := context.Background()
	r := twoReplicas(t)
	errs := make(chan error, len(r))
	for _, a := range r {
		go func() { errs <- a.EnsureAdmin(ctx, "ops", goodPassword) }()
	}
	for range r {
		if err := <-errs; err != nil {
			t.Fatalf("EnsureAdmin beside another replica: %v", err)
		}
	}
	if _, err := r[1].Login(ctx, "ops", goodPassword, "203.0.113.9"); err != nil {
		t.Fatalf("the admin made at once by two replicas cannot sign in: %v", err)
	}
}
