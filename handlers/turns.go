package handlers

import (
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// tokensOf sums the tokens the turns' runs used.
func tokensOf(turns []store.Turn) (in, out int64) {
	for _, t := range turns {
		in, out = in+t.Run.InputTokens, out+t.Run.OutputTokens
	}
	return in, out
}

// shownTurns is how many turns a conversation's page carries at first, and
// how many more each "Show earlier questions" brings: a long conversation's
// every table, chart and cell at once made pages of megabytes that took
// seconds to load (34 turns, 2.25 MB).
const shownTurns = 10

// latestTurns keeps the last shownTurns of turns and says how to ask for
// the ones before them, from base: the conversation's path or its link's.
func latestTurns(base string, turns []store.Turn) ([]store.Turn, views.EarlierTurns) {
	if len(turns) <= shownTurns {
		return turns, views.EarlierTurns{}
	}
	earlier := len(turns) - shownTurns
	turns = turns[earlier:]
	return turns, views.EarlierTurns{Count: earlier,
		URL: base + "/turns?before=" + url.QueryEscape(turns[0].Run.ID)}
}

// conversationTurns loads the user's conversation of the path's :id and its
// turns; another user's is not found.
func (h *Handler) conversationTurns(c echo.Context) (*store.Conversation, []store.Turn, error) {
	ctx := c.Request().Context()
	conv, err := h.db.Conversation(ctx, currentUser(c).ID, c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	turns, err := h.db.Turns(ctx, conv.ID)
	return conv, turns, err
}

// showNewTurns answers a page that follows its conversation (a second tab)
// with the turns after the run it shows last (?after=), live ones
// following their runs, and the composer's Stop while one runs; 204 when
// there is none.
func (h *Handler) showNewTurns(c echo.Context) error {
	ctx := c.Request().Context()
	conv, turns, err := h.conversationTurns(c)
	if err != nil {
		return err
	}
	if before := c.QueryParam("before"); before != "" {
		return h.showEarlierTurns(c, conv, turnsBefore(turns, before))
	}
	turns = turnsAfter(turns, c.QueryParam("after"))
	if len(turns) == 0 {
		return c.NoContent(http.StatusNoContent)
	}
	var v views.Chat
	if _, err := h.turnViews(ctx, conv, turns, time.Now(), &v); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.NewTurns(conv.ID, v.Turns, v.Running))
}

// showEarlierTurns answers "Show earlier questions" with the last
// shownTurns of turns, under the button for those above them.
func (h *Handler) showEarlierTurns(c echo.Context, conv *store.Conversation, turns []store.Turn) error {
	turns, more := latestTurns("/conversations/"+conv.ID, turns)
	v := views.Chat{Earlier: more}
	if _, err := h.turnViews(c.Request().Context(), conv, turns, time.Now(), &v); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.EarlierPage(v.Turns, v.Earlier))
}

// turnsBefore returns the turns before the one of run runID; none when the
// run is not among them.
func turnsBefore(turns []store.Turn, runID string) []store.Turn {
	for i, t := range turns {
		if t.Run.ID == runID {
			return turns[:i]
		}
	}
	return nil
}

// turnsAfter returns the turns after the one of run runID: all of them for
// "" (a page with no turn yet), none when the run is not among them.
func turnsAfter(turns []store.Turn, runID string) []store.Turn {
	if runID == "" {
		return turns
	}
	for i, t := range turns {
		if t.Run.ID == runID {
			return turns[i+1:]
		}
	}
	return nil
}
