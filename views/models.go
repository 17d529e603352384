// Package views holds the templ pages and fragments. Every component takes
// a plain view model defined here; views import no store or foundry code, so
// a page shows exactly what its handler chose to give it.
package views

import (
	"strings"
	"time"
)

// Page carries what every full page needs.
type Page struct {
	Title     string
	CSRFToken string
	// User is the signed-in user; nil on the sign-in and set-up pages.
	User *User
	// Engine names the engine in use, shown as a badge in the header.
	Engine Engine
	// Sidebar lists the user's conversations; nil on pages without it.
	Sidebar *Sidebar
}

// User is the signed-in user as the pages show them.
type User struct {
	ID       string
	Username string
	IsAdmin  bool
}

// Engine describes where code runs: the built-in local engine or Foundry.
type Engine struct {
	Local bool
	// Detail is shown as the badge's tooltip, e.g. the Foundry project.
	Detail string
}

// Sidebar is the conversation list beside every signed-in page.
type Sidebar struct {
	Query    string
	ActiveID string
	List     ConversationList
}

// ConversationList is one page of the sidebar's list, grouped by age.
type ConversationList struct {
	Groups []ConversationGroup
	// MoreURL fetches the next page; empty on the last page.
	MoreURL string
	// Query is the search the list answers, for its empty state.
	Query string
	// Continued is true for a page after the first, which is appended to the
	// list already shown.
	Continued bool
	// Results answer a search (Query not blank) in place of Groups.
	Results []SearchResult
	// Refused says why a search was not answered (it took too long), in
	// place of its results.
	Refused string
}

// Searching reports whether the list answers a search.
func (l ConversationList) Searching() bool { return strings.TrimSpace(l.Query) != "" }

// ConversationGroup is a run of conversations of the same age bucket.
type ConversationGroup struct {
	// Label is "Today", "Previous 7 days" or "Older"; empty when the group
	// continues the previous page's last group.
	Label string
	Items []ConversationItem
}

// ConversationItem is one conversation in the list.
type ConversationItem struct {
	ID        string
	Title     string
	UpdatedAt time.Time
	Active    bool
}

// Conversation is the main pane of a conversation.
type Conversation struct {
	ID        string
	Title     string
	CreatedAt time.Time
	// Renaming shows the title as a form (the no-JavaScript rename path).
	Renaming bool
	// TitleError is shown beside the rename form.
	TitleError string
}

// AuthForm is the sign-in or set-up form with what the user typed.
type AuthForm struct {
	Username string
	Error    string
	// Notice is a neutral message, e.g. "Your session expired".
	Notice string
	// Next is where to go after signing in.
	Next string
	// SSOURL starts single sign-on ("Sign in with Microsoft"); empty when
	// none is configured.
	SSOURL string
	// PasswordsForAdminsOnly says that only administrators may use the
	// password form (LOCAL_LOGIN=admins).
	PasswordsForAdminsOnly bool
}

// AdminUsers is the account management page.
type AdminUsers struct {
	Users []AdminUser
	// Form holds what was typed into the add-user form.
	Form  NewUserForm
	Flash string
	Error string
}

// AdminUser is one account row.
type AdminUser struct {
	ID        string
	Username  string
	Role      string
	Disabled  bool
	CreatedAt time.Time
	IsSelf    bool
	// SignIn says how the user signs in: "Microsoft", "Password", or both.
	SignIn string
}

// NewUserForm is the add-user form.
type NewUserForm struct {
	Username string
	Role     string
}

// Error is an error page or alert.
type Error struct {
	Status    int
	Title     string
	Message   string
	RequestID string
}
