package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// responseRequest is the body of POST /responses: OpenAI's CreateResponse plus Foundry's fields.
// Fields the local engine cannot honour (temperature, reasoning, text format…) are accepted and
// echoed where the Response has a place for them.
type responseRequest struct {
	AgentReference     *agentRef         `json:"agent_reference"`
	Agent              *agentRef         `json:"agent"`
	Model              string            `json:"model"`
	Instructions       *string           `json:"instructions"`
	Tools              []json.RawMessage `json:"tools"`
	ToolChoice         any               `json:"tool_choice"`
	Conversation       json.RawMessage   `json:"conversation"`
	PreviousResponseID string            `json:"previous_response_id"`
	Input              json.RawMessage   `json:"input"`
	Stream             bool              `json:"stream"`
	Background         bool              `json:"background"`
	Include            []string          `json:"include"`
	StructuredInputs   map[string]any    `json:"structured_inputs"`
	Store              *bool             `json:"store"`
	Metadata           map[string]string `json:"metadata"`
	Temperature        *float64          `json:"temperature"`
	TopP               *float64          `json:"top_p"`
	MaxOutputTokens    *int64            `json:"max_output_tokens"`
}

// turnSpec is a response request resolved against the stored state, before any event is sent:
// every 4xx of a turn is found here, so a stream never starts only to fail on bad input.
type turnSpec struct {
	resp         *response
	input        []item
	history      []Message
	question     string
	instructions string
	conversation *conversation
	container    *container // nil: the turn creates one
	// lastContainer is the container of the conversation's last code call.
	lastContainer string
	fileIDs       []string // uploaded files the container must have
	memoryLimit   string   // the size of a container the turn creates; "" for none asked
	// mayRunCode says a cell may run: the agent has the code_interpreter tool, or the request
	// names no agent (see prepareTurn).
	mayRunCode  bool
	withOutputs bool
}

// resolvedAgent is the definition a turn runs with, and the reference it reports.
type resolvedAgent struct {
	def definition
	ref *agentRef
}

// prepareTurn checks and resolves a response request.
func (s *Server) prepareTurn(r *http.Request, req *responseRequest) (*turnSpec, error) {
	if len(req.Conversation) > 0 && string(req.Conversation) != "null" && req.PreviousResponseID != "" {
		return nil, errBadRequest("conversation", "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.")
	}
	if req.Background && req.Store != nil && !*req.Store && !s.cfg.Lenient {
		// "Background mode requires store=true" (OpenAI's background mode guide); Foundry's
		// answer is UNCONFIRMED, the text ours.
		return nil, errBadRequest("store", "Background mode requires store=true: a background response is kept so that it can be polled, resumed or cancelled.")
	}
	if err := checkMetadata(req.Metadata); err != nil {
		return nil, err
	}
	agent, err := s.resolveAgent(r, req)
	if err != nil {
		return nil, err
	}
	t := &turnSpec{withOutputs: includesOutputs(req.Include)}
	values := slotValues(agent.def.StructuredInputs, req.StructuredInputs)
	t.instructions = substitute(agent.def.Instructions, values)
	if t.input, err = parseInput(req.Input, "input"); err != nil {
		return nil, err
	}
	prev, err := s.loadContext(r, req, t)
	if err != nil {
		return nil, err
	}
	if err := s.lockedConversation(t); err != nil {
		return nil, err
	}
	if err := s.expectedContainer(r, t); err != nil {
		return nil, err
	}
	if err := s.expiredConversation(t); err != nil {
		return nil, err
	}
	t.question = lastUserText(t.input)
	if t.question == "" && len(t.history) > 0 && t.history[len(t.history)-1].Role == "user" {
		// The question may already be in the conversation, added as an item before the turn.
		t.question = t.history[len(t.history)-1].Text
		t.history = t.history[:len(t.history)-1]
	}
	ci, hasCI := codeInterpreter(agent.def.Tools)
	spec := resolveContainer(ci.Container, values)
	if err := s.chooseContainer(r, t, spec, prev); err != nil {
		return nil, err
	}
	// A stored agent without the tool runs no code (errNoCodeInterpreter). A request with a model
	// and no agent keeps the emulator's convenience of running fenced code whatever its tools: it
	// is how scripts and tests try the engine without making an agent.
	t.memoryLimit, t.mayRunCode = spec.MemoryLimit, hasCI || agent.ref == nil
	t.resp = s.newResponse(req, agent, t, spec)
	return t, nil
}

