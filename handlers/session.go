package handlers

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/store"
	"github.com/gorilla/sessions"
	"github.com/labstack/echo/v4"
)

// sessionName is the cookie that holds the signed, encrypted session.
const sessionName = "wb_session"

// sessionMaxAge is how long the cookie lasts: as long as the server-side
// session it names.
const sessionMaxAge = auth.SessionLifetime

// Keys of the echo context and of the session's values.
const (
	ctxSession = "session"
	ctxUser    = "user"
	// ctxSessionLost marks a request whose cookie could not be read: it was
	// tampered with, signed with an old key, or expired.
	ctxSessionLost = "session_lost"

	// keySession holds the token of the server-side session (Accounts.StartSession);
	// the cookie alone, however well signed, opens nothing once that ends.
	keySession = "sid"
	keyCSRF    = "csrf"
)

// NewSessionStore returns a cookie store whose cookies are signed and
// encrypted with keys derived from secrets (the first is current; later ones
// still open older cookies, for rotation).
func NewSessionStore(secrets [][]byte) *sessions.CookieStore {
	var pairs [][]byte
	for _, s := range secrets {
		hashKey, blockKey := deriveKeys(s)
		pairs = append(pairs, hashKey, blockKey)
	}
	cs := sessions.NewCookieStore(pairs...)
	cs.Options = &sessions.Options{Path: "/", MaxAge: int(sessionMaxAge.Seconds()), HttpOnly: true, SameSite: http.SameSiteLaxMode}
	cs.MaxAge(cs.Options.MaxAge)
	return cs
}

// loadSession reads the session cookie (or starts an empty session) and makes
// sure it carries a CSRF token.
func (h *Handler) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		sess, err := h.sessions.Get(r, sessionName)
		if err != nil {
			// An unreadable cookie is not an error page: the visitor starts
			// over with a fresh session and is told why on the sign-in page.
			c.Set(ctxSessionLost, true)
			sess, _ = h.sessions.New(r, sessionName)
		}
		opts := *sess.Options
		opts.Secure = isHTTPS(r)
		sess.Options = &opts
		if _, ok := sess.Values[keyCSRF].(string); !ok {
			sess.Values[keyCSRF] = newToken()
			if err := sess.Save(r, c.Response()); err != nil {
				return err
			}
		}
		c.Set(ctxSession, sess)
		return next(c)
	}
}

// checkCSRF refuses unsafe requests whose token (form field _csrf or header
// X-CSRF-Token) does not match the session's. The token lives in the
// session rather than in echo's CSRF cookie because echo's middleware
// replaces the token with a constant for browsers that send Sec-Fetch-Site,
// and DESIGN.md promises one real token per session in every page.
func (h *Handler) checkCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions:
			return next(c)
		}
		if c.Request().Header.Get("Sec-Fetch-Site") == "cross-site" {
			return errForbiddenCSRF
		}
		// From the header or the form's body only: a token in the URL would
		// be kept in logs, history and Referer headers.
		got := c.Request().Header.Get("X-CSRF-Token")
		if got == "" {
			got = c.Request().PostFormValue("_csrf")
		}
		if !tokenValid(c, []byte(got)) {
			return errForbiddenCSRF
		}
		return next(c)
	}
}

// tokenValid reports whether got is the session's CSRF token.
func tokenValid(c echo.Context, got []byte) bool {
	want := csrfToken(c)
	return want != "" && subtle.ConstantTimeCompare(got, []byte(want)) == 1
}

var errForbiddenCSRF = echo.NewHTTPError(http.StatusForbidden,
	"This form has expired or did not come from this site. Reload the page and try again.")

// requireSetup sends every request to /setup while no account exists, and
// refuses /setup once one does.
func (h *Handler) requireSetup(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		need, err := h.accounts.NeedsSetup(c.Request().Context())
		if err != nil {
			return err
		}
		onSetup := c.Path() == "/setup"
		switch {
		case need && !onSetup:
			return redirect(c, "/setup")
		case !need && onSetup && c.Request().Method == http.MethodGet:
			return redirect(c, "/login")
		}
		return next(c)
	}
}

// requireUser lets signed-in users through and sends everyone else to the
// sign-in page, remembering where they were going.
func (h *Handler) requireUser(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess := session(c)
		if token, _ := sess.Values[keySession].(string); token != "" {
			u, err := h.accounts.SessionUser(c.Request().Context(), token)
			if err == nil {
				c.Set(ctxUser, u)
				return next(c)
			}
			if !errors.Is(err, auth.ErrSessionEnded) {
				return err
			}
			c.Set(ctxSessionLost, true)
			delete(sess.Values, keySession)
			if err := sess.Save(c.Request(), c.Response()); err != nil {
				return err
			}
		}
		target := "/login"
		if lost, _ := c.Get(ctxSessionLost).(bool); lost {
			target += "?expired=1"
		}
		if r := c.Request(); r.Method == http.MethodGet && r.URL.Path != "/" && !isHTMX(c) {
			target += sep(target) + "next=" + url.QueryEscape(r.URL.RequestURI())
		}
		return redirect(c, target)
	}
}

// requireAdmin refuses non-admins with a 403 page.
func (h *Handler) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !currentUser(c).IsAdmin() {
			return echo.NewHTTPError(http.StatusForbidden, "This page is for administrators only.")
		}
		return next(c)
	}
}

// signIn starts a server-side session for u, keeps its token in the cookie
// and renews the CSRF token, so that a token seen before sign-in is useless
// after it. A session the browser had is ended first.
func (h *Handler) signIn(c echo.Context, u *store.User) error {
	sess := session(c)
	ctx := c.Request().Context()
	if old, _ := sess.Values[keySession].(string); old != "" {
		if err := h.accounts.EndSession(ctx, old); err != nil {
			return err
		}
	}
	token, err := h.accounts.StartSession(ctx, u)
	if err != nil {
		return err
	}
	sess.Values[keySession] = token
	sess.Values[keyCSRF] = newToken()
	return sess.Save(c.Request(), c.Response())
}

// signOut ends the server-side session, so that a copy of the cookie taken
// before opens nothing, then deletes the cookie.
func (h *Handler) signOut(c echo.Context) error {
	sess := session(c)
	token, _ := sess.Values[keySession].(string)
	if err := h.accounts.EndSession(c.Request().Context(), token); err != nil {
		return err
	}
	sess.Values = map[any]any{}
	sess.Options.MaxAge = -1
	return sess.Save(c.Request(), c.Response())
}

func session(c echo.Context) *sessions.Session { return c.Get(ctxSession).(*sessions.Session) }

// currentUser is the signed-in user; only valid behind requireUser.
func currentUser(c echo.Context) *store.User { return c.Get(ctxUser).(*store.User) }

func csrfToken(c echo.Context) string {
	s, _ := c.Get(ctxSession).(*sessions.Session)
	if s == nil {
		return ""
	}
	t, _ := s.Values[keyCSRF].(string)
	return t
}

func newToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// isHTTPS reports whether the browser reached us over https, directly or
// through a proxy, which decides the cookie's Secure flag.
func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

func sep(u string) string {
	if strings.Contains(u, "?") {
		return "&"
	}
	return "?"
}
