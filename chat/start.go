package chat

import (
	"context"
	"errors"
	"fmt"

	"github.com/analyst-workbench/workbench/store"
)

// ErrBusy means the conversation already has a turn running.
var ErrBusy error = &UserError{"A question is still being answered in this conversation. Wait for it, or stop it, before asking the next."}

// Turn is what a user asks: the text and the ids of the conversation's
// files to attach (nil attaches all of them).
type Turn struct {
	UserID         string
	ConversationID string
	Content        string
	FileIDs        []string
}

// Start records the question and a running run, then runs the turn in the
// background, detached from the caller's request. It returns at once.
func (s *Service) Start(ctx context.Context, t Turn) (*store.Message, *store.Run, error) {
	if s.shuttingDown() {
		return nil, nil, ErrShuttingDown
	}
	content, err := ValidateMessage(t.Content)
	if err != nil {
		return nil, nil, err
	}
	attached, err := s.selectFiles(ctx, t.UserID, t.ConversationID, t.FileIDs)
	if err != nil {
		return nil, nil, err
	}
	s.queueMu.Lock() // a question queued behind a stopping run must not miss its end
	defer s.queueMu.Unlock()
	q := queuedQuestion{t: t, content: content, files: attached}
	msg, run, err := s.startNow(ctx, q)
	if errors.Is(err, store.ErrRunInProgress) {
		return s.queueBehindStop(ctx, q)
	}
	return msg, run, err
}

// queuedQuestion is a question checked and ready to start or to wait.
type queuedQuestion struct {
	t       Turn
	content string
	files   []*store.File
}

// title is what the question names a still untitled conversation.
func (q queuedQuestion) title() string { return TitleFrom(q.content, fileNames(q.files)) }

// runner returns the runner of the question's run.
func (q queuedQuestion) runner(s *Service, run *store.Run) *runner {
	return &runner{s: s, run: run, convID: q.t.ConversationID, userID: q.t.UserID, question: q.content, files: q.files}
}

// startNow records the question with a running run and starts it; it is
// store.ErrRunInProgress while another run runs or a question waits.
func (s *Service) startNow(ctx context.Context, q queuedQuestion) (*store.Message, *store.Run, error) {
	msg, run, err := s.db.StartTurn(ctx, q.t.UserID, q.t.ConversationID, q.content, q.title())
	if err != nil {
		return nil, nil, err
	}
	if err := s.launch(q.runner(s, run)); err != nil {
		return nil, nil, err
	}
	return msg, run, nil
}

// shuttingDown reports whether Shutdown has begun.
func (s *Service) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// launch runs r's turn in the background, on the service's context rather
// than the caller's request, so that a closed tab never stops a turn. Once
// Shutdown has begun it starts nothing: the run, already recorded, is
// marked interrupted and ErrShuttingDown returned.
func (s *Service) launch(r *runner) error {
	rctx, cancel := context.WithCancelCause(s.ctx)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		cancel(errShutdown)
		end := store.RunEnd{Status: store.RunInterrupted, Error: ErrShuttingDown.Error()}
		if err := s.db.FinishRun(context.WithoutCancel(rctx), r.run.ID, end); err != nil {
			s.log.Error("record a run refused at shutdown", "run", r.run.ID, "err", err)
		}
		return ErrShuttingDown
	}
	s.running[r.run.ID] = cancel
	s.wg.Add(1) // under the lock, so that Shutdown's Wait counts it
	s.mu.Unlock()
	s.hub.Open(r.run.ID)
	driven := s.coord.drive(rctx, cancel, r)
	go func() {
		defer s.wg.Done()
		defer s.hub.Close(r.run.ID) // whatever happens to the run, its subscribers are let go
		defer func() { cancel(nil); driven() }()
		r.do(rctx)
		s.mu.Lock()
		delete(s.running, r.run.ID)
		s.mu.Unlock()
		s.startQueued(r.convID, r.run.ID)
	}()
	return nil
}

// selectFiles returns the files to attach: all of the conversation's, or
// the chosen ones, which must all belong to it.
func (s *Service) selectFiles(ctx context.Context, userID, convID string, ids []string) ([]*store.File, error) {
	all, err := s.db.Files(ctx, userID, convID)
	if err != nil {
		return nil, err
	}
	if ids == nil {
		return s.checkSlots(all)
	}
	byID := map[string]*store.File{}
	for _, f := range all {
		byID[f.ID] = f
	}
	var chosen []*store.File
	for _, id := range ids {
		f, ok := byID[id]
		if !ok {
			return nil, store.ErrNotFound
		}
		chosen = append(chosen, f)
	}
	return s.checkSlots(chosen)
}

func (s *Service) checkSlots(files []*store.File) ([]*store.File, error) {
	if len(files) > s.agent.FileSlots {
		return nil, &UserError{fmt.Sprintf("A question can use at most %d files, and %d are selected. Leave some out by clicking their chips.",
			s.agent.FileSlots, len(files))}
	}
	return files, nil
}

