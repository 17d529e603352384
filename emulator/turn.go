package emulator

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
)

// maxCells bounds the cells of one turn, against a planner that never stops.
const maxCells = 25

// turnRun is one turn in progress: it asks the planner for cells, runs them in the container,
// and emits the events of foundry-api.md §5.2 on its run.
type turnRun struct {
	s      *Server
	t      *turnSpec
	run    *run
	faults turnFaults
	c      *container
	// newContainer is the id chosen for the container the turn will create, if it creates one.
	newContainer string
	out          []item           // output items, outputs always kept
	written      []*containerFile // files the turn's cells wrote
	figures      []*containerFile // the images of the figures they showed (see figureDir)
	code         int              // characters of code, for usage
	live         *message         // the message a planner is streaming text into, if any
}

// runTurn runs a prepared turn to its end and records the result; it never panics the server.
// turnFaults are the faults injected into one turn's stream.
type turnFaults struct {
	slow         bool // FaultSlowTokens
	emptyOutputs bool // FaultEmptyStreamOutputs
}

func (s *Server) runTurn(ctx context.Context, t *turnSpec, rn *run, faults turnFaults) {
	tr := &turnRun{s: s, t: t, run: rn, faults: faults, c: t.container, out: []item{}}
	rn.emit("response.created", map[string]any{"response": t.resp.rendered(t.withOutputs)})
	rn.emit("response.in_progress", map[string]any{"response": t.resp.rendered(t.withOutputs)})
	rn.finish(tr.finish(ctx, tr.safeExecute(ctx)))
}

