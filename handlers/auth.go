package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// showSetup shows the form that creates the first administrator.
func (h *Handler) showSetup(c echo.Context) error {
	return render(c, http.StatusOK, views.SetupPage(h.page(c, "Set up"), views.AuthForm{}))
}

// setup creates the first administrator and signs them in.
func (h *Handler) setup(c echo.Context) error {
	username, password := c.FormValue("username"), c.FormValue("password")
	form := views.AuthForm{Username: username}
	if confirm := c.FormValue("password_confirm"); confirm != "" && confirm != password {
		form.Error = "The two passwords differ. Type the same password twice."
		return render(c, http.StatusUnprocessableEntity, views.SetupPage(h.page(c, "Set up"), form))
	}
	u, err := h.accounts.Setup(c.Request().Context(), username, password)
	if errors.Is(err, auth.ErrSetupDone) {
		return echo.NewHTTPError(http.StatusForbidden, err.Error())
	}
	if msg, ok := userMessage(err); ok {
		form.Error = msg
		return render(c, http.StatusUnprocessableEntity, views.SetupPage(h.page(c, "Set up"), form))
	}
	if err != nil {
		return err
	}
	h.log.Info("first administrator created", "username", u.Username)
	if err := h.signIn(c, u); err != nil {
		return err
	}
	return redirect(c, "/")
}

// showLogin shows the sign-in form.
func (h *Handler) showLogin(c echo.Context) error {
	form := h.loginForm(c.QueryParam("next"))
	switch lost, _ := c.Get(ctxSessionLost).(bool); {
	case lost || c.QueryParam("expired") == "1":
		form.Notice = "Your session has ended. Sign in again to continue."
	case strings.HasPrefix(form.Next, "/s/"):
		form.Notice = "A conversation was shared with the people who can sign in here. Sign in to read it."
	}
	return render(c, http.StatusOK, views.LoginPage(h.page(c, "Sign in"), form))
}

// loginForm is the sign-in form returning to next, with the single sign-on
// button when it is configured.
func (h *Handler) loginForm(next string) views.AuthForm {
	f := views.AuthForm{Next: next, PasswordsForAdminsOnly: h.accounts.PasswordsForAdminsOnly()}
	if h.oidc != nil {
		f.SSOURL = "/auth/oidc/login"
		if isLocalPath(next) {
			f.SSOURL += "?next=" + url.QueryEscape(next)
		}
	}
	return f
}

// login checks the credentials and starts a session. The client address
// comes from echo's IPExtractor (see clientIP), which believes forwarding
// headers only from trusted proxies, so the throttle cannot be dodged.
func (h *Handler) login(c echo.Context) error {
	username, password := c.FormValue("username"), c.FormValue("password")
	next := safeNext(c.FormValue("next"))
	u, err := h.accounts.Login(c.Request().Context(), username, password, c.RealIP())
	if msg, ok := userMessage(err); ok {
		status := http.StatusUnauthorized
		var te *auth.ThrottleError
		if errors.As(err, &te) {
			status = http.StatusTooManyRequests
			c.Response().Header().Set("Retry-After", strconv.Itoa(int(te.Wait.Seconds())+1))
		}
		// A hash, not the name: people type their password there.
		h.log.Info("sign-in refused", "username_hash", h.accounts.LogName(username), "remote", c.RealIP(), "reason", msg)
		form := h.loginForm(c.FormValue("next"))
		form.Username, form.Error = username, msg
		return render(c, status, views.LoginPage(h.page(c, "Sign in"), form))
	}
	if err != nil {
		return err
	}
	if err := h.signIn(c, u); err != nil {
		return err
	}
	return redirect(c, next)
}

// logout ends the session, here and in the browser.
func (h *Handler) logout(c echo.Context) error {
	if err := h.signOut(c); err != nil {
		return err
	}
	return redirect(c, "/login")
}
