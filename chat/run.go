package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// runner drives one turn from start to its done event.
type runner struct {
	s        *Service
	run      *store.Run
	convID   string
	userID   string
	question string
	files    []*store.File

	seq    int64
	answer *Answer
	end    store.RunEnd
	// copied holds "container/file" of the container files already kept.
	copied map[string]bool
	// lastContainer is the session the conversation used before this turn;
	// sessionChecked is set once this turn's session is known.
	lastContainer  string
	sessionChecked bool
}

// do runs the turn and always records how it ended. Recording uses a
// context that outlives ctx, because a cancelled or interrupted run must
// still be written down.
func (r *runner) do(ctx context.Context) {
	r.answer = NewAnswer()
	r.end = store.RunEnd{Status: store.RunCompleted}
	r.copied = map[string]bool{}
	err := r.turn(ctx)
	if err != nil {
		r.fail(ctx, err)
	}
	r.end.Answer = r.answer.Text
	r.end.InputTokens, r.end.OutputTokens = r.answer.InputTokens, r.answer.OutputTokens
	r.end.ContainerID = r.answer.ContainerID
	rec := context.WithoutCancel(ctx)
	if err := r.s.db.FinishRun(rec, r.run.ID, r.end); err != nil {
		r.s.log.Error("record end of run", "run", r.run.ID, "err", err)
	}
	r.emit(rec, Event{Type: EventDone, Status: r.end.Status})
	r.s.hub.Close(r.run.ID)
	r.s.log.Info("run finished", "run", r.run.ID, "conversation", r.convID, "status", r.end.Status,
		"input_tokens", r.end.InputTokens, "output_tokens", r.end.OutputTokens)
}

// turn prepares the Foundry side and streams the response.
func (r *runner) turn(ctx context.Context) error {
	conv, err := r.s.db.Conversation(ctx, r.userID, r.convID)
	if err != nil {
		return err
	}
	fileIDs, err := r.uploadFiles(ctx)
	if err != nil {
		return err
	}
	if conv.FoundryConversationID == "" {
		fc, err := r.s.client.CreateConversation(ctx, map[string]string{"app": "workbench", "conversation": conv.ID, "user": r.userID})
		if err != nil {
			return fmt.Errorf("create conversation: %w", err)
		}
		conv.FoundryConversationID = fc.ID
		if err := r.s.db.SetFoundryConversation(ctx, conv.ID, fc.ID); err != nil {
			return err
		}
	}
	if st := Session(conv, time.Now()); st.State == StatusExpired {
		r.end.NewSession, r.sessionChecked = true, true
		r.notice(ctx, "The previous Code Interpreter session has expired, so this answer runs in a new one. Your files are attached again; variables from earlier answers are gone.")
	}
	r.lastContainer = conv.ContainerID
	inputs, err := foundry.SlotInputs(fileIDs, r.s.agent.FileSlots)
	if err != nil {
		return err
	}
	req := foundry.ResponseRequest{Agent: r.s.agentRef(), ConversationID: conv.FoundryConversationID,
		Input: r.question, StructuredInputs: inputs}
	return r.stream(ctx, req)
}

// uploadFiles uploads the attached files Foundry does not have yet, and
// returns the Foundry ids of all of them.
func (r *runner) uploadFiles(ctx context.Context) ([]string, error) {
	var ids []string
	for _, f := range r.files {
		if f.FoundryFileID == "" {
			r.emit(ctx, Event{Type: EventProgress, Text: "Uploading " + f.Name + "…"})
			id, err := r.upload(ctx, f)
			if err != nil {
				return nil, fmt.Errorf("upload %s: %w", f.Name, err)
			}
			f.FoundryFileID = id
		}
		ids = append(ids, f.FoundryFileID)
	}
	return ids, nil
}

func (r *runner) upload(ctx context.Context, f *store.File) (string, error) {
	body, err := r.s.store.Open(f.SHA256)
	if err != nil {
		return "", err
	}
	defer body.Close()
	up, err := r.s.client.UploadFile(ctx, f.Name, body)
	if err != nil {
		return "", err
	}
	return up.ID, r.s.db.SetFoundryFileID(ctx, f.ID, up.ID)
}

