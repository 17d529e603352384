package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// How long a shared page may be kept. A revoked link stays readable from
// a cache until the copy there expires, so no copy, in a browser or a
// shared cache (a proxy, a CDN), lasts more than the minute the README
// promises. A link that needs a sign-in is never kept by a shared cache,
// which could not tell who is signed in.
const (
	cacheSignedIn = "private, max-age=60"
	cacheAnyone   = "public, max-age=60"
)

// errShareGone is the one answer for a link that is unknown, revoked or
// expired, so that none can be told from another.
var errShareGone = echo.NewHTTPError(http.StatusNotFound,
	"This link is no longer valid: it was revoked or it expired. Ask whoever shared it for a new one.")

// openShare loads the live link named in the path, for whoever may read
// it. A link for signed-in users sends anyone else to the sign-in page,
// which returns here. ok is false when the request is answered: by err, or
// by the redirect already written.
func (h *Handler) openShare(c echo.Context) (share *store.Share, viewer *store.User, ok bool, err error) {
	// No refusal or redirect may be kept by a cache, since the link may
	// change any minute; a link that opens replaces this below.
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Set("X-Robots-Tag", "noindex, nofollow")
	share, err = h.db.ShareByToken(c.Request().Context(), c.Param("token"))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, false, errShareGone
	}
	if err != nil {
		return nil, nil, false, err
	}
	if viewer, err = h.viewer(c); err != nil {
		return nil, nil, false, err
	}
	if viewer == nil && !share.Anyone {
		return nil, nil, false, c.Redirect(http.StatusSeeOther, "/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
	}
	if share.Anyone {
		c.Response().Header().Set("Cache-Control", cacheAnyone)
	} else {
		c.Response().Header().Set("Cache-Control", cacheSignedIn)
	}
	return share, viewer, true, nil
}

// answerShareOptions answers OPTIONS under a share link with the methods it
// allows, no body and no cookie.
func answerShareOptions(c echo.Context) error {
	c.Response().Header().Set("Allow", "GET, HEAD, OPTIONS")
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.NoContent(http.StatusNoContent)
}

// viewer is the signed-in user of a request outside the session middleware
// (a shared page, /metrics), or nil. The session cookie is read, never
// started or saved, so that a shared page sets no cookie and does not
// depend on who reads it: a cache may keep it.
func (h *Handler) viewer(c echo.Context) (*store.User, error) {
	sess, err := h.sessions.Get(c.Request(), sessionName)
	if err != nil {
		return nil, nil
	}
	token, _ := sess.Values[keySession].(string)
	if token == "" {
		return nil, nil
	}
	u, err := h.accounts.SessionUser(c.Request().Context(), token)
	if errors.Is(err, auth.ErrSessionEnded) {
		return nil, nil
	}
	return u, err
}

// showShare shows a conversation read-only through its link, and counts
// the view unless the owner is looking.
func (h *Handler) showShare(c echo.Context) error {
	share, viewer, ok, err := h.openShare(c)
	if !ok {
		return err
	}
	ctx := c.Request().Context()
	v, err := h.sharedView(ctx, share)
	if err != nil {
		return err
	}
	who := "anonymous"
	if viewer != nil {
		who = viewer.ID
	}
	if err := h.shares.Viewed(ctx, share, viewer, c.Request().Method); err != nil {
		h.log.Warn("share view", "share", share.ID, "err", err)
	}
	h.log.Info("share viewed", "share", share.ID, "conversation", share.ConversationID, "viewer", who, "remote", c.RealIP())
	return render(c, http.StatusOK, views.SharePage(views.Page{Title: share.Title, Engine: h.engine}, v))
}

// sharedView loads what a shared page shows: its latest finished answers
// as the owner sees them, with the share's file routes (an answer still
// running as it stands), and the button for the earlier ones.
func (h *Handler) sharedView(ctx context.Context, share *store.Share) (views.Shared, error) {
	v := views.Shared{Title: share.Title, ExpiresAt: share.ExpiresAt, SharedBy: sharedBy(share)}
	turns, err := h.db.Turns(ctx, share.ConversationID)
	if err != nil {
		return v, err
	}
	turns, v.Earlier = latestTurns(sharePath(share.Token), turns)
	if v.Turns, err = h.sharedTurns(ctx, share, turns, v.SharedBy); err != nil {
		return v, err
	}
	if share.IncludeUploads {
		v.Files, err = h.sharedFiles(ctx, share)
	}
	return v, err
}

