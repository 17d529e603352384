package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"golang.org/x/crypto/bcrypt"
)

// Errors of the Accounts service; all but ErrThrottled and ErrSessionEnded
// are UserErrors, whose text is shown to the user as it is.
var (
	// ErrBadCredentials is the one message for every failed sign-in, so that
	// it never tells whether the username exists.
	ErrBadCredentials error = userError("Wrong username or password.")
	// ErrThrottled matches every *ThrottleError, which says how long to wait.
	ErrThrottled = errors.New("auth: sign-in throttled")
	// ErrSetupDone means the first admin exists already.
	ErrSetupDone error = userError("Set-up is complete: an administrator exists. Sign in instead.")
	// ErrUsernameTaken means another account has that username.
	ErrUsernameTaken error = userError("That username is taken; choose another.")
	// ErrLastAdmin protects the last enabled administrator from being disabled.
	ErrLastAdmin error = userError("This is the last active administrator; it cannot be disabled.")
	// ErrDisableSelf keeps an administrator from locking themselves out.
	ErrDisableSelf error = userError("You cannot disable your own account.")
	// ErrSessionEnded means a cookie session no longer matches its account.
	ErrSessionEnded = errors.New("auth: session ended")
)

// Limits on failed sign-ins. An address may fail failuresPerAddress times
// per window, whatever the accounts. One account from one address gets
// freeFailures, then waits firstDelay, doubling after each further failure
// up to maxDelay. No limit is per account alone: that would let anyone lock
// the owner out by failing on purpose.
const (
	failuresPerAddress = 20
	throttleWindow     = 15 * time.Minute
	freeFailures       = 3
	firstDelay         = 2 * time.Second
	maxDelay           = 15 * time.Minute
)

// Actors of account changes that no signed-in user makes, as the audit log
// names them.
const (
	// ActorEnvironment is ADMIN_USERNAME and ADMIN_PASSWORD applied at start.
	ActorEnvironment = "environment"
	// ActorSSO is the identity provider, whose sign-ins create accounts and
	// decide their roles.
	ActorSSO = "sso"
)

// Accounts creates, signs in and manages user accounts. Every change to an
// account is written to the audit log with who made it, in the change's own
// transaction.
type Accounts struct {
	db     *store.DB
	hasher hasher
	// addresses counts failures per client address, pairs per account and
	// address; see Login.
	addresses *Throttle
	pairs     *Backoff
	logKey    []byte
	setupDone atomic.Bool
	// adminPasswordsOnly is LOCAL_LOGIN=admins; see SetLocalLogin.
	adminPasswordsOnly bool
}

// NewAccounts returns the service. bcryptCost 0 means bcrypt's default;
// tests pass bcrypt.MinCost to stay fast. It hashes one password at that
// cost, for unknown usernames (see Login).
func NewAccounts(db *store.DB, bcryptCost int) *Accounts {
	if bcryptCost == 0 {
		bcryptCost = bcrypt.DefaultCost + 1
	}
	a := &Accounts{db: db, hasher: newHasher(bcryptCost), addresses: NewThrottle(throttleWindow),
		pairs: NewBackoff(freeFailures, firstDelay, maxDelay), logKey: randomKey()}
	// Replicas sharing the database share the failures too: in each one's
	// memory an attacker would get as many attempts as there are replicas.
	if db.Shared() {
		a.addresses = NewThrottleIn(StoreFailures(db, "address"), throttleWindow)
		a.pairs = NewBackoffIn(StoreFailures(db, "pair"), freeFailures, firstDelay, maxDelay)
	}
	return a
}

// NeedsSetup reports whether no account exists yet. Every request asks, so
// once an account exists the answer is remembered: accounts are never
// deleted, so set-up can never be needed again.
func (a *Accounts) NeedsSetup(ctx context.Context) (bool, error) {
	if a.setupDone.Load() {
		return false, nil
	}
	n, err := a.db.CountUsers(ctx)
	if err != nil {
		return false, err
	}
	a.setupDone.Store(n > 0)
	return n == 0, nil
}

// Setup creates the first administrator, who is the actor of its own
// creation; it fails with ErrSetupDone once any account exists.
func (a *Accounts) Setup(ctx context.Context, username, password string) (*store.User, error) {
	username, hash, err := a.prepare(username, password)
	if err != nil {
		return nil, err
	}
	u, err := a.db.CreateFirstUser(ctx, username, hash, store.RoleAdmin, created("", store.RoleAdmin))
	if errors.Is(err, store.ErrConflict) {
		return nil, ErrSetupDone
	}
	return u, err
}

