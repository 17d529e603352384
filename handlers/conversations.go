package handlers

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// sidebarPageSize is how many conversations the sidebar shows per page.
const sidebarPageSize = 50

// home shows the welcome pane beside the conversation list.
func (h *Handler) home(c echo.Context) error {
	p, err := h.userPage(c, "Conversations", "")
	if err != nil {
		return err
	}
	alone := false
	if currentUser(c).IsAdmin() {
		n, err := h.db.CountUsers(c.Request().Context())
		if err != nil {
			return err
		}
		alone = n == 1 // just set up: nobody to work with yet
	}
	return render(c, http.StatusOK, views.Home(p, alone))
}

// listConversations answers the sidebar's search and "Show more" with a
// fragment; without htmx it is the home page with the same query.
func (h *Handler) listConversations(c echo.Context) error {
	if !isHTMX(c) {
		return h.home(c)
	}
	after, _ := parseCursor(c.QueryParam("after"))
	list, err := h.conversationList(c, c.QueryParam("q"), after, c.QueryParam("active"))
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ConversationListFragment(list))
}

// conversationList loads one page of the user's conversations for the sidebar.
// A query makes it a full-text search instead.
func (h *Handler) conversationList(c echo.Context, query string, after store.Cursor, activeID string) (views.ConversationList, error) {
	if strings.TrimSpace(query) != "" {
		return h.searchList(c.Request().Context(), currentUser(c).ID, query, activeID)
	}
	page, err := h.db.Conversations(c.Request().Context(), store.ConversationFilter{
		UserID: currentUser(c).ID, After: after, Limit: sidebarPageSize})
	if err != nil {
		return views.ConversationList{}, err
	}
	items := make([]views.ConversationItem, 0, len(page.Conversations))
	for _, conv := range page.Conversations {
		items = append(items, conversationItem(conv, conv.ID == activeID))
	}
	list := views.ConversationList{Continued: !after.IsZero()}
	list.Groups = views.GroupByAge(items, time.Now(), after.UpdatedAt)
	if !page.Next.IsZero() {
		q := url.Values{"after": {formatCursor(page.Next)}}
		if activeID != "" {
			q.Set("active", activeID)
		}
		list.MoreURL = "/conversations?" + q.Encode()
	}
	return list, nil
}

// createConversation starts an untitled conversation and opens it.
func (h *Handler) createConversation(c echo.Context) error {
	conv, err := h.chat.NewConversation(c.Request().Context(), currentUser(c).ID)
	if err != nil {
		return err
	}
	return redirect(c, "/conversations/"+conv.ID)
}

// showConversation shows one of the user's conversations; another user's
// id is a 404, exactly as a missing one.
func (h *Handler) showConversation(c echo.Context) error {
	conv, err := h.db.Conversation(c.Request().Context(), currentUser(c).ID, c.Param("id"))
	if err != nil {
		return err
	}
	p, err := h.userPage(c, conv.Title, conv.ID)
	if err != nil {
		return err
	}
	v, err := h.chatView(c.Request().Context(), conv, currentUser(c).ID)
	if err != nil {
		return err
	}
	v.Conversation.Renaming = c.QueryParam("rename") == "1"
	if v.Shares, err = h.sharePanel(c, conv.ID); err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ChatPage(p, v))
}

// showConversationTitle returns the title fragment, or the rename form with
// ?edit=1, for htmx's inline rename.
func (h *Handler) showConversationTitle(c echo.Context) error {
	conv, err := h.db.Conversation(c.Request().Context(), currentUser(c).ID, c.Param("id"))
	if err != nil {
		return err
	}
	v := conversationView(conv)
	v.Renaming = c.QueryParam("edit") == "1"
	return render(c, http.StatusOK, views.ConversationTitle(csrfToken(c), v))
}

// renameConversation changes the title; htmx gets the new title and the
// sidebar entry, a plain form a redirect back.
func (h *Handler) renameConversation(c echo.Context) error {
	ctx, userID, id := c.Request().Context(), currentUser(c).ID, c.Param("id")
	conv, err := h.chat.Rename(ctx, userID, id, c.FormValue("title"))
	if problem, ok := userMessage(err); ok {
		conv, err := h.db.Conversation(ctx, userID, id)
		if err != nil {
			return err
		}
		v := conversationView(conv)
		v.Renaming, v.TitleError = true, problem
		if isHTMX(c) {
			return render(c, http.StatusOK, views.ConversationTitle(csrfToken(c), v))
		}
		p, err := h.userPage(c, conv.Title, conv.ID)
		if err != nil {
			return err
		}
		chatView, err := h.chatView(ctx, conv, userID)
		if err != nil {
			return err
		}
		chatView.Conversation = v
		if chatView.Shares, err = h.sharePanel(c, conv.ID); err != nil {
			return err
		}
		return render(c, http.StatusUnprocessableEntity, views.ChatPage(p, chatView))
	}
	if err != nil {
		return err
	}
	if !isHTMX(c) {
		return redirect(c, "/conversations/"+conv.ID)
	}
	item := conversationItem(conv, true)
	return render(c, http.StatusOK, views.RenamedConversation(csrfToken(c), conversationView(conv), item))
}

// deleteConversation deletes the conversation with its files and charts,
// here and in Foundry, through the same path as an admin's purge.
func (h *Handler) deleteConversation(c echo.Context) error {
	if err := h.purge.DeleteConversation(c.Request().Context(), currentUser(c).ID, c.Param("id")); err != nil {
		return err
	}
	return redirect(c, "/")
}

// conversationItem is a conversation's entry in the sidebar.
func conversationItem(c *store.Conversation, active bool) views.ConversationItem {
	return views.ConversationItem{ID: c.ID, Title: c.Title, UpdatedAt: c.UpdatedAt, Active: active}
}

func conversationView(c *store.Conversation) views.Conversation {
	return views.Conversation{ID: c.ID, Title: c.Title, CreatedAt: c.CreatedAt}
}

// formatCursor and parseCursor carry a listing position in a URL.
func formatCursor(c store.Cursor) string {
	return strconv.FormatInt(c.UpdatedAt.UnixMilli(), 10) + "." + c.ID
}

func parseCursor(s string) (store.Cursor, bool) {
	ms, id, ok := strings.Cut(s, ".")
	n, err := strconv.ParseInt(ms, 10, 64)
	if !ok || err != nil || id == "" {
		return store.Cursor{}, false
	}
	return store.Cursor{UpdatedAt: time.UnixMilli(n).UTC(), ID: id}, true
}
