package chat

import (
	"context"
	"errors"
	"time"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// stream creates the response, turns each Foundry event into the app's own,
// and, when the user stops the turn, stops the response on the service too.
func (r *runner) stream(ctx context.Context, req foundry.ResponseRequest) error {
	st, err := r.s.client.StreamResponse(ctx, req)
	if err != nil {
		if ctx.Err() != nil && !r.handingOver(ctx) {
			// Stopped while the creation was on its way: it may have
			// started a response all the same.
			r.stopRemote(ctx, req, "")
			return context.Cause(ctx)
		}
		return err
	}
	return r.readStream(ctx, st, func() (string, bool) { return r.stopRemote(ctx, req, st.ResponseID()) })
}

// readStream reads a response's stream to its end, emitting the app's
// events, each marked with how far the stream was read (Event.Read, from
// which a replica adopting the run reads on). When ctx ends it stops the
// response with stopRemote and reads what the stop still streamed, unless
// the run is being handed over to another replica.
func (r *runner) readStream(ctx context.Context, st *foundry.Stream, stopRemote func() (string, bool)) error {
	defer st.Close()
	stop := context.AfterFunc(ctx, func() { st.Close() })
	defer stop()
	defer func() { r.read = 0 }() // the events after the stream do not come from it
	last := int64(-1)             // the sequence number of the last event read
	for st.Next() {
		fe := st.Event()
		last = max(last, fe.Sequence)
		r.read = fe.Sequence + 1
		if e, ok := translate(&fe); ok {
			r.emit(ctx, e)
		}
		r.observe(ctx, &fe)
	}
	if ctx.Err() != nil {
		if r.handingOver(ctx) {
			return context.Cause(ctx)
		}
		if id, ended := stopRemote(); ended && last >= 0 {
			r.readStopped(ctx, id, last)
		}
		return context.Cause(ctx)
	}
	return st.Err()
}

// stoppedReadWait bounds reading a stopped response's last events.
const stoppedReadWait = 3 * time.Second

// readStopped reads what a stopped response streamed after the stop, once
// the service says it has ended: the last output and figures of the cell
// that was running, which the local engine's kernel sends as it is
// interrupted, so the stopped cell shows every byte it printed. The
// hosted service streams no output while a cell runs; there this finds
// nothing to add.
func (r *runner) readStopped(ctx context.Context, id string, after int64) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stoppedReadWait)
	defer cancel()
	st, err := r.s.client.ResumeResponse(rctx, id, after)
	if err != nil {
		r.s.log.Info("read the end of a stopped response", "run", r.run.ID, "response", id, "err", err)
		return
	}
	defer st.Close()
	for st.Next() {
		fe := st.Event()
		if fe.Type != foundry.EventLogsDelta && fe.Type != foundry.EventPartialImage {
			continue // the stop decides how the turn ends
		}
		if e, ok := translate(&fe); ok {
			r.emit(ctx, e)
		}
	}
}

// shutdownCancelWait bounds the cancel of a response at shutdown, when
// nobody waits for the answer.
const shutdownCancelWait = 5 * time.Second

// stopRemote cancels the turn's response on the service and waits until the
// service says it has stopped: closing the stream alone would leave the
// code running, and billed, and the conversation refusing the next
// question. The run stays running meanwhile, so the next question waits.
// At shutdown it only asks for the cancel. It returns the response's id
// and whether the service confirmed its end.
func (r *runner) stopRemote(ctx context.Context, req foundry.ResponseRequest, id string) (string, bool) {
	shutdown := errors.Is(context.Cause(ctx), errShutdown)
	wait := r.s.stopWait
	if shutdown {
		wait = shutdownCancelWait
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), wait)
	defer cancel()
	if id == "" {
		resp, found, err := r.s.client.FindResponse(wctx, req)
		if err != nil || !found {
			r.s.log.Info("stopped before a response was known", "run", r.run.ID, "found", found, "err", err)
			return "", false
		}
		id = resp.ID
	}
	if !shutdown {
		r.emit(ctx, Event{Type: EventProgress, Text: "Stopping…"})
	}
	if _, err := r.s.client.CancelResponse(wctx, id); err != nil {
		r.s.log.Warn("cancel response", "run", r.run.ID, "response", id, "err", err)
	}
	if shutdown {
		return id, false
	}
	resp, err := r.s.client.WaitResponse(wctx, id)
	if err != nil {
		r.s.log.Warn("the service did not confirm the end of a stopped response", "run", r.run.ID, "response", id, "err", err)
		return id, false
	}
	r.s.log.Info("stopped response ended", "run", r.run.ID, "response", id, "status", resp.Status)
	return id, true
}

