package handlers

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/markdown"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// Pacing of the event stream: updates at most this often while events
// arrive, and a comment when nothing happened for a while, so proxies and
// browsers keep the connection open.
const (
	updateEvery    = 100 * time.Millisecond
	heartbeatEvery = 15 * time.Second
)

// postMessage starts a turn and answers with the question and a live answer
// that opens the run's event stream.
func (h *Handler) postMessage(c echo.Context) error {
	form, err := c.FormParams()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "The form could not be read. Reload the page and try again.")
	}
	var fileIDs []string
	if ids, ok := form["file_id"]; ok {
		fileIDs = ids
	} else if form.Get("files") == "none" {
		fileIDs = []string{}
	}
	convID := c.Param("id")
	msg, run, err := h.chat.Start(c.Request().Context(), chat.Turn{UserID: currentUser(c).ID, ConversationID: convID,
		Content: form.Get("content"), FileIDs: fileIDs})
	if err != nil {
		return err // a refusal is told by the error handler
	}
	return h.startedTurn(c, msg, run)
}

// postStep runs the user's own (edited) code in the conversation's session
// and answers, as postMessage does, with the step and its live answer.
func (h *Handler) postStep(c echo.Context) error {
	msg, run, err := h.chat.StartStep(c.Request().Context(), chat.Step{UserID: currentUser(c).ID,
		ConversationID: c.Param("id"), Code: c.FormValue("code")})
	if err != nil {
		return err // a refusal is told by the error handler
	}
	return h.startedTurn(c, msg, run)
}

// startedTurn answers a turn that has just started: a redirect to the
// conversation for a plain form, else the turn to append with its live
// answer, which opens the run's event stream.
func (h *Handler) startedTurn(c echo.Context, msg *store.Message, run *store.Run) error {
	h.metrics.turns.Inc()
	convID := run.ConversationID
	if isNavigation(c) {
		return redirect(c, "/conversations/"+convID)
	}
	conv, err := h.db.Conversation(c.Request().Context(), currentUser(c).ID, convID)
	if err != nil {
		return err
	}
	// A question queued behind a stopping answer already says it waits.
	answer, err := h.chat.Answer(c.Request().Context(), currentUser(c).ID, convID, run.ID)
	if err != nil {
		return err
	}
	turn := turnView(msg, answerView(convID, run.ID, answer, h.answerOptions(true, time.Now())))
	item := conversationItem(conv, true)
	return render(c, http.StatusOK, views.StartedTurn(csrfToken(c), turn, conversationView(conv), item))
}

// turnView shows a user message, a question or a step, with its answer.
func turnView(msg *store.Message, answer views.Answer) views.ChatTurn {
	t := views.ChatTurn{Asked: msg.CreatedAt, Answer: answer}
	if msg.Kind == store.KindStep {
		t.Step = &views.StepView{Author: msg.Author, Code: msg.Content, CodeHTML: markdown.Highlight(msg.Content, "python")}
	} else {
		t.QuestionHTML = markdown.Render(msg.Content)
	}
	return t
}

// cancelRun stops a turn. The composer gets Send back at once: the next
// question is taken while the stopped answer ends (chat queues it).
func (h *Handler) cancelRun(c echo.Context) error {
	if err := h.chat.Cancel(c.Request().Context(), currentUser(c).ID, c.Param("id"), c.Param("run")); err != nil {
		return err
	}
	if isNavigation(c) {
		return redirect(c, "/conversations/"+c.Param("id"))
	}
	if isHTMX(c) {
		return render(c, http.StatusOK, views.ComposerActionSwap(c.Param("id"), ""))
	}
	return c.NoContent(http.StatusNoContent)
}

// streamRunEvents follows a run as server-sent events. Each "update"
// carries the whole answer as HTML, re-rendered at most every updateEvery,
// so a reconnect (with or without Last-Event-ID) simply shows the latest
// state; the stream ends with "done".
func (h *Handler) streamRunEvents(c echo.Context) error {
	ctx := c.Request().Context()
	userID, convID, runID := currentUser(c).ID, c.Param("id"), c.Param("run")
	replay, sub, err := h.chat.Follow(ctx, userID, convID, runID, 0)
	if err != nil {
		return err
	}
	h.metrics.streams.Inc()
	defer h.metrics.streams.Dec()
	w := newSSEWriter(c)
	answer := chat.NewAnswer()
	for _, e := range replay {
		answer.Apply(e)
	}
	if err := h.sendAnswer(ctx, w, convID, runID, answer); err != nil || sub == nil || answer.Done() {
		if sub != nil {
			sub.Close()
		}
		return h.endStream(ctx, w, convID, runID, answer, err)
	}
	return h.followLive(ctx, w, userID, convID, runID, answer, sub)
}

