package emulator

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"

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

// turnFaults are the faults injected into one turn's stream.
type turnFaults struct {
	slow         bool // FaultSlowTokens
	emptyOutputs bool // FaultEmptyStreamOutputs
}

// runTurn runs a prepared turn to its end and records the result; it never panics the server.
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
