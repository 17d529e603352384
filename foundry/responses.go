package foundry

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
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
	// Metadata is stored with the response (≤16 pairs).
	Metadata map[string]string
}

// includeOutputs asks for code interpreter logs and images in output items;
// without it Foundry leaves "outputs" null (reference §5.1).
var includeOutputs = []responses.ResponseIncludable{responses.ResponseIncludableCodeInterpreterCallOutputs}

// StreamResponse starts a streamed response. An error before the stream
// opens (bad request, auth, exhausted retries) is returned here; later
// failures come from Stream.Err. The caller must Close the stream.
func (c *Client) StreamResponse(ctx context.Context, req ResponseRequest) (*Stream, error) {
	params, opts, err := responseParams(req)
	if err != nil {
		return nil, fmt.Errorf("foundry: stream response: %w", err)
	}
	opts = append(opts, option.WithJSONSet("stream", true))
	var raw *http.Response
	err = c.call(ctx, "stream response", func(ctx context.Context) error {
		return c.oai.Post(ctx, "responses", params, &raw, opts...)
	})
	if err != nil {
		return nil, err
	}
	return newStream(raw.Body, requestID(raw.Header)), nil
}

// CreateResponse runs a turn without streaming and returns the finished
// response. The app streams; this serves scripts and probes.
func (c *Client) CreateResponse(ctx context.Context, req ResponseRequest) (Response, error) {
	params, opts, err := responseParams(req)
	if err != nil {
		return Response{}, fmt.Errorf("foundry: create response: %w", err)
	}
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
	if len(req.Metadata) > 0 {
		params.Metadata = shared.Metadata(req.Metadata)
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

// ResumeResponse reopens the stream of a response after a cut connection,
// from the event after sequence number after (reference §5.2: GET
// /responses/{id}?stream=true&starting_after=…). The new Stream knows the
// response id but not the items announced before the cut, so events of an
// item begun earlier may lack ContainerID until its item_done.
func (c *Client) ResumeResponse(ctx context.Context, id string, after int64) (*Stream, error) {
	var raw *http.Response
	err := c.call(ctx, "resume response "+id, func(ctx context.Context) error {
		return c.oai.Get(ctx, "responses/"+url.PathEscape(id), nil, &raw,
			option.WithQuery("stream", "true"),
			option.WithQuery("starting_after", strconv.FormatInt(after, 10)),
			option.WithQuery("include[]", string(responses.ResponseIncludableCodeInterpreterCallOutputs)))
	})
	if err != nil {
		return nil, err
	}
	s := newStream(raw.Body, requestID(raw.Header))
	s.responseID = id
	return s, nil
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
	Status         string // queued|in_progress|completed|failed|cancelled|incomplete
	ConversationID string
	CreatedAt      time.Time
	Output         []Item
	Usage          Usage
	// Err is set when Status is failed.
	Err *APIError
}

type wireStoredResponse struct {
	wireResponse
	CreatedAt unixTime `json:"created_at"`
}

func responseFrom(raw string) (Response, error) {
	var w wireStoredResponse
	if err := json.Unmarshal([]byte(raw), &w); err != nil {
		return Response{}, err
	}
	r := Response{ID: w.ID, Status: w.Status, ConversationID: conversationID(w.Conversation),
		CreatedAt: time.Time(w.CreatedAt)}
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
	var raw string
	err := c.call(ctx, "response "+id, func(ctx context.Context) error {
		r, err := c.responses.Get(ctx, id, responses.ResponseGetParams{Include: includeOutputs})
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

// CancelResponse asks the service to stop a response. Closing the Stream
// stops reading; this also stops the work on the service side.
func (c *Client) CancelResponse(ctx context.Context, id string) error {
	return c.call(ctx, "cancel response "+id, func(ctx context.Context) error {
		_, err := c.responses.Cancel(ctx, id)
		return err
	})
}

// DeleteResponse deletes a stored response.
func (c *Client) DeleteResponse(ctx context.Context, id string) error {
	return c.call(ctx, "delete response "+id, func(ctx context.Context) error {
		return c.responses.Delete(ctx, id)
	})
}
