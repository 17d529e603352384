package emulator

import (
	"context"
	"strings"
	"time"
)

// message is an assistant message item being streamed: opened on its first text, closed with
// the text it carries once the turn runs a cell or ends.
type message struct {
	idx  int
	id   string
	text strings.Builder
}

type textSinkKey struct{}

// withTextSink returns a context on which a planner that generates text as it goes (a model)
// hands each delta to fn; AnalystPlanner forwards it from the analyst's own hook.
func withTextSink(ctx context.Context, fn func(string)) context.Context {
	return context.WithValue(ctx, textSinkKey{}, fn)
}

// textSink returns the function set by withTextSink, or nil.
func textSink(ctx context.Context) func(string) {
	fn, _ := ctx.Value(textSinkKey{}).(func(string))
	return fn
}

// at returns the fields every content event of the message carries, plus extra.
func (m *message) at(extra map[string]any) map[string]any {
	out := map[string]any{"item_id": m.id, "output_index": m.idx, "content_index": 0}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// streamText emits one text delta, opening the message first if none is open. A planner
// calls it while it thinks, so the words show before the cell they lead to.
func (tr *turnRun) streamText(delta string) {
	if delta == "" {
		return
	}
	if tr.live == nil {
		tr.openMessage()
	}
	tr.live.text.WriteString(delta)
	tr.run.emit("response.output_text.delta", tr.live.at(map[string]any{"delta": delta, "logprobs": []any{}}))
}

func (tr *turnRun) openMessage() {
	tr.live = &message{idx: len(tr.out), id: newID("msg_")}
	// Reserve the index: cells run after this message come after it in the output.
	tr.out = append(tr.out, nil)
	tr.run.emit("response.output_item.added", map[string]any{"output_index": tr.live.idx,
		"item": tr.attributed(item{"type": "message", "id": tr.live.id, "role": "assistant", "status": "in_progress", "content": []any{}})})
	tr.run.emit("response.content_part.added", tr.live.at(map[string]any{"part": outputText("", []any{})}))
}

// closeMessage ends the open message with text (what was streamed, plus any citations).
func (tr *turnRun) closeMessage(text string, annotations []any) {
	m := tr.live
	tr.live = nil
	for i, a := range annotations {
		tr.run.emit("response.output_text.annotation.added", m.at(map[string]any{"annotation_index": i, "annotation": a}))
	}
	tr.run.emit("response.output_text.done", m.at(map[string]any{"text": text, "logprobs": []any{}}))
	part := outputText(text, annotations)
	tr.run.emit("response.content_part.done", m.at(map[string]any{"part": part}))
	msg := tr.attributed(item{"type": "message", "id": m.id, "role": "assistant", "status": "completed", "content": []any{part}})
	tr.out[m.idx] = msg
	tr.run.emit("response.output_item.done", map[string]any{"output_index": m.idx, "item": msg})
}

// endStreamedText closes a message the planner streamed before asking for a cell.
func (tr *turnRun) endStreamedText() {
	if tr.live != nil {
		tr.closeMessage(tr.live.text.String(), []any{})
	}
}

// reply streams the assistant message, citing the files the turn wrote. Text already
// streamed into the open message is not sent again when the reply continues it; a reply
// that does not (a note put in front, say) closes that message and comes as its own.
func (tr *turnRun) reply(ctx context.Context, text string) error {
	text, annotations := citeFiles(text, tr.c, tr.written)
	if len(tr.figures) > 0 {
		annotations = append(figureCitations(tr.c, tr.figures), annotations...)
	}
	rest := text
	if tr.live != nil {
		var ok bool
		if rest, ok = strings.CutPrefix(text, tr.live.text.String()); !ok {
			tr.endStreamedText()
			rest = text
		}
	}
	if tr.live == nil {
		tr.openMessage()
	}
	for _, chunk := range textChunks(rest) {
		if tr.faults.slow {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(tr.s.faults.tokenDelay):
			}
		}
		tr.run.emit("response.output_text.delta", tr.live.at(map[string]any{"delta": chunk, "logprobs": []any{}}))
	}
	tr.closeMessage(text, annotations)
	return nil
}
