package emulator

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
)

// item is a conversation item (message, code_interpreter_call, …) kept as its JSON object, so
// item types the emulator does not know pass through unchanged.
type item = map[string]any

// parseInput turns a response's or conversation's input (a string, or a list of items) into
// items with ids.
func parseInput(raw json.RawMessage, param string) ([]item, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var text string
	if json.Unmarshal(raw, &text) == nil {
		return []item{newMessage("user", text)}, nil
	}
	var list []item
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errBadRequest(param, "Invalid '%s': expected a string or a list of items.", param)
	}
	items := make([]item, 0, len(list))
	for i, it := range list {
		norm, err := normalizeItem(it, fmt.Sprintf("%s[%d]", param, i))
		if err != nil {
			return nil, err
		}
		items = append(items, norm)
	}
	return items, nil
}

// newMessage builds a completed message item with one text part.
func newMessage(role, text string) item {
	return normalizeMessage(item{"type": "message", "role": role, "content": text})
}

// normalizeItem fills in what a stored item has and an input item may omit: the type of an
// easy message ({role, content}), content parts instead of a string, an id and a status.
func normalizeItem(it item, param string) (item, error) {
	it = maps.Clone(it)
	if it["type"] == nil && it["role"] != nil {
		it["type"] = "message"
	}
	typ, _ := it["type"].(string)
	if typ == "" {
		return nil, errBadRequest(param, "Invalid item: missing 'type'.")
	}
	if typ == "message" {
		switch it["role"] {
		case "user", "assistant", "system", "developer":
		default:
			return nil, errBadRequest(param+".role", "Invalid 'role': %v.", it["role"])
		}
		return normalizeMessage(it), nil
	}
	if it["id"] == nil {
		it["id"] = newID(itemPrefix(typ))
	}
	return it, nil
}

func normalizeMessage(it item) item {
	partType := "input_text"
	if it["role"] == "assistant" {
		partType = "output_text"
	}
	if text, ok := it["content"].(string); ok {
		part := item{"type": partType, "text": text}
		if partType == "output_text" {
			part["annotations"] = []any{}
			part["logprobs"] = []any{}
		}
		it["content"] = []any{part}
	}
	if it["id"] == nil {
		it["id"] = newID("msg_")
	}
	if it["status"] == nil {
		it["status"] = "completed"
	}
	return it
}

func itemPrefix(typ string) string {
	switch typ {
	case "code_interpreter_call":
		return "ci_"
	case "function_call":
		return "fc_"
	case "reasoning":
		return "rs_"
	}
	return "item_"
}

// messageText joins the text parts of a message item; other items have no text.
func messageText(it item) string {
	if it["type"] != "message" {
		return ""
	}
	parts, _ := it["content"].([]any)
	var texts []string
	for _, p := range parts {
		if m, ok := p.(map[string]any); ok {
			if t, ok := m["text"].(string); ok {
				texts = append(texts, t)
			}
		}
	}
	return strings.Join(texts, "\n")
}

// renderItem hides a code_interpreter_call's outputs unless the request included them.
func renderItem(it item, withOutputs bool) item {
	if it["type"] != "code_interpreter_call" || withOutputs {
		return it
	}
	out := maps.Clone(it)
	out["outputs"] = nil
	return out
}

// includesOutputs reports whether include (or include[]) asks for code interpreter outputs.
func includesOutputs(include []string) bool {
	for _, v := range include {
		if v == "code_interpreter_call.outputs" {
			return true
		}
	}
	return false
}

func itemID(it item) string { id, _ := it["id"].(string); return id }

// appendItems stores items at the end of a conversation. An item whose id is already stored
// (a client re-sending an item it read back) is kept once; item references are not stored.
func appendItems(ctx context.Context, ex execer, conversationID string, items []item) error {
	for _, it := range items {
		if it["type"] == "item_reference" {
			continue
		}
		body, err := json.Marshal(it)
		if err != nil {
			return err
		}
		if _, err := ex.ExecContext(ctx, `INSERT INTO items (id, conversation_id, body) VALUES (?, ?, ?)
			ON CONFLICT (id) DO NOTHING`, itemID(it), conversationID, string(body)); err != nil {
			return fmt.Errorf("store item %s: %w", itemID(it), err)
		}
	}
	return nil
}

// conversationItems returns a conversation's items, oldest first.
func (st *store) conversationItems(ctx context.Context, conversationID string) ([]item, error) {
	return listObjects[item](ctx, st.db, `SELECT body FROM items WHERE conversation_id = ? ORDER BY seq`, conversationID)
}

// conversationItem returns one item of a conversation, or errNoRow.
func (st *store) conversationItem(ctx context.Context, conversationID, id string) (item, error) {
	items, err := listObjects[item](ctx, st.db, `SELECT body FROM items WHERE conversation_id = ? AND id = ?`, conversationID, id)
	if err == nil && len(items) == 0 {
		err = errNoRow
	}
	if err != nil {
		return nil, err
	}
	return items[0], nil
}

// deleteConversationItems removes every item of a conversation.
func deleteConversationItems(ctx context.Context, tx *sql.Tx, conversationID string) error {
	_, err := tx.ExecContext(ctx, `DELETE FROM items WHERE conversation_id = ?`, conversationID)
	return err
}