// Create adds an account with the given role; actor is the user id of the
// administrator who adds it.
func (a *Accounts) Create(ctx context.Context, actor, username, password, role string) (*store.User, error) {
	if role != store.RoleAnalyst && role != store.RoleAdmin {
		return nil, invalid("Choose the role analyst or admin.")
	}
	username, hash, err := a.prepare(username, password)
	if err != nil {
		return nil, err
	}
	u, err := a.db.CreateUser(ctx, username, hash, role, created(actor, role))
	if errors.Is(err, store.ErrConflict) {
		return nil, ErrUsernameTaken
	}
	return u, err
}

// created is the audit entry of a new account with role.
func created(actor, role string) *store.AccountAudit {
	return &store.AccountAudit{Actor: actor, Action: store.ActionUserCreate, Details: map[string]any{"role": role}}
}

// roleChanged is the audit entry of a change of role.
func roleChanged(actor, from, to string) store.AccountAudit {
	return store.AccountAudit{Actor: actor, Action: store.ActionUserRoleChange, Details: map[string]any{"from": from, "to": to}}
}

func (a *Accounts) prepare(username, password string) (string, string, error) {
	username, err := NormalizeUsername(username)
	if err != nil {
		return "", "", err
	}
	if err := ValidatePassword(username, password); err != nil {
		return "", "", err
	}
	hash, err := a.hasher.hash(password)
	if err != nil {
		return "", "", fmt.Errorf("auth: hash password: %w", err)
	}
	return username, hash, nil
}

