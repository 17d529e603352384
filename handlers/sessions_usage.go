package handlers

import (
	"context"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// sessionReportDays is how far back the admin's session counts go.
const sessionReportDays = 30

// topSessionConversations is how many conversations the admin's list of
// those with the most sessions shows.
const topSessionConversations = 10

// adminSessions reads the admin page's Code Interpreter sessions per user
// and the conversations that opened the most.
func (h *Handler) adminSessions(ctx context.Context, now time.Time) (views.AdminSessions, error) {
	r, err := h.db.SessionReport(ctx, now, sessionReportDays, topSessionConversations)
	if err != nil {
		return views.AdminSessions{}, err
	}
	v := views.AdminSessions{Days: sessionReportDays, Total: codeSessionsView(r.Total)}
	for _, u := range r.PerUser {
		v.Users = append(v.Users, views.AdminSessionsUser{Username: u.Username, CodeSessions: codeSessionsView(u.SessionTotals)})
	}
	for _, c := range r.TopConversations {
		v.Conversations = append(v.Conversations, views.AdminSessionsConversation{ID: c.ConversationID, Title: c.Title,
			Username: c.Username, CodeSessions: codeSessionsView(c.SessionTotals)})
	}
	return v, nil
}

// conversationSessions reads the Code Interpreter sessions of a
// conversation the caller has already found to be the user's.
func (h *Handler) conversationSessions(ctx context.Context, convID string, now time.Time) (views.CodeSessions, error) {
	t, err := h.db.ConversationSessions(ctx, convID, now)
	return codeSessionsView(t), err
}

func codeSessionsView(t store.SessionTotals) views.CodeSessions {
	return views.CodeSessions{Sessions: t.Sessions, Live: t.Live > 0, Time: t.Time}
}
