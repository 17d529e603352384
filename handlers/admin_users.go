package handlers

import (
	"net/http"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// showUsers lists every account.
func (h *Handler) showUsers(c echo.Context) error {
	return h.renderUsers(c, http.StatusOK, views.AdminUsers{Flash: flashMessage(c.QueryParam("done"))})
}

func (h *Handler) renderUsers(c echo.Context, status int, a views.AdminUsers) error {
	users, err := h.db.Users(c.Request().Context())
	if err != nil {
		return err
	}
	a.Users = adminUsersView(users, currentUser(c).ID)
	p, err := h.userPage(c, "Users", "")
	if err != nil {
		return err
	}
	return render(c, status, views.AdminUsersPage(p, a))
}

// createUser adds an analyst or an admin.
func (h *Handler) createUser(c echo.Context) error {
	form := views.NewUserForm{Username: c.FormValue("username"), Role: c.FormValue("role")}
	_, err := h.accounts.Create(c.Request().Context(), currentUser(c).ID, form.Username, c.FormValue("password"), form.Role)
	if err == nil {
		h.log.Info("user created", "username", form.Username, "role", form.Role, "by", currentUser(c).Username)
	}
	return h.usersOutcome(c, err, form, "created")
}

// resetPassword sets a user's password, which signs them out everywhere.
func (h *Handler) resetPassword(c echo.Context) error {
	err := h.accounts.ResetPassword(c.Request().Context(), currentUser(c).ID, c.Param("id"), c.FormValue("password"))
	return h.usersOutcome(c, err, views.NewUserForm{}, "password")
}

// setUserDisabled disables or re-enables an account.
func (h *Handler) setUserDisabled(c echo.Context) error {
	disabled := c.FormValue("disabled") == "1"
	err := h.accounts.SetDisabled(c.Request().Context(), currentUser(c).ID, c.Param("id"), disabled)
	done := "enabled"
	if disabled {
		done = "disabled"
	}
	return h.usersOutcome(c, err, views.NewUserForm{}, done)
}

// usersOutcome ends an account change: back to the list saying what was
// done, or the list again with auth's refusal above the form, what was
// typed kept (a refusal belongs beside the form, not on an error page).
func (h *Handler) usersOutcome(c echo.Context, err error, form views.NewUserForm, done string) error {
	if msg, ok := userMessage(err); ok {
		return h.renderUsers(c, http.StatusUnprocessableEntity, views.AdminUsers{Error: msg, Form: form})
	}
	if err != nil {
		return err
	}
	return redirect(c, "/admin/users?done="+done)
}

// flashMessage is the confirmation shown after a redirect back to the list.
func flashMessage(done string) string {
	return map[string]string{
		"created":  "User added. Give them their username and password.",
		"password": "Password changed. The user has been signed out everywhere.",
		"disabled": "User disabled and signed out everywhere.",
		"enabled":  "User enabled.",
	}[done]
}

// adminUsersView builds the account list of the admin page.
func adminUsersView(users []*store.User, self string) []views.AdminUser {
	out := make([]views.AdminUser, 0, len(users))
	for _, u := range users {
		out = append(out, views.AdminUser{ID: u.ID, Username: u.Username, Role: u.Role, Disabled: u.Disabled,
			CreatedAt: u.CreatedAt, IsSelf: u.ID == self, SignIn: signInMethods(u)})
	}
	return out
}

// signInMethods says how u can sign in, for the admin's list: single
// sign-on, a password, or both (an SSO account an admin gave a password).
func signInMethods(u *store.User) string {
	switch {
	case u.UsesSSO() && u.HasPassword():
		return "Microsoft, password"
	case u.UsesSSO():
		return "Microsoft"
	default:
		return "Password"
	}
}
