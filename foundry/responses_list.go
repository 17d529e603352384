package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// findPage is how many of the newest responses FindResponse looks at: the
// one it looks for was created moments ago.
const findPage = "20"

// FindResponse looks for the response that req created, by its Key, among
// the newest responses of req's conversation (or, without one, of its
// agent). It reports whether there is one. The listing is Foundry's own
// (GET /responses?conversation_id=…, reference §5); a service without it
// answers an error, and the caller must then assume the worst.
func (c *Client) FindResponse(ctx context.Context, req ResponseRequest) (Response, bool, error) {
	if req.Key == "" {
		return Response{}, false, errors.New("foundry: find response: the request has no key")
	}
	opts := []option.RequestOption{option.WithQuery("limit", findPage), option.WithQuery("order", "desc")}
	if req.ConversationID != "" {
		opts = append(opts, option.WithQuery("conversation_id", req.ConversationID))
	} else {
		opts = append(opts, option.WithQuery("agent_name", req.Agent.Name))
	}
	var page wirePage[json.RawMessage]
	err := c.call(ctx, "list responses", func(ctx context.Context) error {
		return c.oai.Get(ctx, "responses", nil, &page, opts...)
	})
	if err != nil {
		return Response{}, false, err
	}
	for _, raw := range page.Data {
		r, err := responseFrom(string(raw))
		if err == nil && r.Metadata[RequestKeyMetadata] == req.Key {
			return r, true, nil
		}
	}
	return Response{}, false, nil
}

// Polling pace of WaitResponse: quick at first, since a cancelled response
// usually stops within a second, then gentler.
const (
	waitFirst = 250 * time.Millisecond
	waitMax   = 2 * time.Second
)

// WaitResponse polls a response until its status is terminal and returns it;
// ctx bounds the wait. After a cancel this is how the caller learns that the
// service has stopped, and that the conversation takes a next turn.
func (c *Client) WaitResponse(ctx context.Context, id string) (Response, error) {
	for pause := waitFirst; ; pause = min(2*pause, waitMax) {
		r, err := c.Response(ctx, id)
		if err == nil && r.Status.Terminal() {
			return r, nil
		}
		if err != nil && !transient(err) {
			return r, err
		}
		if err := sleep(ctx, pause); err != nil {
			return r, err
		}
	}
}

// transient reports whether an error may go away by itself: no answer, a
// rate limit or a server error. A 4xx refusal will not.
func transient(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return true
	}
	return ae.StatusCode == 0 || ae.StatusCode == 408 || ae.StatusCode == 429 || ae.StatusCode >= 500
}
