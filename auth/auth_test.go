package auth_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/store"
	"golang.org/x/crypto/bcrypt"
)

func newAccounts(t *testing.T) (*auth.Accounts, *store.DB) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return auth.NewAccounts(db, bcrypt.MinCost), db
}

const goodPassword = "correct horse battery"

func TestValidatePassword(t *testing.T) {
	for _, tc := range []struct {
		user, pw string
		ok       bool
	}{
		{"ana", goodPassword, true},
		{"ana", "short", false},
		{"ana", "password123", false},
		{"ana", "PASSWORD123", false},
		{"anastasia_k", "Anastasia_K", false},
		{"ana", "aaaaaaaaaaaa", false},
		{"ana", strings.Repeat("ab1c", 19), false}, // 76 bytes: over bcrypt's limit
		{"ana", "ünïcödé-päss", true},
	} {
		err := auth.ValidatePassword(tc.user, tc.pw)
		if (err == nil) != tc.ok {
			t.Errorf("ValidatePassword(%q, %q) = %v, want ok=%v", tc.user, tc.pw, err, tc.ok)
		}
		var ue *auth.UserError
		if err != nil && !errors.As(err, &ue) {
			t.Errorf("error %v is not a UserError", err)
		}
	}
}

func TestNormalizeUsername(t *testing.T) {
	for in, want := range map[string]string{"  ana ": "ana", "<b>&'\"": "<b>&'\"", "": "", "a b": "", strings.Repeat("x", 65): "", "a\x00": ""} {
		got, err := auth.NormalizeUsername(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("NormalizeUsername(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestSetupOnlyOnce(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	if need, _ := a.NeedsSetup(ctx); !need {
		t.Fatal("NeedsSetup = false on an empty database")
	}
	if _, err := a.Setup(ctx, "admin", "weak"); err == nil {
		t.Fatal("Setup accepted a weak password")
	}
	u, err := a.Setup(ctx, "admin", goodPassword)
	if err != nil || !u.IsAdmin() {
		t.Fatalf("Setup = %v, %v", u, err)
	}
	if _, err := a.Setup(ctx, "other", goodPassword); !errors.Is(err, auth.ErrSetupDone) {
		t.Fatalf("second Setup err = %v, want ErrSetupDone", err)
	}
}

func TestLogin(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	ana, err := a.Create(ctx, "", "Ana", goodPassword, store.RoleAnalyst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(ctx, "", "ana", goodPassword, store.RoleAnalyst); !errors.Is(err, auth.ErrUsernameTaken) {
		t.Fatalf("duplicate create: %v", err)
	}

	if u, err := a.Login(ctx, "ana", goodPassword, "10.0.0.1"); err != nil || u.ID != ana.ID {
		t.Fatalf("Login = %v, %v", u, err)
	}
	_, wrongPw := a.Login(ctx, "ana", "wrong password", "10.0.0.1")
	_, noUser := a.Login(ctx, "nobody", goodPassword, "10.0.0.1")
	if wrongPw != auth.ErrBadCredentials || noUser != auth.ErrBadCredentials {
		t.Fatalf("failures differ: %v / %v", wrongPw, noUser)
	}

	t.Run("disabled account cannot sign in and its sessions end", func(t *testing.T) {
		bob, _ := a.Create(ctx, "", "bob", goodPassword, store.RoleAnalyst)
		token := startSession(t, a, bob)
		if err := a.SetDisabled(ctx, "", bob.ID, true); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Login(ctx, "bob", goodPassword, "10.0.0.4"); err != auth.ErrBadCredentials {
			t.Fatalf("disabled login err = %v", err)
		}
		if _, err := a.SessionUser(ctx, token); !errors.Is(err, auth.ErrSessionEnded) {
			t.Fatalf("SessionUser after disable = %v", err)
		}
	})

	t.Run("password reset ends old sessions", func(t *testing.T) {
		carl, _ := a.Create(ctx, "", "carl", goodPassword, store.RoleAnalyst)
		token := startSession(t, a, carl)
		if err := a.ResetPassword(ctx, "", carl.ID, "another good passphrase"); err != nil {
			t.Fatal(err)
		}
		if _, err := a.SessionUser(ctx, token); !errors.Is(err, auth.ErrSessionEnded) {
			t.Fatalf("SessionUser after reset = %v", err)
		}
		if _, err := a.Login(ctx, "carl", "another good passphrase", "10.0.0.5"); err != nil {
			t.Fatal(err)
		}
	})
}

func startSession(t *testing.T, a *auth.Accounts, u *store.User) string {
	t.Helper()
	token, err := a.StartSession(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := a.SessionUser(context.Background(), token); err != nil || got.ID != u.ID {
		t.Fatalf("SessionUser of a new session = %v, %v", got, err)
	}
	return token
}

func TestSessionEndsAtSignOut(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	ana, _ := a.Create(ctx, "", "ana", goodPassword, store.RoleAnalyst)
	phone, laptop := startSession(t, a, ana), startSession(t, a, ana)
	if err := a.EndSession(ctx, laptop); err != nil {
		t.Fatal(err)
	}
	if _, err := a.SessionUser(ctx, laptop); !errors.Is(err, auth.ErrSessionEnded) {
		t.Fatalf("ended session: err = %v, want ErrSessionEnded", err)
	}
	if _, err := a.SessionUser(ctx, phone); err != nil {
		t.Fatalf("the other browser was signed out too: %v", err)
	}
	for _, token := range []string{"", "made-up"} {
		if _, err := a.SessionUser(ctx, token); !errors.Is(err, auth.ErrSessionEnded) {
			t.Fatalf("SessionUser(%q) = %v, want ErrSessionEnded", token, err)
		}
	}
}

// TestOwnerNotLockedOut is issue 13 item 9: failing on purpose from one
// address slows that address down on that account, and only there.
func TestOwnerNotLockedOut(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	if _, err := a.Create(ctx, "", "ana", goodPassword, store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		_, err := a.Login(ctx, "ana", "wrong password", "203.0.113.66")
		if i < 3 && err != auth.ErrBadCredentials || i >= 3 && !errors.Is(err, auth.ErrThrottled) {
			t.Fatalf("attempt %d from the attacker: err = %v", i+1, err)
		}
	}
	var te *auth.ThrottleError
	if _, err := a.Login(ctx, "ana", goodPassword, "203.0.113.66"); !errors.As(err, &te) || te.Wait <= 0 {
		t.Fatalf("right password from the attacker's address: err = %v, want a ThrottleError", err)
	}
	if _, err := a.Login(ctx, "ANA", goodPassword, "198.51.100.7"); err != nil {
		t.Fatalf("the owner, from an address that never failed: %v", err)
	}
}

func TestAddressThrottledAcrossAccounts(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	a.Create(ctx, "", "ana", goodPassword, store.RoleAnalyst)
	for i := 0; i < 20; i++ {
		if _, err := a.Login(ctx, fmt.Sprintf("guess%d", i), "wrong password", "2001:db8::1"); err != auth.ErrBadCredentials {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	// The same /64 is the same client: IPv6 hands out addresses by the million.
	if _, err := a.Login(ctx, "ana", goodPassword, "2001:db8::2"); !errors.Is(err, auth.ErrThrottled) {
		t.Fatalf("21st attempt from the same /64: err = %v, want ErrThrottled", err)
	}
	if _, err := a.Login(ctx, "ana", goodPassword, "2001:db8:0:1::1"); err != nil {
		t.Fatalf("another /64: %v", err)
	}
}

func TestLogNameHidesTheTypedName(t *testing.T) {
	a, _ := newAccounts(t)
	typed := "correct horse battery"
	got := a.LogName(typed)
	if strings.Contains(got, "horse") || len(got) != 12 {
		t.Fatalf("LogName = %q", got)
	}
	if a.LogName("  CORRECT horse battery ") != got {
		t.Fatal("LogName differs for the same name in another case")
	}
	if a.LogName("ana") == got {
		t.Fatal("LogName is the same for different names")
	}
}

func TestLastAdminCannotBeDisabled(t *testing.T) {
	ctx := context.Background()
	a, _ := newAccounts(t)
	root, _ := a.Setup(ctx, "root", goodPassword)
	if err := a.SetDisabled(ctx, "", root.ID, true); !errors.Is(err, auth.ErrLastAdmin) {
		t.Fatalf("err = %v, want ErrLastAdmin", err)
	}
	a.Create(ctx, "", "root2", goodPassword, store.RoleAdmin)
	if err := a.SetDisabled(ctx, "", root.ID, true); err != nil {
		t.Fatalf("with a second admin: %v", err)
	}
}

func TestEnsureAdmin(t *testing.T) {
	ctx := context.Background()
	a, db := newAccounts(t)
	if err := a.EnsureAdmin(ctx, "ops", goodPassword); err != nil {
		t.Fatal(err)
	}
	u, _ := db.UserByUsername(ctx, "ops")
	if err := a.EnsureAdmin(ctx, "ops", goodPassword); err != nil {
		t.Fatal(err)
	}
	same, _ := db.UserByUsername(ctx, "ops")
	if same.SessionEpoch != u.SessionEpoch {
		t.Fatal("an unchanged ADMIN_PASSWORD signed the admin out")
	}
	if err := a.EnsureAdmin(ctx, "ops", "a brand new passphrase"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Login(ctx, "ops", "a brand new passphrase", "::1"); err != nil {
		t.Fatalf("login with reset password: %v", err)
	}
}

func TestThrottleWindow(t *testing.T) {
	ctx := context.Background()
	th := auth.NewThrottle(time.Minute)
	wait := func(key string) time.Duration {
		t.Helper()
		w, err := th.Wait(ctx, key, 3)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	for i := 0; i < 3; i++ {
		th.Fail(ctx, "k")
	}
	if w := wait("k"); w <= 0 || w > time.Minute {
		t.Fatalf("Wait at the limit = %v, want (0, 1m]", w)
	}
	if wait("other") != 0 {
		t.Fatal("an unrelated key is throttled")
	}
	th.Reset(ctx, "k")
	if wait("k") != 0 {
		t.Fatal("throttled after reset")
	}
}
