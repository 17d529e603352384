package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// purgeAction previews (dry_run=1, the default) or carries out a purge.
func (h *Handler) purgeAction(c echo.Context) error {
	form, sel, err := parsePurgeForm(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if sel.UserID, err = h.resolveUser(ctx, sel.UserID); err != nil {
		return err
	}
	if c.FormValue("dry_run") != "0" {
		plan, err := h.purge.Plan(ctx, sel)
		if errors.Is(err, purge.ErrEmptySelection) {
			return echo.NewHTTPError(http.StatusUnprocessableEntity, "Choose what to purge: an age, a user, some conversations, or orphans.")
		}
		if err != nil {
			return err
		}
		p, err := h.userPage(c, "Purge preview", "")
		if err != nil {
			return err
		}
		return render(c, http.StatusOK, views.PurgePlanPage(p, planView(form, plan)))
	}
	res, err := h.purge.Execute(ctx, currentUser(c).ID, sel)
	if errors.Is(err, purge.ErrEmptySelection) {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Choose what to purge: an age, a user, some conversations, or orphans.")
	}
	if res == nil && err != nil {
		return err
	}
	if err != nil {
		h.log.Warn("purge queued with an error; the worker finishes it", "purge", res.PurgeID, "err", err)
	}
	h.log.Info("purge", "by", currentUser(c).Username, "purge", res.PurgeID, "conversations", res.Summary.Conversations)
	return redirect(c, "/admin/purges/"+res.PurgeID)
}

// showPurge shows a purge's progress (a fragment for htmx's polling).
func (h *Handler) showPurge(c echo.Context) error {
	pr, err := h.db.PurgeProgress(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	st := views.PurgeStatus{ID: c.Param("id"), Pending: pr.Pending, Done: pr.Done, Failing: pr.Failing,
		LastError: pr.LastError, Finished: pr.Pending == 0}
	if isHTMX(c) {
		return render(c, http.StatusOK, views.PurgeProgressView(st))
	}
	p, err := h.userPage(c, "Purge", "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.PurgeStatusPage(p, st))
}

// parsePurgeForm reads the purge form of DESIGN.md: older_than_days,
// user, repeated conversation_id, orphans.
func parsePurgeForm(c echo.Context) (views.PurgeForm, purge.Selection, error) {
	params, err := c.FormParams()
	if err != nil {
		return views.PurgeForm{}, purge.Selection{}, echo.NewHTTPError(http.StatusBadRequest, "The form could not be read. Reload the page and try again.")
	}
	f := views.PurgeForm{OlderThanDays: strings.TrimSpace(params.Get("older_than_days")), UserID: params.Get("user"),
		ConversationIDs: params["conversation_id"], Orphans: params.Get("orphans") == "1"}
	sel := purge.Selection{UserID: f.UserID, ConversationIDs: f.ConversationIDs, Orphans: f.Orphans}
	if f.OlderThanDays != "" {
		n, err := strconv.Atoi(f.OlderThanDays)
		if err != nil || n < 0 {
			return f, sel, echo.NewHTTPError(http.StatusUnprocessableEntity, "Enter the age as a whole number of days, such as 90.")
		}
		sel.OlderThanDays = n
	}
	return f, sel, nil
}

func planView(f views.PurgeForm, p *purge.Plan) views.PurgePlan {
	s := p.Summary
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	v := views.PurgePlan{Form: f, Description: describeSelection(f, p),
		Empty: s.Conversations == 0 && p.Orphans.Blobs == 0 && p.Orphans.Files == 0}
	v.Totals = []views.Stat{
		{Label: "conversations", Value: n(s.Conversations)},
		{Label: "uploaded files", Value: n(s.Files), Hint: views.ByteSize(s.FileBytes)},
		{Label: "generated files", Value: n(s.Artifacts), Hint: views.ByteSize(s.ArtifactBytes)},
		{Label: "freed on disk", Value: views.ByteSize(s.BlobBytes + p.Orphans.BlobBytes),
			Hint: n(s.SharedBlobs) + " shared files kept"},
		{Label: "Foundry conversations", Value: n(s.FoundryConversations)},
		{Label: "Foundry files", Value: n(s.FoundryFiles + p.Orphans.Files)},
		{Label: "container files", Value: n(s.ContainerFiles)},
	}
	for _, c := range p.Conversations {
		v.Conversations = append(v.Conversations, views.PurgeRow{Title: c.Title, Username: c.Username, UpdatedAt: c.UpdatedAt,
			Files: c.Files + c.Artifacts, Bytes: c.Bytes})
	}
	for _, o := range append(p.Remote, p.Orphans.Preview...) {
		target := o.Target
		if o.Parent != "" {
			target = o.Parent + "/" + o.Target
		}
		v.Remote = append(v.Remote, views.PurgeObjectRow{Kind: objectKinds[o.Kind], Target: target, Bytes: o.Bytes})
	}
	return v
}

// describeSelection says in words what a purge selects.
func describeSelection(f views.PurgeForm, p *purge.Plan) string {
	var parts []string
	if n := len(f.ConversationIDs); n == 1 {
		parts = append(parts, "1 chosen conversation")
	} else if n > 1 {
		parts = append(parts, fmt.Sprintf("%d chosen conversations", n))
	}
	if !p.Before.IsZero() {
		parts = append(parts, "conversations not updated since "+p.Before.Local().Format("2 January 2006"))
	}
	if f.UserID != "" {
		parts = append(parts, "of one user")
	}
	if f.Orphans {
		parts = append(parts, "orphaned files")
	}
	return "Purging " + strings.Join(parts, ", ") + "."
}

// auditView shows the audit log for people: who by name (an actor that is
// no user, such as the retention job, as it is), and the details as
// "key: value" pairs rather than JSON.
func auditView(entries []store.AuditEntry, names map[string]string) []views.AuditRow {
	out := make([]views.AuditRow, 0, len(entries))
	for _, e := range entries {
		actor := e.Actor
		if name, ok := names[actor]; ok {
			actor = name
		}
		out = append(out, views.AuditRow{At: e.At, Actor: actor, Action: auditAction(e.Action), Outcome: e.Outcome, Details: auditDetails(e.Details, names)})
	}
	return out
}

// auditActions names the recorded actions for people.
var auditActions = map[string]string{
	store.ActionUserCreate:        "User created",
	store.ActionUserDisable:       "User disabled",
	store.ActionUserEnable:        "User enabled",
	store.ActionUserPasswordReset: "Password reset",
	store.ActionUserRoleChange:    "Role changed",
	store.ActionShareCreate:       "Link shared",
	store.ActionShareRevoke:       "Link revoked",
	store.ActionSessionRenewal:    "Session renewed",
}

// auditAction is an action's name for people; one without a name shows
// with spaces for underscores, so a new action is readable before it is
// named here.
func auditAction(action string) string {
	if name, ok := auditActions[action]; ok {
		return name
	}
	return strings.ReplaceAll(action, "_", " ")
}

// usernames maps user ids to usernames.
func usernames(users []*store.User) map[string]string {
	out := make(map[string]string, len(users))
	for _, u := range users {
		out[u.ID] = u.Username
	}
	return out
}

// auditDetails writes an entry's JSON details as "key: value" pairs in
// key order, a user's id as their name; details that are no JSON object
// show as they are.
func auditDetails(details string, names map[string]string) string {
	var m map[string]any
	if json.Unmarshal([]byte(details), &m) != nil {
		return details
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, strings.ReplaceAll(k, "_", " ")+": "+auditValue(m[k], names))
	}
	return strings.Join(parts, " · ")
}

// auditValue is one detail's value as text: a string as it is (a user id
// as the user's name), anything else as compact JSON.
func auditValue(v any, names map[string]string) string {
	if s, ok := v.(string); ok {
		if name, ok := names[s]; ok {
			return name
		}
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// objectKinds names the kinds of purged objects for people.
var objectKinds = map[string]string{
	store.OutboxFoundryConversation: "Foundry conversation",
	store.OutboxFoundryFile:         "Foundry file",
	store.OutboxContainerFile:       "Container file",
	store.OutboxAgentVersion:        "Agent version",
	store.OutboxAgent:               "Foundry agent",
	store.OutboxFoundryResponse:     "Foundry response",
	store.OutboxBlob:                "Stored file",
}

// showReconcile lists Foundry objects no local row knows.
func (h *Handler) showReconcile(c echo.Context) error {
	var v views.Reconcile
	rec, err := h.purge.Reconcile(c.Request().Context())
	if err != nil {
		h.log.Warn("reconcile", "err", err)
		v.Error = "Foundry could not be listed, so nothing can be reconciled now. Check /readyz and try again."
	} else {
		v.Files, v.Conversations, v.AgentVersions = objectRows(rec.Files), objectRows(rec.Conversations), objectRows(rec.AgentVersions)
	}
	p, err := h.userPage(c, "Reconcile", "")
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ReconcilePage(p, v))
}

// reconcile deletes the chosen Foundry objects through the purge outbox.
func (h *Handler) reconcile(c echo.Context) error {
	params, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read. Reload the page and try again.")
	}
	var objs []store.PurgeObject
	for _, v := range params["object"] {
		kind, rest, ok1 := strings.Cut(v, "|")
		parent, target, ok2 := strings.Cut(rest, "|")
		if !ok1 || !ok2 || objectKinds[kind] == "" || target == "" {
			return echo.NewHTTPError(http.StatusBadRequest, "The selection could not be read. Reload the page and try again.")
		}
		objs = append(objs, store.PurgeObject{Kind: kind, Parent: parent, Target: target})
	}
	if len(objs) == 0 {
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "Select at least one object to delete.")
	}
	res, err := h.purge.PurgeObjects(c.Request().Context(), currentUser(c).ID, objs)
	if res == nil && err != nil {
		return err
	}
	return redirect(c, "/admin/purges/"+res.PurgeID)
}

func objectRows(objs []store.PurgeObject) []views.PurgeObjectRow {
	out := make([]views.PurgeObjectRow, 0, len(objs))
	for _, o := range objs {
		target := o.Target
		if o.Parent != "" {
			target = o.Parent + ":" + o.Target
		}
		out = append(out, views.PurgeObjectRow{Kind: objectKinds[o.Kind], Target: target, Bytes: o.Bytes,
			Value: o.Kind + "|" + o.Parent + "|" + o.Target})
	}
	return out
}

// setRetention changes the retention period; 0 turns retention off.
func (h *Handler) setRetention(c echo.Context) error {
	days, err := strconv.Atoi(strings.TrimSpace(c.FormValue("retention_days")))
	if err != nil {
		days = -1 // not a number: refused as out of bounds
	}
	if err := h.purge.SetRetention(c.Request().Context(), currentUser(c).ID, days); err != nil {
		return err // a refused period is a 422 with its message (describeError)
	}
	h.log.Info("retention changed", "days", days, "by", currentUser(c).Username)
	return redirect(c, "/admin")
}

// resolveUser accepts a user by id (the admin page's choice) or by
// username (a script's), and refuses one that does not exist rather than
// purging everyone's conversations.
func (h *Handler) resolveUser(ctx context.Context, user string) (string, error) {
	if user == "" {
		return "", nil
	}
	u, err := h.db.UserByID(ctx, user)
	if errors.Is(err, store.ErrNotFound) {
		u, err = h.db.UserByUsername(ctx, user)
	}
	if errors.Is(err, store.ErrNotFound) {
		return "", echo.NewHTTPError(http.StatusUnprocessableEntity, "There is no user "+user+". Choose one from the list.")
	}
	if err != nil {
		return "", err
	}
	return u.ID, nil
}
