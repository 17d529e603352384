package handlers

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"
)

// DefaultBodyIdleTimeout is how long a request body may send nothing before
// it is cut off, unless configured.
const DefaultBodyIdleTimeout = time.Minute

// errBodyIdle is what reading a body gives once it sent nothing for the
// idle timeout.
var errBodyIdle = errors.New("handlers: request body idle too long")

// idleBodies gives every request body an idle read deadline, pushed back
// each time the handler reads: a client that stops sending (a slow-loris
// upload) is cut off after h.bodyIdle, while a large upload on a slow link
// takes as long as it needs, as long as bytes keep arriving. The server has
// no ReadTimeout, which would cut that upload off too.
func (h *Handler) idleBodies(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = &idleBody{rc: r.Body, ctl: http.NewResponseController(c.Response()), idle: h.bodyIdle}
		}
		return next(c)
	}
}

// idleBody sets the connection's read deadline before each read of the
// body, and clears it once the body is read: after the body, net/http
// reads the connection in the background to notice a client going away,
// and a deadline left behind would end the request's context then.
type idleBody struct {
	rc   io.ReadCloser
	ctl  *http.ResponseController
	idle time.Duration
	off  bool // deadlines are not supported by this connection
}

func (b *idleBody) Read(p []byte) (int, error) {
	if !b.off && b.ctl.SetReadDeadline(time.Now().Add(b.idle)) != nil {
		b.off = true
	}
	n, err := b.rc.Read(p)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return n, errBodyIdle
	case err != nil && !b.off:
		_ = b.ctl.SetReadDeadline(time.Time{})
	}
	return n, err
}

func (b *idleBody) Close() error { return b.rc.Close() }