// Login checks a username and password typed from addr. Each failure
// slows down further attempts on that account from that address (growing
// delays) and counts against the address; a throttled attempt gets a
// *ThrottleError, right password or not, and is not checked at all.
func (a *Accounts) Login(ctx context.Context, username, password, addr string) (*store.User, error) {
	username = strings.TrimSpace(username)
	addrKey := addressKey(addr)
	pairKey := strings.ToLower(username) + "\x00" + addrKey
	if wait, err := a.throttled(ctx, pairKey, addrKey); err != nil || wait > 0 {
		if err != nil {
			return nil, err
		}
		return nil, &ThrottleError{Wait: wait}
	}
	u, err := a.db.UserByUsername(ctx, username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	// An unknown name, or an account without a password (single sign-on
	// only), is checked against a hash of the same cost, so that it takes
	// as long as a known one and timing tells nothing.
	hash := a.hasher.dummy
	if u != nil && u.HasPassword() {
		hash = u.PasswordHash
	}
	ok := a.hasher.check(hash, password)
	// An account LOCAL_LOGIN shuts out fails like a wrong password, right
	// password or not: a different answer would confirm the password.
	if u == nil || !ok || u.Disabled || !a.passwordAllowed(u) {
		if err := a.failed(ctx, pairKey, addrKey); err != nil {
			return nil, err
		}
		return nil, ErrBadCredentials
	}
	if err := a.pairs.Reset(ctx, pairKey); err != nil {
		return nil, fmt.Errorf("auth: forget failed sign-ins: %w", err)
	}
	return u, nil
}

// throttled returns how long the next attempt on pairKey from addrKey
// must wait: the longer of the pair's and the address's waits.
func (a *Accounts) throttled(ctx context.Context, pairKey, addrKey string) (time.Duration, error) {
	pair, err := a.pairs.Wait(ctx, pairKey)
	if err != nil {
		return 0, fmt.Errorf("auth: read failed sign-ins: %w", err)
	}
	addr, err := a.addresses.Wait(ctx, addrKey, failuresPerAddress)
	if err != nil {
		return 0, fmt.Errorf("auth: read failed sign-ins: %w", err)
	}
	return max(pair, addr), nil
}

// failed counts a failure against the pair and the address. If it cannot
// be recorded the attempt ends in that error, a server's, rather than in
// ErrBadCredentials: the limits no longer hold, which is worth hearing of.
func (a *Accounts) failed(ctx context.Context, pairKey, addrKey string) error {
	if err := a.pairs.Fail(ctx, pairKey); err != nil {
		return fmt.Errorf("auth: record failed sign-in: %w", err)
	}
	if err := a.addresses.Fail(ctx, addrKey); err != nil {
		return fmt.Errorf("auth: record failed sign-in: %w", err)
	}
	return nil
}

// ResetPassword sets a new password, which signs the user out everywhere;
// actor is the administrator's user id.
func (a *Accounts) ResetPassword(ctx context.Context, actor, id, password string) error {
	u, err := a.db.UserByID(ctx, id)
	if err != nil {
		return err
	}
	if err := ValidatePassword(u.Username, password); err != nil {
		return err
	}
	hash, err := a.hasher.hash(password)
	if err != nil {
		return fmt.Errorf("auth: hash password: %w", err)
	}
	return a.db.UpdateUser(ctx, id, store.UserUpdate{PasswordHash: &hash,
		Audit: []store.AccountAudit{{Actor: actor, Action: store.ActionUserPasswordReset}}})
}

// SetDisabled disables or enables an account. Neither the actor's own
// account (the administrator's user id) nor the last enabled admin can be
// disabled, so that someone can always sign in to manage the rest.
func (a *Accounts) SetDisabled(ctx context.Context, actor, id string, disabled bool) error {
	if disabled && id == actor {
		return ErrDisableSelf
	}
	if disabled {
		u, err := a.db.UserByID(ctx, id)
		if err != nil {
			return err
		}
		if u.IsAdmin() && !u.Disabled {
			if n, err := a.activeAdmins(ctx); err != nil {
				return err
			} else if n <= 1 {
				return ErrLastAdmin
			}
		}
	}
	return a.db.UpdateUser(ctx, id, store.UserUpdate{Disabled: &disabled,
		Audit: []store.AccountAudit{{Actor: actor, Action: enableAction(disabled)}}})
}

// enableAction is the audit action of setting the disabled flag.
func enableAction(disabled bool) string {
	if disabled {
		return store.ActionUserDisable
	}
	return store.ActionUserEnable
}

func (a *Accounts) activeAdmins(ctx context.Context) (int, error) {
	users, err := a.db.Users(ctx)
	n := 0
	for _, u := range users {
		if u.IsAdmin() && !u.Disabled {
			n++
		}
	}
	return n, err
}

// EnsureAdmin creates the named administrator, or resets its password,
// role and disabled flag if it exists. cmd/web calls it at start when
// ADMIN_USERNAME and ADMIN_PASSWORD are set, so an install can be scripted.
func (a *Accounts) EnsureAdmin(ctx context.Context, username, password string) error {
	username, hash, err := a.prepare(username, password)
	if err != nil {
		return fmt.Errorf("auth: ADMIN_PASSWORD: %w", err)
	}
	// Replicas starting together take turns, so that the second finds the
	// account the first made instead of failing to make it again.
	return a.db.Exclusive(ctx, "admin:"+username, func(ctx context.Context) error {
		return a.ensureAdmin(ctx, username, password, hash)
	})
}

// ensureAdmin is EnsureAdmin once the password is hashed, one server at a time.
func (a *Accounts) ensureAdmin(ctx context.Context, username, password, hash string) error {
	u, err := a.db.UserByUsername(ctx, username)
	if errors.Is(err, store.ErrNotFound) {
		_, err = a.db.CreateUser(ctx, username, hash, store.RoleAdmin, created(ActorEnvironment, store.RoleAdmin))
		return err
	}
	if err != nil {
		return err
	}
	// An unchanged password keeps the hash, so a restart does not sign the
	// admin out of every browser.
	upd := store.UserUpdate{}
	if !a.hasher.check(u.PasswordHash, password) {
		upd.PasswordHash = &hash
		upd.Audit = append(upd.Audit, store.AccountAudit{Actor: ActorEnvironment, Action: store.ActionUserPasswordReset})
	}
	role, enabled := store.RoleAdmin, false
	if u.Role != role {
		upd.Role = &role
		upd.Audit = append(upd.Audit, roleChanged(ActorEnvironment, u.Role, role))
	}
	if u.Disabled {
		upd.Disabled = &enabled
		upd.Audit = append(upd.Audit, store.AccountAudit{Actor: ActorEnvironment, Action: store.ActionUserEnable})
	}
	return a.db.UpdateUser(ctx, u.ID, upd)
}