// showRunImage serves an image a cell of the run shows inline, by the key
// of its content (chat.ImageKey), so that it never changes: the browser
// keeps it, and the streamed updates that show it again carry only its URL.
func (h *Handler) showRunImage(c echo.Context) error {
	a, err := h.chat.Answer(c.Request().Context(), currentUser(c).ID, c.Param("id"), c.Param("run"))
	if err != nil {
		return err
	}
	b, contentType, ok := a.InlineImage(c.Param("key"))
	if !ok {
		return store.ErrNotFound
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=31536000, immutable")
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.Blob(http.StatusOK, contentType, b)
}

// followLive applies live events and sends throttled updates until the
// run ends or the browser goes away. A subscription dropped for being slow
// resumes from the last event applied. followLive owns sub, and every
// subscription it takes after a drop: whichever is current is closed when
// it returns.
func (h *Handler) followLive(ctx context.Context, w *sseWriter, userID, convID, runID string, answer *chat.Answer, sub *chat.Subscription) error {
	defer func() { sub.Close() }()
	tick := time.NewTicker(updateEvery)
	defer tick.Stop()
	heartbeat := time.NewTicker(heartbeatEvery)
	defer heartbeat.Stop()
	dirty, lastSent := false, time.Now()
	for {
		select {
		case <-ctx.Done():
			return nil
		case e, ok := <-sub.C:
			if !ok {
				// A subscription that ends before the answer does was
				// dropped for falling behind, or the run goes on elsewhere
				// (another replica took it over, or started the question
				// that waited here): follow it on from where it was.
				if !sub.Dropped() && answer.Done() {
					return h.endStream(ctx, w, convID, runID, answer, nil)
				}
				replay, next, err := h.chat.Follow(ctx, userID, convID, runID, answer.Seq)
				if err != nil {
					return h.endStream(ctx, w, convID, runID, answer, err)
				}
				for _, e := range replay {
					answer.Apply(e)
				}
				if next == nil {
					return h.endStream(ctx, w, convID, runID, answer, nil)
				}
				sub.Close()
				sub, dirty = next, true
				continue
			}
			answer.Apply(e)
			dirty = true
		case now := <-tick.C:
			// Send what changed; with nothing new, still refresh once a
			// second so a running cell's clock moves.
			if !dirty && now.Sub(lastSent) < time.Second {
				continue
			}
			if err := h.sendAnswer(ctx, w, convID, runID, answer); err != nil {
				return nil
			}
			dirty, lastSent = false, now
		case <-heartbeat.C:
			if err := w.comment("keep-alive"); err != nil {
				return nil
			}
		}
	}
}

// sendAnswer sends the live answer as one update.
func (h *Handler) sendAnswer(ctx context.Context, w *sseWriter, convID, runID string, a *chat.Answer) error {
	return w.event(ctx, "update", a.Seq, views.AnswerBody(answerView(convID, runID, a, h.answerOptions(true, time.Now()))))
}

// endStream sends the final answer, then done; a failure to read the run
// becomes an error event first. Nothing here can change the status code:
// the stream has started.
func (h *Handler) endStream(ctx context.Context, w *sseWriter, convID, runID string, a *chat.Answer, err error) error {
	if err != nil {
		h.log.Error("event stream", "run", runID, "err", err)
		w.event(ctx, "error", a.Seq, templ.Raw(`<div class="alert alert-error">The answer could not be loaded. Reload the page.</div>`))
	}
	if run, rerr := h.db.RunByID(ctx, runID); rerr == nil {
		a.Settle(run) // the run may have ended without a done event reaching us (another process, a crash)
	}
	v := answerView(convID, runID, a, h.answerOptions(false, time.Now()))
	var badge views.SessionBadge
	var title views.Conversation
	var item views.ConversationItem
	if conv, err := h.db.ConversationByID(ctx, convID); err == nil {
		badge = sessionBadge(chat.Session(conv, time.Now()).After(a))
		title, item = conversationView(conv), conversationItem(conv, true)
	}
	w.event(ctx, "update", a.Seq, views.FinishedUpdate(v, badge, csrfToken(w.c), title, item, h.nextRun(ctx, convID)))
	w.event(ctx, "done", a.Seq, templ.Raw(a.Status))
	return nil
}

// nextRun is the run the composer's Stop is for once an answer ended: the
// question queued behind it, or one started meanwhile; "" gives Send back.
func (h *Handler) nextRun(ctx context.Context, convID string) string {
	running, queued, err := h.db.ActiveRuns(ctx, convID)
	if err != nil {
		return ""
	}
	if running != "" {
		return running
	}
	return queued
}

// sseWriter writes server-sent events, flushing after each.
type sseWriter struct {
	c  echo.Context
	rc *http.ResponseController
}

func newSSEWriter(c echo.Context) *sseWriter {
	res := c.Response()
	res.Header().Set(echo.HeaderContentType, "text/event-stream")
	res.Header().Set("Cache-Control", "no-cache")
	res.Header().Set("X-Accel-Buffering", "no")
	res.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(res.Writer)
	rc.SetWriteDeadline(time.Time{}) // a stream outlives any server write timeout
	rc.Flush()
	return &sseWriter{c: c, rc: rc}
}

// event writes one event whose data is the rendered component, one data:
// line per line of HTML, as the SSE format requires.
func (w *sseWriter) event(ctx context.Context, name string, id int64, comp templ.Component) error {
	var b strings.Builder
	if err := comp.Render(ctx, &b); err != nil {
		return err
	}
	var out strings.Builder
	fmt.Fprintf(&out, "event: %s\nid: %s\n", name, strconv.FormatInt(id, 10))
	writeData(&out, b.String())
	out.WriteString("\n")
	if _, err := w.c.Response().Write([]byte(out.String())); err != nil {
		return err
	}
	return w.rc.Flush()
}

func (w *sseWriter) comment(text string) error {
	if _, err := w.c.Response().Write([]byte(": " + text + "\n\n")); err != nil {
		return err
	}
	return w.rc.Flush()
}

// chatView loads what the conversation page shows.
func (h *Handler) chatView(ctx context.Context, conv *store.Conversation, userID string) (views.Chat, error) {
	turns, err := h.db.Turns(ctx, conv.ID)
	if err != nil {
		return views.Chat{}, err
	}
	ups, err := h.chat.Files(ctx, userID, conv.ID)
	if err != nil {
		return views.Chat{}, err
	}
	now := time.Now()
	v := views.Chat{Conversation: conversationView(conv), Files: views.FilesPanel{ConversationID: conv.ID, MaxBytes: h.chat.MaxUpload()}}
	for _, u := range ups {
		v.Files.Files = append(v.Files.Files, fileView(u))
	}
	v.InputTokens, v.OutputTokens = tokensOf(turns)
	turns, v.Earlier = latestTurns("/conversations/"+conv.ID, turns)
	answers, err := h.turnViews(ctx, conv, turns, now, &v)
	if err != nil {
		return views.Chat{}, err
	}
	var last *chat.Answer
	if len(turns) > 0 {
		last = answers[turns[len(turns)-1].Run.ID]
	}
	v.Session = sessionBadge(chat.Session(conv, now).After(last))
	if v.CodeSessions, err = h.conversationSessions(ctx, conv.ID, now); err != nil {
		return views.Chat{}, err
	}
	return v, nil
}

// sessionBadge shows a session state.
func sessionBadge(st chat.SessionState) views.SessionBadge {
	return views.SessionBadge{State: sessionState(st.State), ExpiresIn: st.ExpiresIn}
}

// retryCopy tries again to copy out a file of a finished answer and
// answers with the answer as it now stands.
func (h *Handler) retryCopy(c echo.Context) error {
	ctx, convID, runID := c.Request().Context(), c.Param("id"), c.Param("run")
	a, err := h.chat.RetryCopy(ctx, currentUser(c).ID, convID, runID, c.Param("file"))
	if err != nil {
		return refuse(http.StatusConflict, err) // the answer is still running
	}
	if !isHTMX(c) {
		return redirect(c, "/conversations/"+convID)
	}
	return render(c, http.StatusOK, views.AnswerView(answerView(convID, runID, a, h.answerOptions(false, time.Now()))))
}

// turnViews appends the turns to v, noting the live one and the tokens
// used, and returns their answers.
func (h *Handler) turnViews(ctx context.Context, conv *store.Conversation, turns []store.Turn, now time.Time, v *views.Chat) (map[string]*chat.Answer, error) {
	convID := conv.ID
	answers, err := h.chat.Answers(ctx, conv.UserID, convID, store.RunIDs(turns))
	if err != nil {
		return nil, err
	}
	for _, t := range turns {
		a := answers[t.Run.ID]
		live := a.Settle(t.Run)
		if live {
			v.Running = t.Run.ID
		}
		av := answerView(convID, t.Run.ID, a, h.answerOptions(live, now))
		av.NewSession = t.Run.NewSession
		if t.Run.Status == store.RunInterrupted && t.Run.Error == store.NotStarted && t.Message.Kind != store.KindStep {
			av.AskAgain = t.Message.Content // it waited behind a stopped answer when the server restarted
		}
		v.Turns = append(v.Turns, turnView(t.Message, av))
	}
	return answers, nil
}
