package analyst

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// maxModelCells caps the model's tool calls in one turn; the seventh request gets no tools and
// must answer.
const maxModelCells = 6

// ModelConfig points the model planner at an OpenAI-compatible chat-completions endpoint, as
// the app's ANALYST_MODEL_URL, ANALYST_MODEL and ANALYST_API_KEY do.
type ModelConfig struct {
	// URL is the API base, such as https://host/v1; the client appends /chat/completions.
	URL    string
	Model  string
	APIKey string
	// HTTPClient, if set, carries the requests (tests, proxies); default http.DefaultClient.
	HTTPClient *http.Client
	// MaxRetries for a failed request before falling back to the rules; 0 means 1, and a
	// negative value none.
	MaxRetries int
}

// Model is the planner in which a chat model writes the code through a "python" tool: each
// Next asks the model, given the conversation and the cells run so far in this turn, for one
// more tool call (a cell to run) or for the answer. It is stateless like Rules: the tool calls
// and their results are rebuilt from Turn.Cells on every call.
//
// When the endpoint fails, the turn falls back to the built-in rules and the reply says so.
// Text the model streams reaches the function set with WithTextStream on the context.
type Model struct {
	client openai.Client
	model  string
	rules  Rules
}

// NewModel returns a model planner; it fails only on an incomplete configuration.
func NewModel(cfg ModelConfig) (*Model, error) {
	if cfg.URL == "" || cfg.Model == "" {
		return nil, errors.New("analyst: model planner needs a URL and a model name")
	}
	retries := cfg.MaxRetries
	switch {
	case retries == 0:
		retries = 1
	case retries < 0:
		retries = 0
	}
	opts := []option.RequestOption{option.WithBaseURL(cfg.URL), option.WithAPIKey(cfg.APIKey), option.WithMaxRetries(retries)}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &Model{client: openai.NewClient(opts...), model: cfg.Model}, nil
}

type textStreamKey struct{}

// WithTextStream returns a context whose Model.Next calls hand every text delta the model
// streams to fn, as it arrives, from every request of the turn (including the text a model
// writes before a tool call). The Planner interface has no streaming hook, so the emulator sets
// this on the turn's context to forward the deltas to its own event stream. The final
// Step.Text holds the text of the last request only, prefixed by a note when the loop was
// stopped; fn is called on the goroutine that called Next.
func WithTextStream(ctx context.Context, fn func(delta string)) context.Context {
	return context.WithValue(ctx, textStreamKey{}, fn)
}

func textStream(ctx context.Context) func(string) {
	fn, _ := ctx.Value(textStreamKey{}).(func(string))
	if fn == nil {
		return func(string) {}
	}
	return fn
}

// Next asks the model for the next cell or the answer.
func (m *Model) Next(ctx context.Context, t *Turn) (Step, error) {
	if blocks := FencedBlocks(t.Question); len(blocks) > 0 {
		return FencedStep(blocks, t.Cells), nil
	}
	if profileCell(t.Cells) >= 0 {
		return m.rules.Next(ctx, t) // this turn already fell back to the rules
	}
	final, why := stopReason(t.Cells)
	reply, err := m.ask(ctx, t, final)
	if err != nil {
		if ctx.Err() != nil {
			return Step{}, ctx.Err()
		}
		return m.rules.loadStep(t, fmt.Sprintf("the model endpoint failed (%s), so the built-in rules answered instead", shortError(err)))
	}
	if reply.code != "" && !final {
		return Step{Code: reply.code}, nil
	}
	text := reply.text
	if why != "" {
		text = "_" + why + "_\n\n" + text
	}
	if strings.TrimSpace(text) == "" {
		text = "The model returned no answer."
	}
	return Step{Text: text}, nil
}

// stopReason says whether the turn must end now: the cell cap is reached, or the last two
// cells failed with the same error, which a model rarely gets out of by itself.
func stopReason(cells []Cell) (bool, string) {
	n := len(cells)
	if n >= maxModelCells {
		return true, fmt.Sprintf("Stopped after %d code cells.", maxModelCells)
	}
	if n >= 2 && cells[n-1].Error != nil && cells[n-2].Error != nil && *cells[n-1].Error == *cells[n-2].Error {
		return true, fmt.Sprintf("Stopped after the same error twice (%s: %s).", cells[n-1].Error.Name, firstLine(cells[n-1].Error.Value))
	}
	return false, ""
}

// shortError keeps an endpoint error readable in a reply.
func shortError(err error) string {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		return fmt.Sprintf("HTTP %d", apiErr.StatusCode)
	}
	s := err.Error()
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}
