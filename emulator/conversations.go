package emulator

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"unicode/utf8"
)

// conversation is the Conversation object. Agent records the agent of the last response run on
// it, for the Foundry-only list filters; it is stored but not part of the wire object.
type conversation struct {
	ID        string            `json:"id"`
	Object    string            `json:"object"`
	CreatedAt int64             `json:"created_at"`
	Metadata  map[string]string `json:"metadata"`
	Agent     *agentRef         `json:"agent,omitempty"`
}

// wire returns the object as the API shows it.
func (c conversation) wire() conversation {
	c.Agent = nil
	return c
}

// maxItemsPerRequest bounds the items of one conversation request (OpenAI's limit, which
// Foundry documents as the same).
const maxItemsPerRequest = 20

// Limits of metadata on conversations, responses and agent versions: "Set of 16 key-value
// pairs … Keys are strings with a maximum length of 64 characters. Values are strings with a
// maximum length of 512 characters." (OpenAI's Metadata schema; Foundry GA v1 OpenAPI, the
// same on AgentVersionObject and CreateConversationBody; foundry-recorded.md 7c). The error
// texts are OpenAI's form, UNCONFIRMED for Foundry.
const (
	maxMetadataPairs    = 16
	maxMetadataKeyLen   = 64
	maxMetadataValueLen = 512
)

// checkMetadata refuses metadata beyond those limits, with a 400 naming the field.
func checkMetadata(md map[string]string) error {
	if len(md) > maxMetadataPairs {
		return errBadRequest("metadata", "Invalid 'metadata': too many properties. Expected an object with at most %d properties, but got an object with %d properties instead.", maxMetadataPairs, len(md))
	}
	for k, v := range md {
		if n := utf8.RuneCountInString(k); n > maxMetadataKeyLen {
			return errBadRequest("metadata", "Invalid 'metadata': string too long. Expected a key with maximum length %d, but got a key with length %d instead.", maxMetadataKeyLen, n)
		}
		if n := utf8.RuneCountInString(v); n > maxMetadataValueLen {
			return errBadRequest("metadata."+k, "Invalid 'metadata.%s': string too long. Expected a string with maximum length %d, but got a string with length %d instead.", k, maxMetadataValueLen, n)
		}
	}
	return nil
}

type conversationRequest struct {
	Items    json.RawMessage   `json:"items"`
	Metadata map[string]string `json:"metadata"`
}

func (s *Server) createConversation(w http.ResponseWriter, r *http.Request) error {
	var req conversationRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	items, err := parseItems(req.Items)
	if err != nil {
		return err
	}
	if err := checkMetadata(req.Metadata); err != nil {
		return err
	}
	c := conversation{ID: newID("conv_"), Object: "conversation", CreatedAt: s.now().Unix(), Metadata: req.Metadata}
	if c.Metadata == nil {
		c.Metadata = map[string]string{}
	}
	err = s.st.withTx(r.Context(), func(tx *sql.Tx) error {
		if err := putObject(r.Context(), tx, "conversations", c.ID, c); err != nil {
			return err
		}
		return appendItems(r.Context(), tx, c.ID, items)
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.wire())
	return nil
}

// parseItems reads the items of a conversation request, at most 20.
func parseItems(raw json.RawMessage) ([]item, error) {
	items, err := parseInput(raw, "items")
	if err != nil {
		return nil, err
	}
	if len(items) > maxItemsPerRequest {
		return nil, errBadRequest("items", "Invalid 'items': at most %d items per request, got %d.", maxItemsPerRequest, len(items))
	}
	return items, nil
}

// conversation loads a conversation or returns the 404 of the API.
func (s *Server) conversation(r *http.Request, id string) (conversation, error) {
	var c conversation
	err := getObject(r.Context(), s.st.db, "conversations", id, &c)
	if errors.Is(err, errNoRow) {
		return c, &apiError{status: http.StatusNotFound, param: "conversation_id",
			message: fmt.Sprintf("Conversation with id '%s' not found.", id)}
	}
	return c, err
}

func (s *Server) showConversation(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.wire())
	return nil
}