// showSharedEarlier answers a shared page's "Show earlier questions".
func (h *Handler) showSharedEarlier(c echo.Context) error {
	share, _, ok, err := h.openShare(c)
	if !ok {
		return err
	}
	ctx := c.Request().Context()
	turns, err := h.db.Turns(ctx, share.ConversationID)
	if err != nil {
		return err
	}
	turns, more := latestTurns(sharePath(share.Token), turnsBefore(turns, c.QueryParam("before")))
	shown, err := h.sharedTurns(ctx, share, turns, sharedBy(share))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.EarlierPage(shown, more))
}

// sharedBy names the owner of a link for signed-in viewers; a link anyone
// may open names no one.
func sharedBy(share *store.Share) string {
	if share.Anyone {
		return ""
	}
	return share.Owner
}

// sharedTurns lays out turns of a shared conversation as its link shows them.
func (h *Handler) sharedTurns(ctx context.Context, share *store.Share, turns []store.Turn, by string) ([]views.ChatTurn, error) {
	answers, err := h.chat.Answers(ctx, share.OwnerID, share.ConversationID, store.RunIDs(turns))
	if err != nil {
		return nil, err
	}
	now, base := time.Now(), sharePath(share.Token)
	var out []views.ChatTurn
	for _, t := range turns {
		a := answers[t.Run.ID]
		if a.Settle(t.Run) {
			a.Notices = append(a.Notices, "This answer was still being written when the page was loaded; reload later for the rest.")
		}
		o := h.answerOptions(false, now)
		o.sharePath = base
		turn := turnView(t.Message, answerView(share.ConversationID, t.Run.ID, a, o))
		if turn.Step != nil {
			// A link anyone may open does not name the owner, nor the author of their steps.
			turn.Step.Author = cmp.Or(by, "the analyst")
		}
		out = append(out, turn)
	}
	return out, nil
}

func (h *Handler) sharedFiles(ctx context.Context, share *store.Share) ([]views.SharedFile, error) {
	ups, err := h.chat.Files(ctx, share.OwnerID, share.ConversationID)
	if err != nil {
		return nil, err
	}
	out := make([]views.SharedFile, 0, len(ups))
	for _, u := range ups {
		f := views.SharedFile{Name: u.File.Name, Size: u.File.Size, URL: sharePath(share.Token) + "/files/" + u.File.ID}
		if p := u.Profile; p != nil && len(p.Columns) > 0 {
			f.Shape = fmt.Sprintf("%d rows × %d columns", p.Rows, len(p.Columns))
		}
		out = append(out, f)
	}
	return out, nil
}

// downloadSharedArtifact serves a generated file of the shared
// conversation; any other artifact is not found.
func (h *Handler) downloadSharedArtifact(c echo.Context) error {
	share, _, ok, err := h.openShare(c)
	if !ok {
		return err
	}
	a, err := h.db.Artifact(c.Request().Context(), c.Param("artifact"))
	if err != nil {
		return err
	}
	if a.ConversationID != share.ConversationID {
		return store.ErrNotFound
	}
	return h.serveBlob(c, a.SHA256, a.ContentType, a.Name, a.CreatedAt, c.QueryParam("inline") == "1")
}

// downloadSharedFile serves an uploaded file of the shared conversation,
// only when its owner included them; always as an attachment.
func (h *Handler) downloadSharedFile(c echo.Context) error {
	share, _, ok, err := h.openShare(c)
	if !ok {
		return err
	}
	if !share.IncludeUploads {
		return store.ErrNotFound
	}
	fls, err := h.db.Files(c.Request().Context(), share.OwnerID, share.ConversationID)
	if err != nil {
		return err
	}
	for _, f := range fls {
		if f.ID == c.Param("file") {
			return h.serveBlob(c, f.SHA256, f.ContentType, f.Name, f.CreatedAt, false)
		}
	}
	return store.ErrNotFound
}
