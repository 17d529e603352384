package handlers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// showAdmin shows the totals, usage per user and the cross-user lists.
func (h *Handler) showAdmin(c echo.Context) error {
	ctx := c.Request().Context()
	now := time.Now()
	o, err := h.db.Overview(ctx, now, 14)
	if err != nil {
		return err
	}
	filter := store.AdminFilter{UserID: c.QueryParam("user"), Query: c.QueryParam("q")}
	convs, err := h.db.AdminConversations(ctx, filter)
	if err != nil {
		return err
	}
	fls, err := h.db.AdminFiles(ctx, filter)
	if err != nil {
		return err
	}
	users, err := h.db.Users(ctx)
	if err != nil {
		return err
	}
	audit, err := h.db.AuditLog(ctx, 20)
	if err != nil {
		return err
	}
	shares, err := h.db.LiveShares(ctx, 100)
	if err != nil {
		return err
	}
	v := overviewView(o)
	v.FilterUser, v.FilterQuery = filter.UserID, filter.Query
	v.UserOptions = adminUsersView(users, "")
	retain, err := h.db.IntSetting(ctx, store.SettingRetentionDays, h.retain)
	if err != nil {
		return err
	}
	v.Audit, v.RetentionDays = auditView(audit, usernames(users)), retain
	v.Shares = adminShareRows(shares)
	v.Sandbox = h.sandboxCard()
	for _, cv := range convs {
		v.Conversations = append(v.Conversations, views.AdminConversationRow{ID: cv.ID, Title: cv.Title, Username: cv.Username,
			FoundryID: cv.FoundryConversationID, ContainerID: cv.ContainerID, Files: cv.Files, StoredBytes: cv.StoredBytes, UpdatedAt: cv.UpdatedAt})
	}
	for _, f := range fls {
		v.Files = append(v.Files, views.AdminFileRow{Name: f.Name, Username: f.Username, Conversation: f.ConversationTitle,
			FoundryID: f.FoundryFileID, Size: f.Size, CreatedAt: f.CreatedAt})
	}
	p, err := h.userPage(c, "Administration", "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.AdminOverviewPage(p, v))
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
