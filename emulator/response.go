package emulator

import "github.com/analyst-workbench/workbench/cellext"

// response is the Response object of OpenAI's Responses API with Foundry's extras
// (agent_reference, structured_inputs), foundry-api.md §5.
type response struct {
	ID                 string            `json:"id"`
	Object             string            `json:"object"`
	CreatedAt          int64             `json:"created_at"`
	CompletedAt        *int64            `json:"completed_at"`
	Status             string            `json:"status"`
	Background         bool              `json:"background"`
	Error              *responseError    `json:"error"`
	IncompleteDetails  any               `json:"incomplete_details"`
	Instructions       *string           `json:"instructions"`
	MaxOutputTokens    *int64            `json:"max_output_tokens"`
	Model              string            `json:"model"`
	Output             []item            `json:"output"`
	ParallelToolCalls  bool              `json:"parallel_tool_calls"`
	PreviousResponseID *string           `json:"previous_response_id"`
	Reasoning          map[string]any    `json:"reasoning"`
	Store              bool              `json:"store"`
	Temperature        float64           `json:"temperature"`
	Text               map[string]any    `json:"text"`
	ToolChoice         any               `json:"tool_choice"`
	Tools              []any             `json:"tools"`
	TopP               float64           `json:"top_p"`
	Truncation         string            `json:"truncation"`
	Usage              *usage            `json:"usage"`
	User               *string           `json:"user"`
	Metadata           map[string]string `json:"metadata"`
	Conversation       *conversationRef  `json:"conversation"`
	AgentReference     *agentRef         `json:"agent_reference"`
	StructuredInputs   map[string]any    `json:"structured_inputs,omitempty"`
}

// responseError is the error of a failed response.
type responseError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// usage reports tokens. The local engine has no tokenizer: a token is counted as four
// characters, and the usage says it is an estimate (cellext.Usage), which the app records as
// no usage at all.
type usage struct {
	InputTokens         int64          `json:"input_tokens"`
	InputTokensDetails  map[string]int `json:"input_tokens_details"`
	OutputTokens        int64          `json:"output_tokens"`
	OutputTokensDetails map[string]int `json:"output_tokens_details"`
	TotalTokens         int64          `json:"total_tokens"`
	Extension           cellext.Usage  `json:"x_workbench"`
}

func newUsage(inputChars, outputChars int) *usage {
	in, out := int64((inputChars+3)/4), int64((outputChars+3)/4)
	return &usage{InputTokens: in, OutputTokens: out, TotalTokens: in + out,
		InputTokensDetails:  map[string]int{"cached_tokens": 0},
		OutputTokensDetails: map[string]int{"reasoning_tokens": 0}, Extension: cellext.Usage{Estimated: true}}
}

// conversationRef is how a response names its conversation.
type conversationRef struct {
	ID string `json:"id"`
}

// agentRef names an agent (and optionally a version) in a request or a response.
type agentRef struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// rendered returns a copy of the response whose code_interpreter_call outputs are hidden
// unless the request included them.
func (r *response) rendered(withOutputs bool) *response {
	out := *r
	out.Output = make([]item, len(r.Output))
	for i, it := range r.Output {
		out.Output[i] = renderItem(it, withOutputs)
	}
	return &out
}

// storedResponse is what the responses table keeps: the response, its input items and whether
// its outputs were included, so GET answers as the creating request did.
type storedResponse struct {
	Response    *response `json:"response"`
	Input       []item    `json:"input"`
	WithOutputs bool      `json:"with_outputs"`
	Container   string    `json:"container,omitempty"`
}