// resolveAgent finds the agent (agent_reference, or the deprecated agent field) or builds a
// definition from an inline model and tools.
func (s *Server) resolveAgent(r *http.Request, req *responseRequest) (resolvedAgent, error) {
	ref := req.AgentReference
	if ref == nil && req.Agent != nil {
		// The preview surface is where "agent" belongs; on /openai/v1 the live service refuses it.
		if strings.Contains(r.URL.Path, "/openai/v1/") {
			if s.cfg.RejectDeprecatedAgent {
				return resolvedAgent{}, errBadRequest("agent", "The 'agent' property is deprecated. Use 'agent_reference' instead.")
			}
			s.log.Warn("deprecated field 'agent' in a response request; the hosted service wants 'agent_reference'", "path", r.URL.Path)
		}
		ref = req.Agent
	}
	if ref == nil {
		return s.inlineAgent(req)
	}
	if ref.Name == "" {
		return resolvedAgent{}, errBadRequest("agent_reference.name", "Missing required parameter: 'agent_reference.name'.")
	}
	v, err := s.st.agentVersion(r.Context(), ref.Name, ref.Version)
	if errors.Is(err, errNoRow) {
		if ref.Version != "" {
			return resolvedAgent{}, errNotFound("Agent '%s' version '%s' not found.", ref.Name, ref.Version)
		}
		return resolvedAgent{}, errNotFound("Agent '%s' not found.", ref.Name)
	}
	if err != nil {
		return resolvedAgent{}, err
	}
	def, err := parseDefinition(v.Definition)
	if err != nil {
		return resolvedAgent{}, fmt.Errorf("stored agent %s: %w", v.ID, err)
	}
	// Whether the hosted service merges request-level instructions with the agent's is
	// UNCONFIRMED; they are accepted and appended. Request-level tools are ignored: the agent's
	// definition decides which tools run.
	if req.Instructions != nil && *req.Instructions != "" {
		def.Instructions = strings.TrimSpace(def.Instructions + "\n\n" + *req.Instructions)
	}
	return resolvedAgent{def: def, ref: &agentRef{Type: "agent_reference", Name: v.Name, Version: v.Version}}, nil
}

func (s *Server) inlineAgent(req *responseRequest) (resolvedAgent, error) {
	if req.Model == "" {
		return resolvedAgent{}, errBadRequest("model", "Missing required parameter: 'model' (or 'agent_reference').")
	}
	tools, err := parseTools(req.Tools, "tools")
	if err != nil {
		return resolvedAgent{}, err
	}
	def := definition{Model: req.Model, Tools: tools}
	if req.Instructions != nil {
		def.Instructions = *req.Instructions
	}
	return resolvedAgent{def: def}, nil
}

// loadContext loads the conversation or the previous response and fills the history.
func (s *Server) loadContext(r *http.Request, req *responseRequest, t *turnSpec) (*storedResponse, error) {
	if id, err := conversationID(req.Conversation); err != nil {
		return nil, err
	} else if id != "" {
		c, err := s.conversation(r, id)
		if err != nil {
			return nil, err
		}
		t.conversation = &c
		items, err := s.st.conversationItems(r.Context(), c.ID)
		if err != nil {
			return nil, err
		}
		t.history = historyOf(items)
		t.lastContainer = s.lastContainer(c.ID, items)
		return nil, nil
	}
	if req.PreviousResponseID == "" {
		return nil, nil
	}
	prev, err := s.storedResponse(r, req.PreviousResponseID)
	if err != nil {
		return nil, err
	}
	chain, err := s.responseChain(r, prev)
	if err != nil {
		return nil, err
	}
	t.history = historyOf(chain)
	return prev, nil
}

// conversationID reads "conversation" as a string or {"id": …}.
func conversationID(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var id string
	if json.Unmarshal(raw, &id) == nil {
		return id, nil
	}
	var ref conversationRef
	if err := json.Unmarshal(raw, &ref); err != nil || ref.ID == "" {
		return "", errBadRequest("conversation", "Invalid 'conversation': expected an id or {\"id\": …}.")
	}
	return ref.ID, nil
}

// maxChain bounds how far back a previous_response_id chain is followed.
const maxChain = 200

