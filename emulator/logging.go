package emulator

import (
	"net/http"
	"time"
)

// statusWriter remembers the status of a response, for the debug request log. Unwrap lets
// http.ResponseController reach the real writer to flush streams.
type statusWriter struct {
	http.ResponseWriter
	status int
}

// WriteHeader records the first status written.
func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

// Write records an implicit 200.
func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Unwrap returns the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logRequests logs every request at debug level; it is only installed when that level is on,
// so the common path pays nothing for it.
func (s *Server) logRequests(w http.ResponseWriter, r *http.Request, next func(http.ResponseWriter, *http.Request)) {
	sw := &statusWriter{ResponseWriter: w}
	start := time.Now()
	defer func() {
		s.log.Debug("request", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery,
			"status", sw.status, "duration", time.Since(start), "fault", r.Header.Get(FaultHeader))
	}()
	next(sw, r)
}
