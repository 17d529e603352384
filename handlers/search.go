package handlers

import (
	"context"
	"errors"

	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// searchLimit caps the conversations a search lists; a search that finds
// more is better narrowed than paged.
const searchLimit = 50

// searchTooSlow answers a search that ran out of time.
const searchTooSlow = "This search took too long. Try fewer, longer words."

// searchWhere names, for the reader, the part of a conversation a hit is in.
var searchWhere = map[store.SearchKind]string{
	store.SearchTitle:   "Title",
	store.SearchMessage: "Question or answer",
	store.SearchCode:    "Code",
	store.SearchFile:    "File",
}

// searchList runs a full-text search of the user's own conversations for
// the sidebar.
func (h *Handler) searchList(ctx context.Context, userID, query, activeID string) (views.ConversationList, error) {
	hits, err := h.db.SearchConversations(ctx, userID, query, searchLimit)
	if errors.Is(err, store.ErrSearchTooSlow) {
		return views.ConversationList{Query: query, Refused: searchTooSlow}, nil
	}
	if err != nil {
		return views.ConversationList{}, err
	}
	list := views.ConversationList{Query: query, Results: make([]views.SearchResult, 0, len(hits))}
	for _, hit := range hits {
		list.Results = append(list.Results, views.SearchResult{
			ID: hit.Conversation.ID, Title: hit.Conversation.Title, UpdatedAt: hit.Conversation.UpdatedAt,
			Active: hit.Conversation.ID == activeID, Anchor: hit.Anchor, Where: searchWhere[hit.Kind],
			Snippet: views.SplitSnippet(hit.Snippet, store.HitStart, store.HitEnd),
		})
	}
	return list, nil
}