func (s *Server) updateConversation(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	var req conversationRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := checkMetadata(req.Metadata); err != nil {
		return err
	}
	if req.Metadata != nil {
		c.Metadata = req.Metadata
	}
	if err := putObject(r.Context(), s.st.db, "conversations", c.ID, c); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.wire())
	return nil
}

func (s *Server) deleteConversation(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	err = s.st.withTx(r.Context(), func(tx *sql.Tx) error {
		if err := deleteConversationItems(r.Context(), tx, c.ID); err != nil {
			return err
		}
		return deleteObject(r.Context(), tx, "conversations", c.ID)
	})
	if err != nil {
		return err
	}
	s.containers.forgetConversation(c.ID)
	writeJSON(w, http.StatusOK, map[string]any{"id": c.ID, "object": "conversation.deleted", "deleted": true})
	return nil
}

// listConversations is Foundry-only; agent_name and agent_id filter on the agent that last ran
// a response in the conversation.
func (s *Server) listConversations(w http.ResponseWriter, r *http.Request) error {
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	all, err := listObjects[conversation](r.Context(), s.st.db, `SELECT body FROM conversations ORDER BY seq`)
	if err != nil {
		return err
	}
	name, id := r.URL.Query().Get("agent_name"), r.URL.Query().Get("agent_id")
	kept := make([]conversation, 0, len(all))
	for _, c := range all {
		if (name != "" || id != "") && (c.Agent == nil ||
			(name != "" && c.Agent.Name != name) || (id != "" && c.Agent.Name+":"+c.Agent.Version != id)) {
			continue
		}
		kept = append(kept, c.wire())
	}
	writeJSON(w, http.StatusOK, paginate(kept, p, func(c conversation) string { return c.ID }))
	return nil
}

func (s *Server) addItems(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	var req conversationRequest
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	items, err := parseItems(req.Items)
	if err != nil {
		return err
	}
	if err := appendItems(r.Context(), s.st.db, c.ID, items); err != nil {
		return err
	}
	withOutputs := includesOutputs(r.URL.Query()["include"])
	page := listPage{Object: "list", Data: []any{}}
	for _, it := range items {
		page.Data = append(page.Data, renderItem(it, withOutputs))
	}
	if n := len(items); n > 0 {
		first, last := itemID(items[0]), itemID(items[n-1])
		page.FirstID, page.LastID = &first, &last
	}
	writeJSON(w, http.StatusOK, page)
	return nil
}

// listItems pages through a conversation's items, newest first unless order=asc.
func (s *Server) listItems(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	items, err := s.st.conversationItems(r.Context(), c.ID)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	withOutputs := includesOutputs(append(q["include"], q["include[]"]...))
	for i, it := range items {
		items[i] = renderItem(it, withOutputs)
	}
	writeJSON(w, http.StatusOK, paginate(items, p, itemID))
	return nil
}

func (s *Server) showItem(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	it, err := s.item(r, c.ID)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	writeJSON(w, http.StatusOK, renderItem(it, includesOutputs(append(q["include"], q["include[]"]...))))
	return nil
}

func (s *Server) item(r *http.Request, conversationID string) (item, error) {
	id := r.PathValue("item")
	it, err := s.st.conversationItem(r.Context(), conversationID, id)
	if errors.Is(err, errNoRow) {
		return nil, &apiError{status: http.StatusNotFound, param: "item_id",
			message: fmt.Sprintf("Item with id '%s' not found.", id)}
	}
	return it, err
}

// deleteItem removes one item and answers with the conversation, as OpenAI does.
func (s *Server) deleteItem(w http.ResponseWriter, r *http.Request) error {
	c, err := s.conversation(r, r.PathValue("conversation"))
	if err != nil {
		return err
	}
	it, err := s.item(r, c.ID)
	if err != nil {
		return err
	}
	if err := deleteObject(r.Context(), s.st.db, "items", itemID(it)); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.wire())
	return nil
}
