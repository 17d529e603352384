package emulator

import (
	"bufio"
	"net/http"
	"time"
)

// heartbeat is how often an idle stream gets a comment line, so proxies keep it open while a
// long cell runs.
const heartbeat = 15 * time.Second

// streamRun writes the events of run from index from on as text/event-stream, following the
// run live until it finishes or the client goes. With cut set, the connection is dropped right
// after the first code or text delta, as a network failure would.
func (s *Server) streamRun(w http.ResponseWriter, r *http.Request, run *run, from int, cut bool) {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	// A server WriteTimeout would otherwise end a stream that outlives it.
	_ = rc.SetWriteDeadline(time.Time{})
	w.WriteHeader(http.StatusOK)
	bw := bufio.NewWriterSize(w, 8<<10)
	flush := func() bool { return bw.Flush() == nil && rc.Flush() == nil }
	if !flush() {
		return
	}
	ticker := time.NewTicker(heartbeat)
	defer ticker.Stop()
	for {
		frames, done, wake := run.next(from)
		for _, f := range frames {
			writeFrame(bw, f)
			from++
			if cut && (f.typ == "response.code_interpreter_call_code.delta" || f.typ == "response.output_text.delta") {
				flush()
				s.log.Info("cutting stream (fault injected)", "after", f.typ)
				// ErrAbortHandler makes net/http drop the connection without a log line.
				panic(http.ErrAbortHandler)
			}
		}
		if len(frames) > 0 && !flush() {
			return
		}
		if done {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		case <-ticker.C:
			_, _ = bw.WriteString(": ping\n\n")
			if !flush() {
				return
			}
		}
	}
}

// writeFrame writes one event; its JSON has no newline, so a single data line suffices.
func writeFrame(bw *bufio.Writer, f frame) {
	_, _ = bw.WriteString("event: ")
	_, _ = bw.WriteString(f.typ)
	_, _ = bw.WriteString("\ndata: ")
	_, _ = bw.Write(f.data)
	_, _ = bw.WriteString("\n\n")
}
