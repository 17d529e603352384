package handlers

import (
	"net/http"
	"strings"

	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// purgedBy says, for a tombstone's purge action, who deleted the
// conversation.
var purgedBy = map[string]string{
	purge.ActionRetention: "the retention policy, which deletes conversations left untouched for a while",
}

// describeMissing turns a "not found" on one of the user's own purged
// conversations into what happened to it: a 410 with the date and who
// deleted it. Anything else stays e, so another user's conversation is
// still indistinguishable from a missing one.
func (h *Handler) describeMissing(c echo.Context, e views.Error) views.Error {
	u, ok := c.Get(ctxUser).(*store.User)
	if !ok || !strings.HasPrefix(c.Path(), "/conversations/:id") || c.Param("id") == "" {
		return e
	}
	ts, err := h.db.ConversationTombstone(c.Request().Context(), u.ID, c.Param("id"))
	if err != nil {
		return e
	}
	by, ok := purgedBy[ts.Action]
	if !ok {
		by = "an administrator"
	}
	return views.Error{Status: http.StatusGone, Title: "Conversation deleted",
		Message: "This conversation was deleted on " + ts.DeletedAt.Local().Format("2 January 2006") + " by " + by +
			". Its messages, files and charts went with it. Start a new conversation to carry on."}
}