// Cancel stops a running turn of the user's conversation. Stopping a turn
// that has already finished is not an error. The turn also cancels its
// response in Foundry, and ends (freeing the conversation) once Foundry
// says the response has stopped.
//
// A question still waiting to start is taken back: it ends, cancelled,
// without starting. A run being stopped takes the next question at once,
// queued behind it (see Start).
func (s *Service) Cancel(ctx context.Context, userID, convID, runID string) error {
	run, err := s.db.Run(ctx, userID, convID, runID)
	if err != nil {
		return err
	}
	if run.Status == store.RunQueued && s.takeBack(ctx, runID) {
		return nil
	}
	if s.cancelHere(runID) {
		return nil
	}
	return s.coord.stopElsewhere(ctx, run) // another server sharing the database may run it
}

// cancelHere stops the run if this server runs it, and reports whether it
// does.
func (s *Service) cancelHere(runID string) bool {
	s.queueMu.Lock()
	s.mu.Lock()
	cancel := s.running[runID]
	s.mu.Unlock()
	if cancel != nil {
		s.stopping[runID] = true // until the run's end starts what waits behind it
	}
	s.queueMu.Unlock()
	if cancel != nil {
		cancel(errCancelled)
	}
	return cancel != nil
}

// Follow returns the events of a run of the user's conversation after seq,
// then (if the run is live here, or on another server sharing the
// database) a subscription to what follows, which the caller must Close. A
// finished run's events come from the database and sub is nil. Another
// user's run is store.ErrNotFound, as a missing one.
func (s *Service) Follow(ctx context.Context, userID, convID, runID string, after int64) (replay []Event, sub *Subscription, err error) {
	if _, err := s.db.Run(ctx, userID, convID, runID); err != nil {
		return nil, nil, err
	}
	return s.follow(ctx, runID, after)
}

// follow is Follow for a run already known to be the caller's.
func (s *Service) follow(ctx context.Context, runID string, after int64) (replay []Event, sub *Subscription, err error) {
	if replay, sub, ok := s.hub.Subscribe(runID, after); ok {
		return replay, sub, nil
	}
	rows, err := s.db.RunEvents(ctx, runID, after)
	if err != nil {
		return nil, nil, err
	}
	replay = decodeEvents(rows)
	sub, err = s.coord.followStored(ctx, runID, replay, after)
	return replay, sub, err
}

// Answer folds the recorded events of a run of the user's conversation
// into its answer; another user's run is store.ErrNotFound.
func (s *Service) Answer(ctx context.Context, userID, convID, runID string) (*Answer, error) {
	if _, err := s.db.Run(ctx, userID, convID, runID); err != nil {
		return nil, err
	}
	return s.answer(ctx, runID)
}

// answer is Answer for a run already known to be the caller's.
func (s *Service) answer(ctx context.Context, runID string) (*Answer, error) {
	answers, err := s.answers(ctx, []string{runID})
	if err != nil {
		return nil, err
	}
	return answers[runID], nil
}

// Answers folds the answers of runs of the user's conversation (a shared
// page asks as the conversation's owner): every run must be one of its
// turns, or it is store.ErrNotFound.
func (s *Service) Answers(ctx context.Context, userID, convID string, runIDs []string) (map[string]*Answer, error) {
	ok, err := s.db.RunsBelong(ctx, userID, convID, runIDs)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, store.ErrNotFound
	}
	return s.answers(ctx, runIDs)
}

// answers folds the answers of several runs: live ones from the hub's
// copy (no subscription is left behind), finished ones from one query.
// Every run asked for has an answer in the map, empty if it has no events.
func (s *Service) answers(ctx context.Context, runIDs []string) (map[string]*Answer, error) {
	out := make(map[string]*Answer, len(runIDs))
	var finished []string
	for _, id := range runIDs {
		if events, live := s.hub.Events(id); live {
			out[id] = fold(events)
		} else {
			finished = append(finished, id)
		}
	}
	if len(finished) == 0 {
		return out, nil
	}
	rows, err := s.db.RunEventsOf(ctx, finished)
	if err != nil {
		return nil, err
	}
	for _, id := range finished {
		out[id] = fold(decodeEvents(rows[id]))
	}
	return out, s.markEarlier(ctx, out)
}

// decodeEvents turns stored rows into events; a row that cannot be read
// becomes an unreadable step (see decodeEvent), never an error.
func decodeEvents(rows []store.RunEvent) []Event {
	events := make([]Event, 0, len(rows))
	for _, row := range rows {
		events = append(events, decodeEvent(row.Seq, row.Type, row.Data))
	}
	return events
}

// fold applies events in order to a new answer.
func fold(events []Event) *Answer {
	a := NewAnswer()
	for _, e := range events {
		a.Apply(e)
	}
	return a
}

// Subscribers counts the open subscriptions to live runs, those fed from
// the database included.
func (s *Service) Subscribers() int { return s.hub.Subscribers() + s.coord.followers() }
