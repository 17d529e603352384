package auth

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
	"golang.org/x/crypto/bcrypt"
)

// testCost is high enough for the cost to dominate a sign-in's time, and
// far from bcrypt.MinCost, which the dummy hash once used (16× cheaper).
const testCost = 8

// TestUnknownUsernameCostsTheSame is issue 13 item 8. The deterministic
// half: the dummy hash has the configured cost. The timing half compares
// medians, each attempt from a fresh address so that no throttle answers
// early, and allows 3×, which noise on a busy machine stays well within.
func TestUnknownUsernameCostsTheSame(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	a := NewAccounts(db, testCost)
	if got, err := bcrypt.Cost([]byte(a.hasher.dummy)); err != nil || got != testCost {
		t.Fatalf("dummy hash cost = %d, %v; want %d", got, err, testCost)
	}
	if _, err := a.Create(ctx, "ana", "correct horse battery", store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	attempt := 0
	median := func(username string) time.Duration {
		var ds []time.Duration
		for range 5 {
			attempt++
			start := time.Now()
			if _, err := a.Login(ctx, username, "wrong password", fmt.Sprintf("192.0.2.%d", attempt)); err != ErrBadCredentials {
				t.Fatalf("Login(%s) = %v", username, err)
			}
			ds = append(ds, time.Since(start))
		}
		slices.Sort(ds)
		return ds[len(ds)/2]
	}
	known, unknown := median("ana"), median("nobody")
	if unknown*3 < known || known*3 < unknown {
		t.Fatalf("median sign-in time: known user %v, unknown user %v; want within 3×", known, unknown)
	}
}
