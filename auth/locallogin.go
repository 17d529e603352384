package auth

import "github.com/analyst-workbench/workbench/store"

// LocalLogin says who may sign in with a password.
type LocalLogin string

// The values of LOCAL_LOGIN.
const (
	// LocalLoginAll lets every account with a password use it.
	LocalLoginAll LocalLogin = "all"
	// LocalLoginAdmins keeps passwords for administrators only, as a
	// break-glass way in when single sign-on is down; everyone else signs
	// in through the provider.
	LocalLoginAdmins LocalLogin = "admins"
)

// SetLocalLogin sets who may sign in with a password; call it before
// serving. The default is LocalLoginAll.
func (a *Accounts) SetLocalLogin(l LocalLogin) { a.adminPasswordsOnly = l == LocalLoginAdmins }

// PasswordsForAdminsOnly reports whether LOCAL_LOGIN=admins is in force,
// which the sign-in page says.
func (a *Accounts) PasswordsForAdminsOnly() bool { return a.adminPasswordsOnly }

// passwordAllowed reports whether u may sign in with a password at all.
func (a *Accounts) passwordAllowed(u *store.User) bool {
	return u.HasPassword() && (!a.adminPasswordsOnly || u.IsAdmin())
}
