package emulator

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
)

// runCell streams one code_interpreter_call: code deltas, interpreting, then its outputs.
func (tr *turnRun) runCell(ctx context.Context, step Step) (Cell, error) {
	ctx, resumed := tr.traceWaits(ctx)
	defer resumed()
	code := step.Code
	idx, id, cid := len(tr.out), newID("ci_"), tr.containerID()
	call := func(status, code string, outputs []any) item {
		it := item{"type": "code_interpreter_call", "id": id, "status": status, "container_id": cid,
			"code": code, "outputs": outputs}
		// An emulator extension: the app folds the loading cell, and hides the analyst's _emit lines.
		if ext := callExtension(step); ext.Role != "" || ext.Analyst {
			it[cellext.Field] = ext
		}
		return tr.attributed(it)
	}
	tr.out = append(tr.out, call("in_progress", "", nil))
	at := map[string]any{"output_index": idx, "item_id": id}
	tr.run.emit("response.output_item.added", map[string]any{"output_index": idx, "item": tr.out[idx]})
	tr.run.emit("response.code_interpreter_call.in_progress", at)
	for _, chunk := range codeChunks(code) {
		tr.run.emit("response.code_interpreter_call_code.delta", map[string]any{"output_index": idx, "item_id": id, "delta": chunk})
	}
	tr.run.emit("response.code_interpreter_call_code.done", map[string]any{"output_index": idx, "item_id": id, "code": code})
	tr.code += len(code)
	// The kernel is claimed (or restored, or waited for) only now: the code has streamed meanwhile.
	c, err := tr.ensureContainer(ctx)
	var res *ExecResult
	var files []*containerFile
	if err == nil {
		tr.run.emit("response.code_interpreter_call.interpreting", at)
		live := ctx
		if !tr.faults.emptyOutputs { // as the hosted service, which has no live output
			live = sandbox.WithFigures(sandbox.WithOutput(ctx, tr.streamLogs(idx, id)), tr.streamImages(idx, id))
		}
		res, files, err = c.exec(live, code, tr.s.now)
	} else if tr.c == nil {
		cid = "" // no container came to be: the stored item must not name one
	}
	if err != nil {
		tr.out[idx] = call("failed", code, []any{})
		tr.run.emit("response.output_item.done", map[string]any{"output_index": idx, "item": tr.out[idx]})
		return Cell{}, err
	}
	resumed()
	tr.keepFigures(ctx, c, res)
	cell := resultCell(code, res)
	var loaded []cellext.Load
	if step.Loads {
		loaded = analyst.Loaded(cell)
	}
	tr.out[idx] = call("completed", code, cellOutputs(res, loaded))
	tr.run.emit("response.code_interpreter_call.completed", at)
	tr.run.emit("response.output_item.done", map[string]any{"output_index": idx, "item": tr.streamedItem(tr.out[idx])})
	for _, f := range files {
		cell.Files = append(cell.Files, f.name())
		tr.written = appendUnique(tr.written, f)
	}
	return cell, nil
}

// streamedItem is a code call as its output_item.done shows it: outputs as the request
// included them, or none under FaultEmptyStreamOutputs.
func (tr *turnRun) streamedItem(it item) item {
	if !tr.faults.emptyOutputs {
		return renderItem(it, tr.t.withOutputs)
	}
	out := maps.Clone(it)
	out["outputs"] = []any{}
	return out
}

// streamedResponse is the response as a stream event shows it (see streamedItem).
func (tr *turnRun) streamedResponse(resp *response) *response {
	out := resp.rendered(tr.t.withOutputs)
	if tr.faults.emptyOutputs {
		for i, it := range out.Output {
			if it["type"] == "code_interpreter_call" {
				out.Output[i] = tr.streamedItem(it)
			}
		}
	}
	return out
}

// logsDeltaEvent carries what a running cell printed since the last one (an
// emulator extension: the hosted service shows a call's output only when it
// completes, in output_item.done; clients that do not know the event ignore
// it). The completed item's logs still carry the whole output.
const logsDeltaEvent = "response.code_interpreter_call_logs.delta"

// streamLogs returns what sends a running cell's output as it is printed.
func (tr *turnRun) streamLogs(idx int, id string) sandbox.OutputFunc {
	return func(text string) {
		tr.run.emit(logsDeltaEvent, map[string]any{"output_index": idx, "item_id": id, "delta": text})
	}
}

// partialImageEvent carries a figure a running cell showed or saved as
// PNG (an emulator extension, named after the Responses API's
// response.image_generation_call.partial_image; the hosted service shows a
// call's images only when it completes). The completed item's image outputs
// and the files the cell wrote stand for it then.
const partialImageEvent = "response.code_interpreter_call.partial_image"

