package handlers

import (
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// render writes a templ component. It renders into a buffer first, so a
// failing component yields a clean error page rather than half a page.
func render(c echo.Context, status int, t templ.Component) error {
	buf := templ.GetBuffer()
	defer templ.ReleaseBuffer(buf)
	if err := t.Render(c.Request().Context(), buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}

// isHTMX reports whether the request was made by htmx, which wants a
// fragment rather than a page.
func isHTMX(c echo.Context) bool { return c.Request().Header.Get("HX-Request") == "true" }

// wantsFragment reports whether an error should be answered with an alert
// fragment rather than a page: htmx requests swap it in, and the upload
// script (X-Upload) adds it to the toasts.
func wantsFragment(c echo.Context) bool {
	return isHTMX(c) || c.Request().Header.Get("X-Upload") == "1"
}

// isNavigation reports whether a browser is navigating (a plain HTML form
// post), which wants a page or a redirect. htmx requests, scripts and API
// clients get the fragment the action produced instead.
func isNavigation(c echo.Context) bool {
	r := c.Request()
	if isHTMX(c) {
		return false
	}
	if mode := r.Header.Get("Sec-Fetch-Mode"); mode != "" {
		return mode == "navigate"
	}
	return strings.HasPrefix(r.Header.Get("Accept"), "text/html")
}

// redirect sends the browser to url: with HX-Redirect for htmx requests
// (a 303 would be followed by the XHR and swapped into the page), and with
// 303 See Other otherwise.
func redirect(c echo.Context, url string) error {
	if isHTMX(c) {
		c.Response().Header().Set("HX-Redirect", url)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, url)
}

// page returns the view model of a signed-out page (sign-in, set-up).
func (h *Handler) page(c echo.Context, title string) views.Page {
	return views.Page{Title: title, CSRFToken: csrfToken(c), Engine: h.engine}
}

// userPage returns the view model of a signed-in page with its sidebar;
// activeID marks the conversation being shown.
func (h *Handler) userPage(c echo.Context, title, activeID string) (views.Page, error) {
	u := currentUser(c)
	query := c.QueryParam("q")
	after, _ := parseCursor(c.QueryParam("after"))
	list, err := h.conversationList(c, query, after, activeID)
	if err != nil {
		return views.Page{}, err
	}
	p := h.page(c, title)
	p.User = userView(u)
	p.Sidebar = &views.Sidebar{Query: query, ActiveID: activeID, List: list}
	return p, nil
}

func userView(u *store.User) *views.User {
	return &views.User{ID: u.ID, Username: u.Username, IsAdmin: u.IsAdmin()}
}