// stream reads the response and turns each Foundry event into an app event.
func (r *runner) stream(ctx context.Context, req foundry.ResponseRequest) error {
	st, err := r.s.client.StreamResponse(ctx, req)
	if err != nil {
		return err
	}
	defer st.Close()
	stop := context.AfterFunc(ctx, func() {
		// Stop the work on the service side too, not only our reading.
		if id := st.ResponseID(); id != "" {
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			r.s.client.CancelResponse(cctx, id)
		}
		st.Close()
	})
	defer stop()
	for st.Next() {
		fe := st.Event()
		r.emit(ctx, Event{Type: string(fe.Type), Foundry: &fe})
		r.observe(ctx, &fe)
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return st.Err()
}

// observe records what the rest of the app needs from a Foundry event.
func (r *runner) observe(ctx context.Context, fe *foundry.Event) {
	switch fe.Type {
	case foundry.EventCreated:
		r.end.ResponseID = fe.ResponseID
	case foundry.EventQueued:
		r.emit(ctx, Event{Type: EventProgress, Text: waitingText(fe.Position)})
	case foundry.EventLogs:
		if text, ok := restoredNotice(fe.Text); ok {
			r.emit(ctx, Event{Type: EventRestored, Text: text})
		}
	case foundry.EventCodeDone, foundry.EventItemDone:
		r.checkSession(ctx, fe.ContainerID)
		if fe.ContainerID != "" {
			if err := r.s.db.UseSession(ctx, r.convID, fe.ContainerID, time.Now()); err != nil {
				r.s.log.Warn("record session use", "err", err)
			}
		}
		if fe.Type == foundry.EventItemDone && fe.Item != nil && fe.Item.Type == "code_interpreter_call" {
			if fe.Item.ContainerID == "" {
				fe.Item.ContainerID = fe.ContainerID
			}
			r.copyOutCall(ctx, fe.Item)
		}
	case foundry.EventFileCitation:
		r.copyCitation(ctx, fe.Citation)
	case foundry.EventCompleted:
		if fe.Status == "incomplete" {
			r.end.Status = store.RunIncomplete
			r.end.Error = "The answer was cut short (" + fe.Text + "). Ask again, perhaps for less at once."
			r.emit(ctx, Event{Type: EventError, Text: r.end.Error})
		}
	}
}

// fail records why the turn stopped, in words the user can act on.
func (r *runner) fail(ctx context.Context, err error) {
	rec := context.WithoutCancel(ctx)
	cause := context.Cause(ctx)
	switch {
	case errors.Is(cause, errCancelled):
		r.end.Status, r.end.Error = store.RunCancelled, "You stopped this answer. What it had written so far is kept."
	case errors.Is(cause, errShutdown):
		r.end.Status, r.end.Error = store.RunInterrupted, "The server restarted while this answer was being written. Ask again to continue."
	default:
		// An answer that had begun is kept and marked incomplete; one that
		// never began has failed.
		partial := r.answer.Text != "" || len(r.answer.Cells) > 0
		r.end.Status, r.end.Error = store.RunFailed, describeFailure(err, partial)
		if partial {
			r.end.Status = store.RunIncomplete
		}
		r.s.log.Warn("run failed", "run", r.run.ID, "err", err)
	}
	r.emit(rec, Event{Type: EventError, Text: r.end.Error})
}

// emit numbers an event, records it, folds it into the answer and publishes it.
func (r *runner) emit(ctx context.Context, e Event) {
	r.seq++
	e.Seq, e.At = r.seq, time.Now().UTC()
	if err := r.s.db.AppendRunEvent(context.WithoutCancel(ctx), r.run.ID, store.RunEvent{Seq: e.Seq, Type: e.Type, Data: e.marshal()}); err != nil {
		r.s.log.Error("record run event", "run", r.run.ID, "seq", e.Seq, "err", err)
	}
	r.answer.Apply(e)
	r.s.hub.Publish(r.run.ID, e)
}

func (r *runner) notice(ctx context.Context, text string) {
	r.emit(ctx, Event{Type: EventNotice, Text: text})
}

func (s *Service) agentRef() foundry.AgentRef {
	s.mu.Lock()
	defer s.mu.Unlock()
	return foundry.AgentRef{Name: s.agent.Name, Version: s.version}
}

// checkSession tells the user when a turn runs in another session than the
// conversation's last one although that one had not expired by the clock:
// the service (or the local engine, after a restart) ended it early, and the
// variables of earlier answers are gone.
func (r *runner) checkSession(ctx context.Context, containerID string) {
	if r.sessionChecked || containerID == "" {
		return
	}
	r.sessionChecked = true
	if r.lastContainer != "" && containerID != r.lastContainer {
		r.end.NewSession = true
		r.notice(ctx, "This answer runs in a new Code Interpreter session: the previous one ended early. Your files are attached again; variables from earlier answers are gone.")
	}
}
