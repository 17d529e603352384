package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
)

// ResponseRequest asks an agent for one turn.
type ResponseRequest struct {
	// Agent is the agent (and optionally version) that answers.
	Agent AgentRef
	// ConversationID continues a conversation; empty starts a fresh context.
	ConversationID string
	// Input is the user's message.
	Input string
	// StructuredInputs fills the agent's template slots (see SlotInputs).
	StructuredInputs map[string]string
	// Metadata is stored with the response (≤16 pairs, one of them Key's).
	Metadata map[string]string
	// Background runs the response detached from the request that creates
	// it: only such a response can be cancelled (POST /responses/{id}/cancel)
	// and its stream picked up again after a cut (reference §5; OpenAI's
	// background mode guide). The app always sets it.
	Background bool
	// Key identifies this request among the responses of its conversation
	// (stored as metadata RequestKeyMetadata), so that a creation whose
	// answer was lost can be found instead of being sent twice. Empty means
	// a random key.
	Key string
}

// RequestKeyMetadata is the metadata key under which a response carries its
// request's Key.
const RequestKeyMetadata = "request_key"

// includeOutputs asks for code interpreter logs and images in output items;
// without it Foundry leaves "outputs" null (reference §5.1).
var includeOutputs = []responses.ResponseIncludable{responses.ResponseIncludableCodeInterpreterCallOutputs}

// CreateResponse runs a turn without streaming and returns the response:
// finished, or queued when req.Background is set. The app streams; this
// serves scripts and probes. Like StreamResponse it is never sent twice
// by openai-go's retries, but it does not look for a lost response either.
func (c *Client) CreateResponse(ctx context.Context, req ResponseRequest) (Response, error) {
	params, opts, err := responseParams(req)
	if err != nil {
		return Response{}, fmt.Errorf("foundry: create response: %w", err)
	}
	opts = append(opts, option.WithMaxRetries(0))
	var raw string
	err = c.call(ctx, "create response", func(ctx context.Context) error {
		r, err := c.responses.New(ctx, params, opts...)
		if err == nil {
			raw = r.RawJSON()
		}
		return err
	})
	if err != nil {
		return Response{}, err
	}
	return responseFrom(raw)
}

// responseParams builds the OpenAI part of a request and the options that
// add Foundry's part.
func responseParams(req ResponseRequest) (responses.ResponseNewParams, []option.RequestOption, error) {
	if req.Agent.Name == "" {
		return responses.ResponseNewParams{}, nil, errors.New("no agent")
	}
	params := responses.ResponseNewParams{
		Input:   responses.ResponseNewParamsInputUnion{OfString: openai.String(req.Input)},
		Include: includeOutputs,
	}
	if req.ConversationID != "" {
		params.Conversation = responses.ResponseNewParamsConversationUnion{OfString: openai.String(req.ConversationID)}
	}
	if len(req.Metadata) > 0 || req.Key != "" {
		md := maps.Clone(req.Metadata)
		if md == nil {
			md = map[string]string{}
		}
		if req.Key != "" {
			md[RequestKeyMetadata] = req.Key
		}
		params.Metadata = shared.Metadata(md)
	}
	if req.Background {
		params.Background = openai.Bool(true)
	}
	// openai-go has no fields for Foundry's extensions; they are set on the
	// serialized body. "agent_reference" is the GA name: the preview's
	// "agent" is now rejected with a 400 (reference §5).
	opts := []option.RequestOption{option.WithJSONSet("agent_reference", agentReference(req.Agent))}
	if len(req.StructuredInputs) > 0 {
		opts = append(opts, option.WithJSONSet("structured_inputs", req.StructuredInputs))
	}
	return params, opts, nil
}

func agentReference(a AgentRef) map[string]string {
	ref := map[string]string{"type": "agent_reference", "name": a.Name}
	if a.Version != "" {
		ref["version"] = a.Version
	}
	return ref
}

// Response is a stored response, as returned by Response and CancelResponse.
type Response struct {
	ID             string
	Status         ResponseStatus
	ConversationID string
	CreatedAt      time.Time
	Metadata       map[string]string
	Output         []Item
	Usage          Usage
	// Err is set when Status is failed.
	Err *APIError
}

type wireStoredResponse struct {
	wireResponse
	CreatedAt unixTime               `json:"created_at"`
	Metadata  map[string]looseString `json:"metadata"`
}

func responseFrom(raw string) (Response, error) {
	var w wireStoredResponse
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		return Response{}, err
	}
	r := Response{ID: w.ID, Status: ResponseStatus(w.Status), ConversationID: conversationID(w.Conversation),
		CreatedAt: time.Time(w.CreatedAt)}
	for k, v := range w.Metadata {
		if r.Metadata == nil {
			r.Metadata = map[string]string{}
		}
		r.Metadata[k] = string(v)
	}
	if w.Usage != nil {
		r.Usage = w.Usage.usage()
	}
	if w.Error != nil {
		r.Err = &APIError{Code: string(w.Error.Code), Message: w.Error.Message, Type: w.Error.Type}
	}
	for _, o := range w.Output {
		it, err := parseItem(o)
		if err != nil {
			return Response{}, err
		}
		r.Output = append(r.Output, it)
	}
	return r, nil
}

// Response returns a stored response with its outputs.
func (c *Client) Response(ctx context.Context, id string) (Response, error) {
	raw, err := c.rawResponse(ctx, id)
	if err != nil {
		return Response{}, err
	}
	return responseFrom(raw)
}

// CancelResponse asks the service to stop a response. Closing the Stream
// stops reading; this also stops the work on the service side. Only a
// background response can be cancelled (the service answers 400 for
// others); cancelling one that has finished returns it as it is. The
// answer may still say in_progress: WaitResponse tells when it has stopped.
func (c *Client) CancelResponse(ctx context.Context, id string) (Response, error) {
	var raw string
	err := c.call(ctx, "cancel response "+id, func(ctx context.Context) error {
		r, err := c.responses.Cancel(ctx, id)
		if err == nil {
			raw = r.RawJSON()
		}
		return err
	})
	if err != nil {
		return Response{}, err
	}
	return responseFrom(raw)
}

// DeleteResponse deletes a stored response.
func (c *Client) DeleteResponse(ctx context.Context, id string) error {
	return c.call(ctx, "delete response "+id, func(ctx context.Context) error {
		return c.responses.Delete(ctx, id)
	})
}
