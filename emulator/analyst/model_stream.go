package analyst

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// modelReply is what one streamed completion said: text, and the code of its first python call.
type modelReply struct {
	text string
	code string
}

// systemPrompt tells the model how the sandbox works; the agent's own instructions follow it.
const systemPrompt = "You are a data analyst. Files are in /mnt/data, which is also the working directory. " +
	"Run Python with the `python` tool (pandas, numpy, matplotlib, seaborn, scipy, openpyxl are installed; no network). " +
	"Inspect columns before using them. Save every chart as a PNG in /mnt/data with a descriptive name and mention it. " +
	"State numbers only from computed results. When a column is ambiguous, say which one you used."

// pythonTool is the single tool the model may call.
var pythonTool = openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
	Name:        "python",
	Description: openai.String("Run Python code in a persistent Jupyter-like kernel; returns stdout, the last expression and errors."),
	Parameters: shared.FunctionParameters{
		"type":       "object",
		"properties": map[string]any{"code": map[string]any{"type": "string", "description": "The Python code to run."}},
		"required":   []string{"code"},
	},
})

// ask streams one completion. With final set, no tools are offered, so the model must answer.
func (m *Model) ask(ctx context.Context, t *Turn, final bool) (modelReply, error) {
	params := openai.ChatCompletionNewParams{Model: shared.ChatModel(m.model), Messages: buildMessages(t, final)}
	if !final {
		params.Tools = []openai.ChatCompletionToolUnionParam{pythonTool}
	}
	stream := m.client.Chat.Completions.NewStreaming(ctx, params)
	defer stream.Close()
	emit := textStream(ctx)
	var text strings.Builder
	calls := map[int64]*toolCall{}
	for stream.Next() {
		chunk := stream.Current()
		for _, ch := range chunk.Choices {
			if d := ch.Delta.Content; d != "" {
				text.WriteString(d)
				emit(d)
			}
			for _, tc := range ch.Delta.ToolCalls {
				c := calls[tc.Index]
				if c == nil {
					c = &toolCall{}
					calls[tc.Index] = c
				}
				c.name += tc.Function.Name
				c.args.WriteString(tc.Function.Arguments)
			}
		}
	}
	if err := stream.Err(); err != nil {
		return modelReply{}, fmt.Errorf("analyst: model stream: %w", err)
	}
	return modelReply{text: text.String(), code: firstPython(calls)}, nil
}

// toolCall accumulates one streamed tool call; arguments arrive in fragments.
type toolCall struct {
	name string
	args strings.Builder
}

// firstPython returns the code of the lowest-indexed python call; a call whose arguments are not
// JSON is taken as raw code, which some models send.
func firstPython(calls map[int64]*toolCall) string {
	idx := make([]int64, 0, len(calls))
	for i := range calls {
		idx = append(idx, i)
	}
	sort.Slice(idx, func(a, b int) bool { return idx[a] < idx[b] })
	for _, i := range idx {
		c := calls[i]
		if c.name != "" && c.name != "python" {
			continue
		}
		raw := c.args.String()
		var args struct {
			Code string `json:"code"`
		}
		if json.Unmarshal([]byte(raw), &args) == nil && args.Code != "" {
			return args.Code
		}
		if strings.TrimSpace(raw) != "" && !strings.HasPrefix(strings.TrimSpace(raw), "{") {
			return raw
		}
	}
	return ""
}

// buildMessages rebuilds the conversation for the model: instructions, earlier messages, the
// question, then each cell of this turn as a tool call and its result.
func buildMessages(t *Turn, final bool) []openai.ChatCompletionMessageParamUnion {
	sys := systemPrompt
	if t.Instructions != "" {
		sys += "\n\n" + t.Instructions
	}
	if len(t.Files) > 0 {
		sys += "\n\nFiles in /mnt/data: " + strings.Join(t.Files, ", ") + "."
	}
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(sys)}
	for _, h := range t.History {
		if h.Role == "assistant" {
			msgs = append(msgs, openai.AssistantMessage(h.Text))
		} else {
			msgs = append(msgs, openai.UserMessage(h.Text))
		}
	}
	msgs = append(msgs, openai.UserMessage(t.Question))
	for i, c := range t.Cells {
		id := fmt.Sprintf("call_%d", i+1)
		args, _ := json.Marshal(map[string]string{"code": c.Code})
		msgs = append(msgs, openai.ChatCompletionMessageParamUnion{OfAssistant: &openai.ChatCompletionAssistantMessageParam{
			ToolCalls: []openai.ChatCompletionMessageToolCallUnionParam{{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: id, Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: "python", Arguments: string(args)},
			}}},
		}}, openai.ToolMessage(toolResult(c), id))
	}
	if final {
		msgs = append(msgs, openai.SystemMessage("Do not run more code. Answer now from the results above."))
	}
	return msgs
}

// maxToolResult caps what one cell's output tells the model.
const maxToolResult = 6000

// toolResult is what the model sees of a cell: its output, its value, its error, its files.
func toolResult(c Cell) string {
	var b strings.Builder
	b.WriteString(c.Stdout)
	if c.Value != "" {
		fmt.Fprintf(&b, "\n[value]\n%s", c.Value)
	}
	if c.Error != nil {
		fmt.Fprintf(&b, "\n[error] %s: %s", c.Error.Name, c.Error.Value)
	}
	if len(c.Files) > 0 {
		fmt.Fprintf(&b, "\n[files written] %s", strings.Join(c.Files, ", "))
	}
	s := strings.TrimSpace(b.String())
	if s == "" {
		return "(no output)"
	}
	if len(s) > maxToolResult {
		s = s[:maxToolResult] + "\n[output truncated]"
	}
	return s
}