// responseChain returns the items of a chain of responses, oldest first, ending with last.
func (s *Server) responseChain(r *http.Request, last *storedResponse) ([]item, error) {
	var chain []*storedResponse
	for cur := last; cur != nil && len(chain) < maxChain; {
		chain = append(chain, cur)
		if cur.Response.PreviousResponseID == nil {
			break
		}
		prev, err := s.storedResponse(r, *cur.Response.PreviousResponseID)
		if err != nil {
			break // a deleted link ends the history rather than failing the turn
		}
		cur = prev
	}
	var items []item
	for i := len(chain) - 1; i >= 0; i-- {
		items = append(items, chain[i].Input...)
		items = append(items, chain[i].Response.Output...)
	}
	return items, nil
}

// historyOf keeps the messages of a list of items, as Planner history.
func historyOf(items []item) []Message {
	var msgs []Message
	for _, it := range items {
		if text := messageText(it); text != "" {
			role, _ := it["role"].(string)
			msgs = append(msgs, Message{Role: role, Text: text})
		}
	}
	return msgs
}

// lastUserText is the text of the last user message among items.
func lastUserText(items []item) string {
	for i := len(items) - 1; i >= 0; i-- {
		if items[i]["role"] == "user" {
			return messageText(items[i])
		}
	}
	return ""
}

// chooseContainer picks the container of a turn: the one the tool names (which must be alive),
// else the live container of the conversation or of the previous response; nil means that the
// turn starts a fresh one with the agent's files, as auto containers do after expiry.
func (s *Server) chooseContainer(r *http.Request, t *turnSpec, spec containerSpec, prev *storedResponse) error {
	for _, id := range spec.FileIDs {
		if _, err := s.file(r, id); err != nil {
			return err
		}
	}
	t.fileIDs = spec.FileIDs
	switch {
	case spec.ID != "":
		c, err := s.container(spec.ID)
		if err != nil {
			return err
		}
		if !c.alive() {
			return errContainerExpired
		}
		t.container = c
	case t.conversation != nil:
		t.container = s.containers.forConversation(t.conversation.ID)
	case prev != nil && prev.Container != "":
		if c, ok := s.containers.get(prev.Container); ok && c.alive() {
			t.container = c
		} else if !s.cfg.Lenient {
			return errContainerExpired // as expiredConversation, along a previous_response_id chain
		}
	}
	return nil
}

// newResponse builds the in-progress Response a turn starts from.
func (s *Server) newResponse(req *responseRequest, agent resolvedAgent, t *turnSpec, spec containerSpec) *response {
	resp := &response{ID: newID("resp_"), Object: "response", CreatedAt: s.now().Unix(), Status: "in_progress",
		Background: req.Background, Model: agent.def.Model, Output: []item{}, ParallelToolCalls: true,
		Reasoning: map[string]any{"effort": nil, "summary": nil}, Store: req.Store == nil || *req.Store,
		Temperature: 1, TopP: 1, Text: map[string]any{"format": map[string]any{"type": "text"}},
		ToolChoice: req.ToolChoice, Tools: renderTools(agent.def.Tools, spec), Truncation: "disabled",
		Metadata: req.Metadata, AgentReference: agent.ref, StructuredInputs: req.StructuredInputs,
		MaxOutputTokens: req.MaxOutputTokens}
	if resp.ToolChoice == nil {
		resp.ToolChoice = "auto"
	}
	if resp.Metadata == nil {
		resp.Metadata = map[string]string{}
	}
	if t.instructions != "" {
		resp.Instructions = &t.instructions
	}
	if t.conversation != nil {
		resp.Conversation = &conversationRef{ID: t.conversation.ID}
	}
	if req.PreviousResponseID != "" {
		resp.PreviousResponseID = &req.PreviousResponseID
	}
	return resp
}

// renderTools shows the tools a turn ran with, structured inputs substituted.
func renderTools(tools []tool, spec containerSpec) []any {
	out := make([]any, 0, len(tools))
	for _, t := range tools {
		if t.Type != "code_interpreter" {
			out = append(out, map[string]any{"type": t.Type})
			continue
		}
		auto := map[string]any{"type": "auto", "file_ids": append([]string{}, spec.FileIDs...)}
		if spec.MemoryLimit != "" {
			auto["memory_limit"] = spec.MemoryLimit
		}
		var c any = auto
		if spec.ID != "" {
			c = spec.ID
		}
		out = append(out, map[string]any{"type": "code_interpreter", "container": c})
	}
	return out
}