// translate turns a Foundry event into the app's; ok is false for events
// the answer has no use for (created, item announcements other than code
// calls, the terminal events, whose outcome the runner records).
func translate(fe *foundry.Event) (Event, bool) {
	e := Event{CellID: fe.ItemID, ContainerID: fe.ContainerID, Text: fe.Text}
	switch fe.Type {
	case foundry.EventTextDelta:
		return Event{Type: EventText, Text: fe.Text}, true
	case foundry.EventItemAdded:
		if fe.Item == nil || fe.Item.Type != foundry.ItemCodeCall {
			return Event{}, false
		}
		e.Type, e.Text = EventCellAdded, ""
		e.Loader, e.Analyst, e.Hidden = callOf(fe.Item)
	case foundry.EventCodeDelta:
		e.Type = EventCodeDelta
	case foundry.EventCodeDone:
		e.Type = EventCodeDone
	case foundry.EventCodeStatus:
		status, ok := codeStatus(foundry.CallStatus(fe.Status))
		if !ok {
			return Event{}, false
		}
		e.Type, e.Text, e.Status = EventCodeStatus, "", status
	case foundry.EventLogs:
		ext := cellext.DecodeLogs(fe.Output.Extension)
		e.Type, e.Table, e.Loaded = EventLogs, ext.Table, ext.Loaded
	case foundry.EventLogsDelta:
		e.Type = EventLogsDelta
	case foundry.EventImage:
		e.Type, e.Image = EventImage, fe.Output.URL
	case foundry.EventPartialImage:
		e.Type, e.Image = EventPartialImage, fe.Output.URL
	case foundry.EventOutputsMissing:
		e.Type, e.Text = EventOutputMissing, ""
	case foundry.EventItemDone:
		if fe.Item == nil || fe.Item.Type != foundry.ItemCodeCall {
			return Event{}, false
		}
		e.Type, e.Text, e.Status = EventCellDone, fe.Item.Code, cellOutcome(fe.Item.Status)
		e.Loader, e.Analyst, e.Hidden = callOf(fe.Item)
	case foundry.EventFileCitation:
		c := fe.Citation
		return Event{Type: EventCitation, ContainerID: c.ContainerID,
			Citation: &Citation{ContainerID: c.ContainerID, FileID: c.FileID, Filename: c.Filename}}, true
	case foundry.EventUsage:
		if cellext.DecodeUsage(fe.Usage.Extension).Estimated {
			return Event{}, false // an estimate is no usage (cellext.Usage)
		}
		return Event{Type: EventUsage, Usage: &Usage{InputTokens: fe.Usage.InputTokens, OutputTokens: fe.Usage.OutputTokens}}, true
	default:
		return Event{}, false
	}
	return e, true
}

// codeStatus maps the service's status of a running call to chat's; ok is
// false for one that says nothing about the run (a failed or incomplete
// call ends with its item, which says so).
func codeStatus(s foundry.CallStatus) (EventStatus, bool) {
	switch s {
	case foundry.CallInProgress:
		return codeWriting, true
	case foundry.CallInterpreting:
		return codeRunning, true
	case foundry.CallCompleted:
		return codeFinished, true
	}
	return "", false
}

// cellOutcome turns the status of a finished code call into its cell's.
func cellOutcome(itemStatus string) EventStatus {
	if foundry.CallStatus(itemStatus).Failed() {
		return cellEnded(CellFailed)
	}
	return cellEnded(CellCompleted)
}

// callOf reads what the local engine says of a code call (cellext.Call):
// whether it is the built-in analyst's file loader, whether the analyst
// wrote its code, and which of its lines report to the engine. Foundry
// says none of it.
func callOf(it *foundry.Item) (loader, analyst bool, hidden []cellext.Lines) {
	c := cellext.DecodeCall(it.Extension)
	return c.Role == cellext.RoleLoader, c.Analyst, c.Hidden
}

// observe records what the rest of the app needs from a Foundry event.
func (r *runner) observe(ctx context.Context, fe *foundry.Event) {
	switch fe.Type {
	case foundry.EventCreated:
		r.end.ResponseID = fe.ResponseID
		r.s.coord.responseStarted(ctx, r.run.ID, fe.ResponseID)
	case foundry.EventQueued:
		r.emit(ctx, Event{Type: EventProgress, Text: waitingText(fe.Position)})
	case foundry.EventLogs:
		if rep := cellext.DecodeLogs(fe.Output.Extension).Restored; rep != nil {
			r.emit(ctx, Event{Type: EventRestored, Text: restoredNotice(rep)})
		}
		r.noteModule(ctx, fe.ItemID)
	case foundry.EventCodeDone, foundry.EventItemDone:
		r.checkSession(ctx, fe.ContainerID)
		if fe.ContainerID != "" {
			if err := r.s.db.UseSession(ctx, r.convID, fe.ContainerID, time.Now()); err != nil {
				r.s.log.Warn("record session use", "err", err)
			}
		}
		if fe.Type == foundry.EventItemDone && fe.Item != nil && fe.Item.Type == foundry.ItemCodeCall {
			if fe.Item.ContainerID == "" {
				fe.Item.ContainerID = fe.ContainerID
			}
			r.copyOutCall(ctx, fe.Item)
			r.noteModule(ctx, fe.ItemID)
		}
	case foundry.EventFileCitation:
		r.copyCitation(ctx, fe.Citation)
	case foundry.EventCompleted:
		if fe.Status == string(foundry.StatusIncomplete) {
			r.end.Status = store.RunIncomplete
			r.end.Error = "The answer was cut short (" + fe.Text + "). Ask again, perhaps for less at once."
			r.emit(ctx, Event{Type: EventError, Text: r.end.Error})
		}
	}
}
