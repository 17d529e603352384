package handlers

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// showAdmin shows the totals, usage per user and the cross-user lists.
func (h *Handler) showAdmin(c echo.Context) error {
	filter := store.AdminFilter{UserID: c.QueryParam("user"), Query: c.QueryParam("q")}
	d, err := h.adminData(c.Request().Context(), filter)
	if err != nil {
		return err
	}
	v := overviewView(d.overview)
	v.FilterUser, v.FilterQuery = filter.UserID, filter.Query
	v.UserOptions = adminUsersView(d.users, "")
	v.Audit, v.RetentionDays = auditView(d.audit, usernames(d.users)), d.retain
	v.Shares = adminShareRows(d.shares)
	v.Sandbox, v.Packages = h.sandboxCard(), h.packagesCard()
	v.Agent = h.agentView(c.Request().Context())
	if v.CodeSessions, err = h.adminSessions(c.Request().Context(), time.Now()); err != nil {
		return err
	}
	for _, cv := range d.convs {
		v.Conversations = append(v.Conversations, views.AdminConversationRow{ID: cv.ID, Title: cv.Title, Username: cv.Username,
			FoundryID: cv.FoundryConversationID, ContainerID: cv.ContainerID, Files: cv.Files, StoredBytes: cv.StoredBytes, UpdatedAt: cv.UpdatedAt})
	}
	for _, f := range d.files {
		v.Files = append(v.Files, views.AdminFileRow{Name: f.Name, Username: f.Username, Conversation: f.ConversationTitle,
			FoundryID: f.FoundryFileID, Size: f.Size, CreatedAt: f.CreatedAt})
	}
	p, err := h.userPage(c, "Administration", "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.AdminOverviewPage(p, v))
}

// adminData is what the admin overview shows, read from the store.
type adminData struct {
	overview *store.Overview
	convs    []store.AdminConversation
	files    []store.AdminFile
	users    []*store.User
	audit    []store.AuditEntry
	shares   []*store.Share
	retain   int
}

// adminData reads the overview's queries in one transaction, so that its
// totals, lists and audit agree with each other.
func (h *Handler) adminData(ctx context.Context, filter store.AdminFilter) (*adminData, error) {
	d := &adminData{}
	err := h.db.Read(ctx, func(db *store.DB) error {
		var err error
		if d.overview, err = db.Overview(ctx, time.Now(), 14); err != nil {
			return err
		}
		if d.convs, err = db.AdminConversations(ctx, filter); err != nil {
			return err
		}
		if d.files, err = db.AdminFiles(ctx, filter); err != nil {
			return err
		}
		if d.users, err = db.Users(ctx); err != nil {
			return err
		}
		if d.audit, err = db.AuditLog(ctx, 20); err != nil {
			return err
		}
		if d.shares, err = db.LiveShares(ctx, 100); err != nil {
			return err
		}
		d.retain, err = db.IntSetting(ctx, store.SettingRetentionDays, h.retain)
		return err
	})
	return d, err
}

func overviewView(o *store.Overview) views.AdminOverview {
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	v := views.AdminOverview{SessionsToday: o.SessionsActive, Totals: []views.Stat{
		{Label: "users", Value: n(o.Users)},
		{Label: "conversations", Value: n(o.Conversations)},
		{Label: "uploaded files", Value: n(o.Files), Hint: views.ByteSize(o.FileBytes)},
		{Label: "generated files", Value: n(o.Artifacts), Hint: views.ByteSize(o.ArtifactBytes)},
		{Label: "on disk", Value: views.ByteSize(o.FileBytes + o.ArtifactBytes)},
		{Label: "Foundry objects", Value: n(o.FoundryFiles + o.FoundryConversations),
			Hint: n(o.FoundryFiles) + " files, " + n(o.FoundryConversations) + " conversations"},
		{Label: "sessions active", Value: n(o.SessionsActive)},
		{Label: "tokens", Value: views.FormatTokens(o.InputTokens + o.OutputTokens),
			Hint: n(o.InputTokens) + " in, " + n(o.OutputTokens) + " out"},
	}}
	var most int64 = 1
	for _, d := range o.SessionsPerDay {
		most = max(most, d.Count)
	}
	for _, d := range o.SessionsPerDay {
		v.SessionDays = append(v.SessionDays, views.DayBar{Day: d.Day, Count: d.Count, Pct: int(d.Count * 100 / most)})
	}
	for _, u := range o.PerUser {
		v.Users = append(v.Users, views.AdminUsage{Username: u.Username, Role: u.Role, Disabled: u.Disabled,
			Conversations: u.Conversations, Files: u.Files, StoredBytes: u.StoredBytes,
			Tokens: u.InputTokens + u.OutputTokens, LastActive: u.LastActive})
	}
	return v
}
