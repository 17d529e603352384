package chat

import (
	"context"
	"errors"

	"github.com/analyst-workbench/workbench/store"
)

// The rule: a conversation runs one turn at a time, and a question asked
// while its turn runs is refused (ErrBusy) — unless that turn is being
// stopped. Stopping waits for the service to confirm the end, which can
// take a while, and the person who pressed Stop has moved on: the question
// is then accepted at once, recorded as a queued run, and started the
// moment the stopped turn ends, however it ends. One question waits at a
// time. A restart forgets the queue (the runner is in memory); the store
// marks the question as never started (store.InterruptRuns), and the page
// says to ask it again.

// WaitingForStop is the status a queued question shows until it starts.
const WaitingForStop = "Waiting for the stopped answer to end…"

// ErrAlreadyWaiting refuses a question while another one waits to start.
var ErrAlreadyWaiting error = &UserError{"A question is already waiting for the stopped answer to end. It starts as soon as that answer ends; ask the next one then."}

// takenBack is the reason of a queued question stopped before it started.
const takenBack = "You stopped this question before it started."

// queueBehindStop records the question as queued behind the conversation's
// running turn if that turn is being stopped, and refuses it as busy
// otherwise. A turn that ended since Start looked frees the conversation,
// and the question starts at once. The caller holds queueMu.
func (s *Service) queueBehindStop(ctx context.Context, q queuedQuestion) (*store.Message, *store.Run, error) {
	running, queued, err := s.db.ActiveRuns(ctx, q.t.ConversationID)
	switch {
	case err != nil:
		return nil, nil, err
	case queued != "":
		return nil, nil, ErrAlreadyWaiting
	case running == "":
		msg, run, err := s.startNow(ctx, q)
		if errors.Is(err, store.ErrRunInProgress) {
			return nil, nil, ErrBusy
		}
		return msg, run, err
	case !s.stopping[running] && !s.coord.stopAsked(ctx, running):
		return nil, nil, ErrBusy
	}
	msg, run, err := s.db.QueueTurn(ctx, q.t.UserID, q.t.ConversationID, q.content, q.title())
	if errors.Is(err, store.ErrRunInProgress) {
		return nil, nil, ErrAlreadyWaiting
	}
	if err != nil {
		return nil, nil, err
	}
	r := q.runner(s, run)
	r.answer = NewAnswer()
	s.hub.Open(run.ID) // followed while it waits, and on once it starts
	r.emit(ctx, Event{Type: EventProgress, Text: WaitingForStop})
	s.waiting[run.ID] = r
	s.coord.queued(run.ID) // a Stop of it may come through another server
	s.log.Info("question queued behind a stopping run", "run", run.ID, "behind", running, "conversation", q.t.ConversationID)
	return msg, run, nil
}

// startQueued is called when a run of the conversation has ended: the
// question waiting behind it, if any, starts now — or, at shutdown, ends
// as never started.
func (s *Service) startQueued(convID, endedRunID string) {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	delete(s.stopping, endedRunID)
	ctx := context.WithoutCancel(s.ctx)
	if s.shuttingDown() {
		s.endWaiting(ctx, convID)
		return
	}
	t, err := s.db.PromoteQueued(ctx, convID)
	if errors.Is(err, store.ErrNotFound) {
		return // nothing waits
	}
	if err != nil {
		s.log.Error("start the queued question", "conversation", convID, "err", err)
		s.endWaiting(ctx, convID)
		return
	}
	r := s.waiting[t.Run.ID]
	delete(s.waiting, t.Run.ID)
	if r == nil {
		if r, err = s.adoptQueued(ctx, t); err != nil {
			s.log.Error("start the queued question", "run", t.Run.ID, "err", err)
			return
		}
	}
	r.run = t.Run
	if err := s.launch(r); err != nil { // shutdown began: launch recorded it interrupted
		r.endUnstarted(ctx, store.RunInterrupted, ErrShuttingDown.Error(), false)
	}
}

// adoptQueued makes the runner of a queued run this process did not queue
// (another replica did, behind a Stop sent through it), with all of the
// conversation's files.
func (s *Service) adoptQueued(ctx context.Context, t *store.Turn) (*runner, error) {
	conv, err := s.db.ConversationByID(ctx, t.Run.ConversationID)
	if err != nil {
		return nil, err
	}
	files, err := s.selectFiles(ctx, conv.UserID, conv.ID, nil)
	if err != nil {
		return nil, err
	}
	_, last, err := s.recorded(ctx, t.Run.ID) // its events go on after the waiting ones
	if err != nil {
		return nil, err
	}
	return &runner{s: s, run: t.Run, convID: conv.ID, userID: conv.UserID, question: t.Message.Content, files: files,
		answer: NewAnswer(), seq: last}, nil
}

// endWaiting ends the conversation's queued question, if one waits, as
// never started. The caller holds queueMu.
func (s *Service) endWaiting(ctx context.Context, convID string) {
	_, queued, err := s.db.ActiveRuns(ctx, convID)
	if err != nil || queued == "" {
		return
	}
	r := s.waiting[queued]
	delete(s.waiting, queued)
	if r != nil {
		r.endUnstarted(ctx, store.RunInterrupted, store.NotStarted, true)
	}
}

// takeBack ends a queued question that has not started, as the user
// stopped it; false when it has started (or ended) since.
func (s *Service) takeBack(ctx context.Context, runID string) bool {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	r := s.waiting[runID]
	if r == nil {
		return false
	}
	delete(s.waiting, runID)
	r.endUnstarted(ctx, store.RunCancelled, takenBack, true)
	return true
}

// endUnstarted ends a queued run that never started: records how (unless
// the caller has), tells its followers why, and lets them go.
func (r *runner) endUnstarted(ctx context.Context, status store.RunStatus, reason string, record bool) {
	rec := context.WithoutCancel(ctx)
	if record {
		if _, err := r.s.db.EndQueued(rec, r.run.ID, status, reason); err != nil {
			r.s.log.Error("end a queued question", "run", r.run.ID, "err", err)
		}
	}
	r.emit(rec, Event{Type: EventError, Text: reason})
	r.emit(rec, Event{Type: EventDone, Status: runEnded(status)})
	r.s.hub.Close(r.run.ID)
}

// isWaiting reports whether the queued run waits on this server.
func (s *Service) isWaiting(runID string) bool {
	s.queueMu.Lock()
	defer s.queueMu.Unlock()
	return s.waiting[runID] != nil
}