// safeExecute turns a panic (in a planner, say) into a failed response rather than a crash.
func (tr *turnRun) safeExecute(ctx context.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			tr.s.log.Error("turn panicked", "response", tr.t.resp.ID, "panic", p, "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return tr.execute(ctx)
}

func (tr *turnRun) execute(ctx context.Context) error {
	turn := &Turn{Question: tr.t.question, Instructions: tr.t.instructions, History: tr.t.history,
		Files: tr.fileNames(ctx)}
	ctx = withTextSink(ctx, tr.streamText)
	for range maxCells + 1 {
		step, err := tr.s.planner.Next(ctx, turn)
		if err != nil {
			return fmt.Errorf("planner: %w", err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if step.Code == "" {
			return tr.reply(ctx, step.Text)
		}
		if !tr.t.mayRunCode {
			return errNoCodeInterpreter
		}
		tr.endStreamedText()
		cell, err := tr.runCell(ctx, step)
		if err != nil {
			return err
		}
		turn.Cells = append(turn.Cells, cell)
	}
	return fmt.Errorf("the planner asked for more than %d cells", maxCells)
}

// fileNames lists what the planner may read, relative to /mnt/data: the files the turn chose,
// by their mount names, when its tool names files (a question reads exactly the files ticked
// for it, even in a container that still holds others from earlier turns); else the
// container's files. No kernel is started just to answer this.
func (tr *turnRun) fileNames(ctx context.Context) []string {
	if tr.c != nil && tr.t.fileIDs == nil {
		return tr.c.fileNames()
	}
	names := []string{}
	for _, id := range tr.t.fileIDs {
		if f, err := tr.s.fileByID(ctx, id); err == nil && !slices.Contains(names, mountName(f)) {
			names = append(names, mountName(f))
		}
	}
	return names
}

// ensureContainer starts the turn's container on its first cell, or copies newly attached
// files into the one it reuses.
func (tr *turnRun) ensureContainer(ctx context.Context) (*container, error) {
	if tr.c == nil {
		c, err := tr.s.containers.create(ctx, containerRequest{id: tr.containerID(), owner: tr.owner(), fileIDs: tr.t.fileIDs,
			memoryLimit: tr.t.memoryLimit})
		if err != nil {
			return nil, err
		}
		tr.c = c
	} else if err := tr.s.copyFiles(ctx, tr.c, tr.t.fileIDs); err != nil {
		return nil, err
	}
	if tr.t.conversation != nil {
		tr.s.containers.setConversation(tr.t.conversation.ID, tr.c)
	}
	return tr.c, nil
}

// containerID is the id of the turn's container: the one it reuses, or the one it will
// create, chosen now so that a cell can be announced (and its code streamed) while the kernel
// is being claimed.
func (tr *turnRun) containerID() string {
	if tr.c != nil {
		return tr.c.id
	}
	if tr.newContainer == "" {
		tr.newContainer = newID("cntr_")
	}
	return tr.newContainer
}

// owner is who the turn's kernel is for: the user the client named in the
// conversation's metadata, or else the conversation.
func (tr *turnRun) owner() string {
	conv := tr.t.conversation
	if conv == nil {
		return ""
	}
	if u := conv.Metadata[ownerMetadataKey]; u != "" {
		return u
	}
	return conv.ID
}

// ownerMetadataKey is the conversation metadata naming the end user, so
// that kernels are shared out fairly between users (an emulator extension;
// the hosted service has no memory budget to share).
const ownerMetadataKey = "user"

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

func outputText(text string, annotations []any) map[string]any {
	return map[string]any{"type": "output_text", "text": text, "annotations": annotations, "logprobs": []any{}}
}

// finish completes (or fails) the response, stores it with the conversation's new items, and
// emits the terminal event.
func (tr *turnRun) finish(ctx context.Context, runErr error) *response {
	tr.endStreamedText() // a turn that failed mid-sentence keeps what it said
	resp := *tr.t.resp
	resp.Output = tr.out
	now := tr.s.now().Unix()
	resp.CompletedAt = &now
	resp.Status = "completed"
	if runErr != nil {
		resp.Status, resp.Error = tr.failure(ctx, runErr)
	}
	resp.Usage = newUsage(tr.inputChars(), tr.outputChars())
	if err := tr.persist(context.WithoutCancel(ctx), &resp); err != nil {
		tr.s.log.Error("store response", "response", resp.ID, "err", err)
		resp.Status, resp.Error = "failed", &responseError{Code: "server_error", Message: "could not store the response"}
	}
	event := "response.completed"
	switch resp.Status {
	case "completed":
	case "cancelled":
		_, event = tr.s.cancelledEnding()
	default:
		event = "response.failed"
	}
	if event != "" {
		tr.run.emit(event, map[string]any{"response": tr.streamedResponse(&resp)})
	}
	return &resp
}

// failure maps a turn error to a status and the error the Response carries.
func (tr *turnRun) failure(ctx context.Context, err error) (string, *responseError) {
	switch {
	case ctx.Err() != nil: // cancelled, whatever the kernel made of it
		e, _ := tr.s.cancelledEnding()
		return "cancelled", e
	case errors.Is(err, errContainerGone):
		// No source shows how the hosted service fails a turn whose container is lost midway
		// (foundry-recorded.md 1c): the code is the generic one, the message the 400's.
		return "failed", &responseError{Code: "server_error", Message: "Container is expired."}
	case errors.Is(err, errNoCodeInterpreter):
		return "failed", &responseError{Code: noCodeInterpreterCode, Message: noCodeInterpreterMessage}
	case errors.As(err, new(*sandbox.LimitError)):
		// The kernel broke a limit the host enforces (figures, output, files): its message says
		// which and what to do; the session is gone, as after any reset.
		return "failed", &responseError{Code: "sandbox_limit_exceeded", Message: err.Error()}
	case errors.Is(err, sandbox.ErrQueueFull) || errors.Is(err, sandbox.ErrQueueTimeout):
		// Capacity, as the hosted service reports it: rate_limit_exceeded (foundry-api.md §8).
		return "failed", &responseError{Code: "rate_limit_exceeded",
			Message: "Every sandbox on this machine is busy running other analyses: " + err.Error()}
	}
	tr.s.log.Warn("turn failed", "response", tr.t.resp.ID, "err", err)
	return "failed", &responseError{Code: "server_error", Message: err.Error()}
}

func (tr *turnRun) inputChars() int {
	n := len(tr.t.instructions) + len(tr.t.question)
	for _, m := range tr.t.history {
		n += len(m.Text)
	}
	return n
}

func (tr *turnRun) outputChars() int {
	n := tr.code
	for _, it := range tr.out {
		n += len(messageText(it))
	}
	return n
}

// persist stores the response and, in the same transaction, appends the turn's input and
// output items to the conversation.
func (tr *turnRun) persist(ctx context.Context, resp *response) error {
	stored := storedResponse{Response: resp, Input: tr.t.input, WithOutputs: tr.t.withOutputs}
	if tr.c != nil {
		stored.Container = tr.c.id
	}
	return tr.s.st.withTx(ctx, func(tx *sql.Tx) error {
		if err := putObject(ctx, tx, "responses", resp.ID, stored); err != nil {
			return err
		}
		if tr.t.conversation == nil {
			return nil
		}
		// Read the conversation again: its metadata may have changed during the turn, or it
		// may have been deleted, and then the turn's items have nowhere to go.
		var conv conversation
		if err := getObject(ctx, tx, "conversations", tr.t.conversation.ID, &conv); errors.Is(err, errNoRow) {
			return nil
		} else if err != nil {
			return err
		}
		if resp.AgentReference != nil {
			conv.Agent = resp.AgentReference
			if err := putObject(ctx, tx, "conversations", conv.ID, conv); err != nil {
				return err
			}
		}
		items := append(append([]item{}, tr.t.input...), resp.Output...)
		return appendItems(ctx, tx, conv.ID, items)
	})
}

// attributed adds to an output item what the GA v1 service writes on each, in the stream, the
// response and the stored items: the response that made it and, for an agent's turn, the
// agent's reference (recorded: azure-sdk-assets python/…/sample_agent_code_interpreter_with_files].json
// @ c6752cf; the preview's created_by is @removed(Versions.v1) in the TypeSpec,
// src/responses/models.tsp @ 034b6ed).
func (tr *turnRun) attributed(it item) item {
	it["response_id"] = tr.t.resp.ID
	if ref := tr.t.resp.AgentReference; ref != nil {
		it["agent_reference"] = ref
	}
	return it
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
