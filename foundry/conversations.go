package foundry

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// Conversation is a server-side conversation that keeps the turns of a chat.
type Conversation struct {
	ID        string
	CreatedAt time.Time
	Metadata  map[string]string
}

type wireConversation struct {
	ID        string            `json:"id"`
	CreatedAt unixTime          `json:"created_at"`
	Metadata  map[string]string `json:"metadata"`
}

func (w wireConversation) conversation() Conversation {
	return Conversation{ID: w.ID, CreatedAt: time.Time(w.CreatedAt), Metadata: w.Metadata}
}

// conversationFrom goes through the raw JSON because openai-go types
// metadata as any.
func conversationFrom(raw string) Conversation {
	var w wireConversation
	_ = json.Unmarshal([]byte(raw), &w)
	return w.conversation()
}

// Message is a message item to put into a conversation.
type Message struct {
	// Role is "user", "assistant", "system" or "developer".
	Role string
	Text string
}

// MaxSeedItems is how many items a conversation may be created with
// (reference §4).
const MaxSeedItems = 20

// CreateConversation creates a conversation with metadata (≤16 pairs) and,
// optionally, up to MaxSeedItems messages it starts with.
func (c *Client) CreateConversation(ctx context.Context, metadata map[string]string, seed ...Message) (Conversation, error) {
	if len(seed) > MaxSeedItems {
		return Conversation{}, fmt.Errorf("foundry: create conversation: %d seed items, at most %d", len(seed), MaxSeedItems)
	}
	params := conversations.ConversationNewParams{Metadata: shared.Metadata(metadata)}
	for _, m := range seed {
		params.Items = append(params.Items, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRole(m.Role)))
	}
	var conv *conversations.Conversation
	err := c.call(ctx, "create conversation", func(ctx context.Context) (err error) {
		conv, err = c.conversations.New(ctx, params)
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	return conversationFrom(conv.RawJSON()), nil
}

// Conversation returns one conversation.
func (c *Client) Conversation(ctx context.Context, id string) (Conversation, error) {
	var conv *conversations.Conversation
	err := c.call(ctx, "conversation "+id, func(ctx context.Context) (err error) {
		conv, err = c.conversations.Get(ctx, id)
		return err
	})
	if err != nil {
		return Conversation{}, err
	}
	return conversationFrom(conv.RawJSON()), nil
}

// DeleteConversation deletes a conversation and its items.
func (c *Client) DeleteConversation(ctx context.Context, id string) error {
	return c.call(ctx, "delete conversation "+id, func(ctx context.Context) error {
		_, err := c.conversations.Delete(ctx, id)
		return err
	})
}

// Conversations lists the project's conversations, for reconciliation. The
// listing is Foundry-only (OpenAI has none), so openai-go has no method for
// it and the request goes through the client's generic Get.
func (c *Client) Conversations(ctx context.Context) ([]Conversation, error) {
	var out []Conversation
	after := ""
	err := c.call(ctx, "list conversations", func(ctx context.Context) error {
		for range maxPages {
			opts := []option.RequestOption{option.WithQuery("limit", "100"), option.WithQuery("order", "asc")}
			if after != "" {
				opts = append(opts, option.WithQuery("after", after))
			}
			var page wirePage[wireConversation]
			if err := c.oai.Get(ctx, "conversations", nil, &page, opts...); err != nil {
				return err
			}
			for _, w := range page.Data {
				out = append(out, w.conversation())
			}
			next := nextCursor(page.LastID, page.Data, func(w wireConversation) string { return w.ID })
			if !page.HasMore || next == "" || next == after {
				return nil
			}
			after = next
		}
		return nil
	})
	return out, err
}

// AddMessage appends a message with role ("user", "assistant", "system",
// "developer") and text to a conversation and returns the created items.
func (c *Client) AddMessage(ctx context.Context, conversationID, role, text string) ([]Item, error) {
	var list *conversations.ConversationItemList
	err := c.call(ctx, "add conversation item", func(ctx context.Context) (err error) {
		list, err = c.conversations.Items.New(ctx, conversationID, conversations.ItemNewParams{
			Items: []responses.ResponseInputItemUnionParam{
				responses.ResponseInputItemParamOfMessage(text, responses.EasyInputMessageRole(role)),
			},
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	var page wirePage[json.RawMessage]
	if err := json.Unmarshal([]byte(list.RawJSON()), &page); err != nil {
		return nil, err
	}
	return parseItems(page.Data)
}

// ConversationItem returns one item of a conversation.
func (c *Client) ConversationItem(ctx context.Context, conversationID, itemID string) (Item, error) {
	var raw string
	err := c.call(ctx, "conversation item "+itemID, func(ctx context.Context) error {
		it, err := c.conversations.Items.Get(ctx, conversationID, itemID, conversations.ItemGetParams{})
		if err == nil {
			raw = it.RawJSON()
		}
		return err
	})
	if err != nil {
		return Item{}, err
	}
	return parseItem(json.RawMessage(raw))
}

// ConversationItems lists the items of a conversation, oldest first,
// including code interpreter outputs.
func (c *Client) ConversationItems(ctx context.Context, conversationID string) ([]Item, error) {
	var raws []json.RawMessage
	err := c.call(ctx, "list conversation items", func(ctx context.Context) error {
		it := c.conversations.Items.ListAutoPaging(ctx, conversationID, conversations.ItemListParams{
			Order:   conversations.ItemListParamsOrderAsc,
			Include: []responses.ResponseIncludable{responses.ResponseIncludableCodeInterpreterCallOutputs},
		})
		for it.Next() {
			raws = append(raws, json.RawMessage(it.Current().RawJSON()))
		}
		return it.Err()
	})
	if err != nil {
		return nil, err
	}
	return parseItems(raws)
}

// DeleteConversationItem deletes one item of a conversation.
func (c *Client) DeleteConversationItem(ctx context.Context, conversationID, itemID string) error {
	return c.call(ctx, "delete conversation item "+itemID, func(ctx context.Context) error {
		_, err := c.conversations.Items.Delete(ctx, conversationID, itemID)
		return err
	})
}

func parseItems(raws []json.RawMessage) ([]Item, error) {
	out := make([]Item, 0, len(raws))
	for i, r := range raws {
		it, err := parseItem(r)
		if err != nil {
			return nil, fmt.Errorf("foundry: decode item %d: %w", i, err)
		}
		out = append(out, it)
	}
	return out, nil
}
