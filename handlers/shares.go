package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/shares"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// createShare makes a read-only link to one of the user's conversations.
// htmx gets the list of links with the new one; a plain form goes back to
// the conversation with the list open; a script gets the link itself.
func (h *Handler) createShare(c echo.Context) error {
	convID := c.Param("id")
	share, err := h.shares.Create(c.Request().Context(), currentUser(c).ID, convID, shareOptions(c))
	if err != nil {
		return err // a refused lifetime is a 422 with its message (describeError)
	}
	h.log.Info("share created", "share", share.ID, "conversation", convID, "anyone", share.Anyone,
		"include_uploads", share.IncludeUploads, "expires", share.ExpiresAt)
	switch {
	case isHTMX(c):
		return h.renderShareList(c, convID, share.ID)
	case isNavigation(c):
		return redirect(c, "/conversations/"+convID+"?shares=1")
	}
	c.Response().Header().Set(echo.HeaderLocation, sharePath(share.Token))
	return c.String(http.StatusCreated, shareURL(c, share.Token)+"\n")
}

// shareOptions reads the form of a new link, which the shares package
// judges: a lifetime that is not a whole number reads as -1 days.
func shareOptions(c echo.Context) shares.Options {
	o := shares.Options{Anyone: c.FormValue("anyone") == "1", IncludeUploads: c.FormValue("include_uploads") == "1"}
	if s := strings.TrimSpace(c.FormValue("expires_days")); s != "" {
		o.Days = -1
		if n, err := strconv.Atoi(s); err == nil && n != 0 {
			o.Days = n
		}
	}
	return o
}

// revokeShare ends one of the links of the user's conversation.
func (h *Handler) revokeShare(c echo.Context) error {
	convID, shareID := c.Param("id"), c.Param("share")
	if err := h.shares.Revoke(c.Request().Context(), currentUser(c).ID, convID, shareID); err != nil {
		return err
	}
	h.log.Info("share revoked", "share", shareID, "conversation", convID)
	if isHTMX(c) {
		return h.renderShareList(c, convID, "")
	}
	return redirect(c, "/conversations/"+convID+"?shares=1")
}

// revokeAnyShare lets an administrator end any link, from /admin.
func (h *Handler) revokeAnyShare(c echo.Context) error {
	if err := h.shares.RevokeAny(c.Request().Context(), currentUser(c), c.Param("share")); err != nil {
		return err
	}
	h.log.Info("share revoked by an administrator", "share", c.Param("share"), "admin", currentUser(c).ID)
	return redirect(c, "/admin#shares")
}

func (h *Handler) renderShareList(c echo.Context, convID, newID string) error {
	panel, err := h.sharePanel(c, convID)
	if err != nil {
		return err
	}
	for i := range panel.Links {
		panel.Links[i].New = panel.Links[i].ID == newID
	}
	return render(c, http.StatusOK, views.ShareList(csrfToken(c), panel))
}

// sharePanel loads the live links of the user's conversation.
func (h *Handler) sharePanel(c echo.Context, convID string) (views.SharePanel, error) {
	shares, err := h.db.Shares(c.Request().Context(), currentUser(c).ID, convID)
	if err != nil {
		return views.SharePanel{}, err
	}
	p := views.SharePanel{ConversationID: convID, Open: c.QueryParam("shares") == "1"}
	for _, s := range shares {
		p.Links = append(p.Links, views.ShareLink{ID: s.ID, URL: shareURL(c, s.Token), Anyone: s.Anyone,
			IncludeUploads: s.IncludeUploads, CreatedAt: s.CreatedAt, ExpiresAt: s.ExpiresAt, Views: s.Views,
			LastViewedAt: s.LastViewedAt})
	}
	return p, nil
}

func sharePath(token string) string { return "/s/" + token }

// logPath hides the secret of a read-only link in the request log, so that
// reading the log does not open the link; the share's id is logged instead
// when a page is viewed.
func logPath(p string) string {
	rest, ok := strings.CutPrefix(p, "/s/")
	if !ok {
		return p
	}
	if _, after, found := strings.Cut(rest, "/"); found {
		return "/s/…/" + after
	}
	return "/s/…"
}

// shareURL is the whole link, to copy: this site as the browser reached it.
func shareURL(c echo.Context, token string) string {
	return c.Scheme() + "://" + c.Request().Host + sharePath(token)
}

// adminShareRows lists the live links of every user for /admin.
func adminShareRows(shares []*store.Share) []views.AdminShareRow {
	out := make([]views.AdminShareRow, 0, len(shares))
	for _, s := range shares {
		out = append(out, views.AdminShareRow{ID: s.ID, Title: s.Title, Owner: s.Owner, Anyone: s.Anyone,
			CreatedAt: s.CreatedAt, ExpiresAt: s.ExpiresAt, Views: s.Views})
	}
	return out
}