// streamImages returns what sends a running cell's figures as they come:
// "url" is a PNG data URL, "name" the file the cell saved it as under
// /mnt/data, or "" for a figure it showed.
func (tr *turnRun) streamImages(idx int, id string) sandbox.FigureFunc {
	return func(f sandbox.Figure, name string) {
		tr.run.emit(partialImageEvent, map[string]any{"output_index": idx, "item_id": id, "name": name,
			"url": "data:image/png;base64," + base64.StdEncoding.EncodeToString(f.PNG)})
	}
}

// keepFigures makes a container file of each figure the cell showed, for its 0..0 citation.
func (tr *turnRun) keepFigures(ctx context.Context, c *container, res *ExecResult) {
	for _, png := range res.Images {
		f, err := c.putFigure(ctx, png, tr.s.now())
		if err != nil {
			tr.s.log.Warn("keep a shown figure", "container", c.id, "err", err)
			return
		}
		tr.figures = append(tr.figures, f)
	}
}

func appendUnique(files []*containerFile, f *containerFile) []*containerFile {
	for _, g := range files {
		if g == f {
			return files
		}
	}
	return append(files, f)
}

// traceWaits reports, while the cell waits for a free sandbox (all busy running code), a
// response.queued event with the wait's place in line; once it runs again,
// response.in_progress. Both are Responses API events (foundry-api.md §5.2; queued is how
// background responses start); queue_position is an emulator extension, ignored by clients
// that do not know it. Call resumed when the wait is surely over.
func (tr *turnRun) traceWaits(ctx context.Context) (_ context.Context, resumed func()) {
	var mu sync.Mutex
	queued := false
	ctx = sandbox.WithWaitTrace(ctx, func(pos int) {
		mu.Lock()
		defer mu.Unlock()
		queued = true
		resp := tr.t.resp.rendered(tr.t.withOutputs)
		resp.Status = "queued"
		tr.run.emit("response.queued", map[string]any{"response": resp, "queue_position": pos})
	})
	return ctx, func() {
		mu.Lock()
		defer mu.Unlock()
		if queued {
			queued = false
			tr.run.emit("response.in_progress", map[string]any{"response": tr.t.resp.rendered(tr.t.withOutputs)})
		}
	}
}

// cellOutputs turns a result into code interpreter outputs: one logs entry with what a
// notebook would show, then one image per figure. What the engine says of the cell beside its
// output (a restored session, the result as a table, what a loader cell loaded) rides on the logs entry as typed fields
// (cellext.Logs, an emulator extension the hosted service never sends), never as lines in the
// logs: the logs are exactly what the code printed, so nothing it prints can speak for the app.
func cellOutputs(res *ExecResult, loaded []cellext.Load) []any {
	var logs strings.Builder
	ext := cellext.Logs{Restored: res.Restored, Loaded: loaded}
	logs.WriteString(res.Stdout)
	logs.WriteString(res.Stderr)
	if res.Error != nil {
		if len(res.Error.Traceback) > 0 {
			logs.WriteString(strings.Join(res.Error.Traceback, "\n"))
		} else {
			fmt.Fprintf(&logs, "%s: %s", res.Error.Name, res.Error.Value)
		}
		logs.WriteString("\n")
	} else if res.Value != "" {
		start := logs.Len()
		logs.WriteString(res.Value + "\n")
		ext.Table = resultTable(res.Table, start, logs.Len())
	}
	if res.Truncated {
		logs.WriteString("[output truncated]\n")
	}
	outputs := []any{}
	if logs.Len() > 0 || ext.Restored != nil || ext.Loaded != nil {
		out := map[string]any{"type": "logs", "logs": logs.String()}
		if ext.Restored != nil || ext.Table != nil || ext.Loaded != nil {
			out[cellext.Field] = ext
		}
		outputs = append(outputs, out)
	}
	for _, png := range res.Images {
		outputs = append(outputs, map[string]any{"type": "image",
			"url": "data:image/png;base64," + base64.StdEncoding.EncodeToString(png)})
	}
	return outputs
}

// resultTable reads the kernel's table form of a result (sandbox.Value.Table) standing for the
// logs' bytes [start, end); nil when there is none or it does not parse.
func resultTable(raw string, start, end int) *cellext.Table {
	if raw == "" {
		return nil
	}
	var t cellext.Table
	if json.Unmarshal([]byte(raw), &t) != nil {
		return nil
	}
	t.TextStart, t.TextEnd = start, end
	return &t
}

// callExtension is what the engine says of a step's cell beside the call (cellext.Call).
func callExtension(step Step) cellext.Call {
	var c cellext.Call
	if step.Loads {
		c.Role = cellext.RoleLoader
	}
	c.Analyst = step.Own
	if step.Own && !step.Loads {
		c.Hidden = cellext.ReportLines(step.Code)
	}
	return c
}
