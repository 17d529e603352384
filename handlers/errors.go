package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// handleError is echo's one error handler. It maps an error to a status and
// a message fit for the user, logs what the user must not see, and renders
// a page, or an alert fragment for htmx requests. Internal error text never
// reaches the browser; a 500 shows the request id instead.
func (h *Handler) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		h.log.Warn("error after response started", "err", err, "path", c.Request().URL.Path)
		return
	}
	e := describeError(err)
	if errors.Is(err, store.ErrNotFound) {
		e = h.describeMissing(c, e)
	}
	if e.Status >= 500 {
		e.RequestID = c.Response().Header().Get(echo.HeaderXRequestID)
		h.log.Error("request failed", "err", err, "request_id", e.RequestID,
			slog.String("method", c.Request().Method), slog.String("path", c.Request().URL.Path))
	}
	// A refusal may change any minute (a link revoked, a file untied), and
	// under a cacheable share link it would otherwise be kept as the page.
	c.Response().Header().Set("Cache-Control", "no-store")
	if c.Request().Method == http.MethodHead {
		c.NoContent(e.Status)
		return
	}
	// A body cut off also cancels the request's context (net/http does so
	// on a failed read), but the client may still read the answer.
	c.SetRequest(c.Request().WithContext(context.WithoutCancel(c.Request().Context())))
	var rerr error
	if wantsFragment(c) {
		rerr = render(c, e.Status, views.ErrorAlert(e))
	} else {
		rerr = render(c, e.Status, views.ErrorPage(h.errorPage(c, e), e))
	}
	if rerr != nil {
		h.log.Error("render error page", "err", rerr)
		c.String(e.Status, e.Title)
	}
}

// errorPage is the frame of an error page: with the user's menu when signed
// in, and the sidebar too when the error is the request's (4xx), so the
// user can go on from where they are. A server error skips the sidebar,
// which may be what failed.
func (h *Handler) errorPage(c echo.Context, e views.Error) views.Page {
	p := h.page(c, e.Title)
	u, ok := c.Get(ctxUser).(*store.User)
	if !ok {
		return p
	}
	p.User = userView(u)
	if e.Status < 500 {
		if list, err := h.conversationList(c, "", store.Cursor{}, ""); err == nil {
			p.Sidebar = &views.Sidebar{List: list}
		}
	}
	return p
}

// userMessage returns the text of a refusal meant for the user: the
// packages that refuse input (auth, chat, files) give their errors a
// UserMessage method, and only that text ever reaches the browser.
func userMessage(err error) (string, bool) {
	var u interface{ UserMessage() string }
	if errors.As(err, &u) {
		return u.UserMessage(), true
	}
	return "", false
}

// refusal gives a refusal meant for the user (see userMessage) a status
// other than 422, the status of every other such refusal.
type refusal struct {
	code int
	err  error
}

// refuse returns err with the status code when it is a refusal meant for
// the user, and err itself otherwise (a failure, which stays a 500).
func refuse(code int, err error) error {
	if _, ok := userMessage(err); !ok {
		return err
	}
	return &refusal{code: code, err: err}
}

func (r *refusal) Error() string { return r.err.Error() }
func (r *refusal) Unwrap() error { return r.err }

// describeError turns err into what the user is told. A refusal meant for
// the user is told as it is, with 422 or its refusal's status: this is the
// one place the handlers turn such refusals into a status.
func describeError(err error) views.Error {
	var he *echo.HTTPError
	msg, refused := userMessage(err)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return notFound
	case errors.As(err, &he): // a status set by the handler wins over a refusal's default
		return describeHTTPError(he)
	case refused:
		code := http.StatusUnprocessableEntity
		var r *refusal
		if errors.As(err, &r) {
			code = r.code
		}
		return describeHTTPError(echo.NewHTTPError(code, msg))
	default:
		return views.Error{Status: http.StatusInternalServerError, Title: "Something went wrong",
			Message: "The server could not complete this request. Try again; if it keeps happening, tell your administrator."}
	}
}

var notFound = views.Error{Status: http.StatusNotFound, Title: "Not found",
	Message: "There is nothing here, or it is not yours to see. Check the address, or go back to your conversations."}

func describeHTTPError(he *echo.HTTPError) views.Error {
	msg, _ := he.Message.(string)
	switch he.Code {
	case http.StatusNotFound:
		if msg == "" || msg == http.StatusText(http.StatusNotFound) {
			return notFound
		}
		return views.Error{Status: he.Code, Title: "Not found", Message: msg}
	case http.StatusForbidden:
		return views.Error{Status: he.Code, Title: "Not allowed", Message: orDefault(msg, "You are not allowed to do this.")}
	case http.StatusMethodNotAllowed:
		return views.Error{Status: he.Code, Title: "Not allowed", Message: "This address does not accept that kind of request."}
	case http.StatusUnprocessableEntity, http.StatusBadRequest:
		return views.Error{Status: he.Code, Title: "Check what you sent", Message: orDefault(msg, "Something in the form is missing or not valid. Go back, correct it and try again.")}
	case http.StatusRequestEntityTooLarge:
		return views.Error{Status: he.Code, Title: "Too large", Message: orDefault(msg, "What you sent is larger than this form accepts.")}
	}
	if he.Code >= 500 {
		return describeError(fmt.Errorf("%v", he))
	}
	return views.Error{Status: he.Code, Title: http.StatusText(he.Code), Message: orDefault(msg, "The request could not be completed.")}
}

func orDefault(s, def string) string {
	// echo's own messages are its status texts ("Forbidden"); only ours are sentences.
	switch s {
	case "", http.StatusText(http.StatusForbidden), http.StatusText(http.StatusBadRequest), http.StatusText(http.StatusRequestEntityTooLarge):
		return def
	}
	return s
}
