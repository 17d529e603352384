package handlers

import (
	"errors"
	"net/http"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// keyOIDC holds the single sign-on flow in progress (auth.Flow) in the
// session, from startOIDC to finishOIDC.
const keyOIDC = "oidc"

// startOIDC sends the browser to the provider, keeping the flow's state,
// nonce and PKCE verifier in the session.
func (h *Handler) startOIDC(c echo.Context) error {
	flow, to, err := h.oidc.Begin(c.Request().Context(), safeNext(c.QueryParam("next")))
	if err != nil {
		return h.ssoRefused(c, c.QueryParam("next"), err)
	}
	sess := session(c)
	sess.Values[keyOIDC] = flow.Encode()
	if err := sess.Save(c.Request(), c.Response()); err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, to)
}

// finishOIDC is where the provider sends the browser back. The flow leaves
// the session before anything is checked, so that it is used once, and the
// sign-in ends in the same server-side session a password starts.
func (h *Handler) finishOIDC(c echo.Context) error {
	sess := session(c)
	encoded, _ := sess.Values[keyOIDC].(string)
	delete(sess.Values, keyOIDC)
	flow := auth.DecodeFlow(encoded)
	u, err := h.oidc.Finish(c.Request().Context(), flow, c.QueryParams())
	if err != nil {
		if serr := sess.Save(c.Request(), c.Response()); serr != nil {
			return serr
		}
		return h.ssoRefused(c, flow.Next, err)
	}
	h.log.Info("single sign-on", "username", u.Username, "role", u.Role)
	if err := h.signIn(c, u); err != nil {
		return err
	}
	return redirect(c, safeNext(flow.Next))
}

// ssoRefused shows the sign-in page with what went wrong, and logs why; an
// error without a message for the person is a 500 like any other.
func (h *Handler) ssoRefused(c echo.Context, next string, err error) error {
	msg, ok := userMessage(err)
	if !ok {
		return err
	}
	h.log.Info("single sign-on refused", "reason", err.Error(), "remote", c.RealIP())
	status := http.StatusUnauthorized
	if errors.Is(err, auth.ErrSSOUnavailable) {
		status = http.StatusServiceUnavailable
	}
	form := h.loginForm(next)
	form.Error = msg
	return render(c, status, views.LoginPage(h.page(c, "Sign in"), form))
}
