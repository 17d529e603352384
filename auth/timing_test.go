package auth

import (
	"context"
	"fmt"
	"path/filepath"
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
// half: the dummy hash has the configured cost.
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
	if _, err := a.Create(ctx, "", "ana", "correct horse battery", store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	// The timing half interleaves the two, each attempt from a fresh address
	// so that no throttle answers early, and compares the fastest of each:
	// load on a busy machine only ever adds time, so the minimum is the
	// attempt's own cost (a median still flaked at load 10 on 2 cores).
	var known, unknown time.Duration
	for i := range 9 {
		for _, username := range []string{"ana", "nobody"} {
			start := time.Now()
			if _, err := a.Login(ctx, username, "wrong password", fmt.Sprintf("192.0.2.%d", 2*i+len(username))); err != ErrBadCredentials {
				t.Fatalf("Login(%s) = %v", username, err)
			}
			d := time.Since(start)
			if username == "ana" && (known == 0 || d < known) {
				known = d
			} else if username == "nobody" && (unknown == 0 || d < unknown) {
				unknown = d
			}
		}
	}
	if unknown*3 < known || known*3 < unknown {
		t.Fatalf("fastest sign-in: known user %v, unknown user %v; want within 3×", known, unknown)
	}
}
