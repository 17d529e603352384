package chat

import (
	"context"
	"errors"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// runner drives one turn from start to its done event.
type runner struct {
	s        *Service
	run      *store.Run
	convID   string
	userID   string
	question string
	// step is the code of a step, which must run as written; empty for a
	// question.
	step  string
	files []*store.File

	seq    int64
	answer *Answer
	end    store.RunEnd
	// seen holds the size of each container file ("container/file") the
	// turn has listed; tried the files it tried to copy; earlier the files
	// of earlier turns it found unchanged, announced only if cited.
	seen    map[string]int64
	tried   map[string]bool
	earlier map[string]*store.Artifact
	// figures counts the image outputs of the turn's calls, shownFigures
	// the figure citations seen (see copyFigure); savedPNG is set once a
	// call saved a chart as a PNG file.
	figures, shownFigures int
	savedPNG              bool
	// lastContainer is the session the conversation used before this turn;
	// sessionChecked is set once this turn's session is known.
	lastContainer  string
	sessionChecked bool
	// renewed is set once the turn has moved the conversation to a new
	// Foundry conversation; it does so at most once.
	renewed bool
	// attempts counts the responses this turn asked for.
	attempts int
	// adopted is set on a run this replica took over from one that died
	// (see Service.adopt); read is how far the current response's stream
	// has been read (Event.Read).
	adopted bool
	read    int64
}

// handingOver reports whether the run stops here to go on on another
// server (coordinator.handsOver).
func (r *runner) handingOver(ctx context.Context) bool {
	return r.s.coord.handsOver(context.Cause(ctx))
}

// do runs the turn and always records how it ended. Recording uses a
// context that outlives ctx, because a cancelled or interrupted run must
// still be written down.
func (r *runner) do(ctx context.Context) {
	var err error
	if r.adopted {
		err = r.followOn(ctx) // its answer so far was rebuilt from the store
	} else {
		r.answer = NewAnswer()
		r.end = store.RunEnd{Status: store.RunCompleted}
		r.resetCopies()
		err = r.turn(ctx)
	}
	if r.handingOver(ctx) {
		r.s.coord.leave(ctx, r)
		return
	}
	if err != nil {
		r.fail(ctx, err)
	} else if r.step != "" {
		r.checkStep(ctx)
	} else {
		r.checkFileMade(ctx)
	}
	r.end.Answer = r.answer.Text
	r.end.InputTokens, r.end.OutputTokens = r.answer.InputTokens, r.answer.OutputTokens
	r.end.ContainerID = r.answer.ContainerID
	rec := context.WithoutCancel(ctx)
	r.end.Owner = r.s.coord.owner()
	if err := r.s.db.FinishRun(rec, r.run.ID, r.end); errors.Is(err, store.ErrNotOwner) {
		r.s.log.Warn("run taken over by another replica before it ended here", "run", r.run.ID)
		return
	} else if err != nil {
		r.s.log.Error("record end of run", "run", r.run.ID, "err", err)
	}
	if r.step == "" {
		r.retitle(rec)
	}
	r.emit(rec, Event{Type: EventDone, Status: runEnded(r.end.Status)})
	r.s.log.Info("run finished", "run", r.run.ID, "conversation", r.convID, "status", r.end.Status,
		"input_tokens", r.end.InputTokens, "output_tokens", r.end.OutputTokens)
}

// retitle refines the title the question gave the conversation, now that
// the answer is in (TitleAfter); only the first question set that title,
// and a title the user changed is left alone.
func (r *runner) retitle(ctx context.Context) {
	names := fileNames(r.files)
	from, to := TitleFrom(r.question, names), TitleAfter(r.question, names, r.answer)
	if from == to || from == "" {
		return
	}
	if _, err := r.s.db.RetitleIf(ctx, r.convID, from, to); err != nil {
		r.s.log.Warn("retitle conversation", "conversation", r.convID, "err", err)
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
		if isToolRefusal(err) {
			r.s.noteToolRefused(err)
		}
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
	e.Seq, e.At, e.Read = r.seq, time.Now().UTC(), r.read
	if err := r.s.db.AppendRunEvent(context.WithoutCancel(ctx), r.run.ID, store.RunEvent{Seq: e.Seq, Type: string(e.Type), Data: e.marshal()}); err != nil {
		r.s.log.Error("record run event", "run", r.run.ID, "seq", e.Seq, "err", err)
	}
	r.answer.Apply(e)
	r.s.hub.Publish(r.run.ID, e)
}

func (r *runner) notice(ctx context.Context, text string) {
	r.emit(ctx, Event{Type: EventNotice, Text: text})
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

// resetCopies forgets which files of the session the runner has copied.
func (r *runner) resetCopies() {
	r.seen, r.tried, r.earlier = map[string]int64{}, map[string]bool{}, map[string]*store.Artifact{}
	r.figures, r.shownFigures, r.savedPNG = 0, 0, false
}
