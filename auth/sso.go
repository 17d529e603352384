package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/analyst-workbench/workbench/store"
)

// Refusals of a single sign-on whose identity was proven: unlike a failed
// password they may say why, since nothing is being guessed.
var (
	// ErrAccountDisabled refuses a person whose account was disabled here,
	// whatever the provider says.
	ErrAccountDisabled error = userError("Your account is disabled. Ask an administrator to enable it.")
	// ErrSSONotAllowed refuses a person in none of OIDC_ALLOWED_GROUPS.
	ErrSSONotAllowed error = userError("Your account is not in a group allowed to use the workbench. Ask an administrator for access.")
	// ErrSSOGroupsOverage refuses a person in so many groups that the token
	// could not list them (Entra ID stops at 200), so the gate cannot tell.
	ErrSSOGroupsOverage error = userError("Your account is in too many groups for the sign-in to list them. " +
		"Ask an administrator to grant access with an app role instead.")
)

// Identity is who a single sign-on provider says signed in, taken from a
// verified id token.
type Identity struct {
	// Tenant and ID name the person for good: Entra ID's tid and oid (for
	// another provider, the issuer and sub). E-mail and names can change
	// hands, so they never link an account.
	Tenant, ID string
	// Username is the name a new account gets: preferred_username, email
	// or name, as the token has them.
	Username string
	// Groups (object ids) and Roles (app role values) from the token.
	Groups, Roles []string
	// GroupsOverage means the token points elsewhere for the groups, which
	// Entra ID does when a person is in too many to list.
	GroupsOverage bool
}

// SSOPolicy decides who may sign in through the provider and who is an
// administrator. Entries match group object ids and app role values alike.
type SSOPolicy struct {
	// AllowedGroups, when not empty, are the groups or app roles one of
	// which a person needs to sign in at all.
	AllowedGroups []string
	// AdminRoles are the groups or app roles that make an administrator.
	// When set, the provider decides the role at every sign-in; when empty,
	// new accounts are analysts and roles are left as they are.
	AdminRoles []string
}

// role returns the role id should have, or why it may not sign in. An
// administrator by AdminRoles passes the gate whatever AllowedGroups says.
func (p SSOPolicy) role(id Identity) (string, error) {
	if id.has(p.AdminRoles) {
		return store.RoleAdmin, nil
	}
	if len(p.AllowedGroups) > 0 && !id.has(p.AllowedGroups) {
		if id.GroupsOverage {
			return "", ErrSSOGroupsOverage
		}
		return "", ErrSSONotAllowed
	}
	return store.RoleAnalyst, nil
}

// has reports whether id holds any of names as a group or an app role.
func (id Identity) has(names []string) bool {
	for _, n := range names {
		if slices.Contains(id.Groups, n) || slices.Contains(id.Roles, n) {
			return true
		}
	}
	return false
}

// SignInSSO returns the account of a person the provider vouched for,
// creating it at their first sign-in. The policy is applied every time, so
// that leaving an allowed group at the provider ends access here too, and
// a disabled account is refused, so that disabling here blocks SSO.
func (a *Accounts) SignInSSO(ctx context.Context, id Identity, p SSOPolicy) (*store.User, error) {
	role, err := p.role(id)
	if err != nil {
		return nil, err
	}
	u, err := a.db.UserBySSO(ctx, id.Tenant, id.ID)
	if errors.Is(err, store.ErrNotFound) {
		return a.createSSOUser(ctx, id, role)
	}
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		return nil, ErrAccountDisabled
	}
	if len(p.AdminRoles) == 0 || u.Role == role {
		return u, nil
	}
	return a.changeRole(ctx, u, role)
}

// changeRole gives u the role the provider decided, except that the last
// active administrator stays one, so that someone can always manage the
// rest (as SetDisabled keeps them enabled).
func (a *Accounts) changeRole(ctx context.Context, u *store.User, role string) (*store.User, error) {
	if u.IsAdmin() {
		n, err := a.activeAdmins(ctx)
		if err != nil {
			return nil, err
		}
		if n <= 1 {
			return u, nil
		}
	}
	upd := store.UserUpdate{Role: &role, Audit: []store.AccountAudit{roleChanged(ActorSSO, u.Role, role)}}
	if err := a.db.UpdateUser(ctx, u.ID, upd); err != nil {
		return nil, err
	}
	u.Role = role
	return u, nil
}

// createSSOUser makes the account of a first sign-in. Its name is the one
// the token suggests; when a local account (or another person) has that
// name already, a short tag of the identity is added rather than taking
// the other account over.
func (a *Accounts) createSSOUser(ctx context.Context, id Identity, role string) (*store.User, error) {
	base := ssoUsername(id)
	for _, name := range []string{base, withTag(base, id)} {
		u, err := a.db.CreateSSOUser(ctx, name, role, id.Tenant, id.ID, created(ActorSSO, role))
		if !errors.Is(err, store.ErrConflict) {
			return u, err
		}
		// Two first sign-ins of the same person at once: the other won.
		if u, err := a.db.UserBySSO(ctx, id.Tenant, id.ID); err == nil {
			return u, nil
		}
	}
	return nil, fmt.Errorf("auth: no free username for %q", base)
}

// ssoUsername is the token's name if it is a valid username, and a name
// made from the identity otherwise.
func ssoUsername(id Identity) string {
	if name, err := NormalizeUsername(id.Username); err == nil {
		return name
	}
	return "user-" + identityTag(id)
}

// withTag appends the identity's tag to name, within MaxUsernameLen.
func withTag(name string, id Identity) string {
	tag := "-" + identityTag(id)
	r := []rune(name)
	if len(r)+len(tag) > MaxUsernameLen {
		r = r[:MaxUsernameLen-len(tag)]
	}
	return string(r) + tag
}

// identityTag is a short, stable tag of an identity; hashed because ids
// from other providers can be any string.
func identityTag(id Identity) string {
	sum := sha256.Sum256([]byte(id.Tenant + "\x00" + id.ID))
	return hex.EncodeToString(sum[:3])
}
