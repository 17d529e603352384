package sandbox

import (
	"fmt"
	"strings"
)

// The worker caps its own output, figures and listings, but it runs in the
// same interpreter as user code, which can replace any of its functions or
// write to its protocol pipe. So the host enforces the same caps again while
// it reads a reply: it counts what arrives, refuses a frame that announces
// more than a cap allows before reading its body, and ends the session when
// a cap is broken. An honest worker never reaches these limits.

// Limit names a bound the host enforces on what a kernel sends back.
type Limit string

// The limits of LimitError.
const (
	LimitFigures     Limit = "figures per cell"
	LimitFigureBytes Limit = "bytes per figure"
	LimitReplyBytes  Limit = "bytes of text per reply"
	LimitFiles       Limit = "files per listing"
	LimitFileBytes   Limit = "bytes per file"
)

// limitHints say what the user can do about each limit; %d, if present, is
// the limit.
var limitHints = map[Limit]string{
	LimitFigures:     "show at most %d figures per cell, closing the others with plt.close()",
	LimitFigureBytes: "make the figure smaller (figsize, dpi) so that its PNG stays under %d bytes",
	LimitReplyBytes:  "print less and write large results to a file in /mnt/data",
	LimitFiles:       "keep fewer than %d files in /mnt/data, for example by zipping many small ones",
	LimitFileBytes:   "keep each file in /mnt/data under %d bytes",
}

// LimitError means a reply of the kernel broke one of the host's limits. The
// worker's own caps keep an honest kernel under them, so only a cell that
// changed the kernel's code gets here; the host stopped reading, and the
// session is reset. It wraps ErrSessionReset.
type LimitError struct {
	Limit Limit // which limit
	Got   int64 // what the kernel sent or announced
	Max   int64 // the limit's value
}

// Error says which limit was broken and what to do, in words a user can act on.
func (e *LimitError) Error() string {
	hint := "run it again in a new session (the next question starts one)"
	if h, ok := limitHints[e.Limit]; ok && strings.Contains(h, "%d") {
		hint += " and " + fmt.Sprintf(h, e.Max)
	} else if ok {
		hint += " and " + h
	}
	return fmt.Sprintf("sandbox: session reset: the kernel's reply broke the limit of %d %s (it sent or announced %d); "+
		"the sandbox stopped reading and ended the kernel, so its variables and files are lost. "+
		"Only a cell that rewrites the kernel's own code gets past its caps. To go on, %s",
		e.Max, e.Limit, e.Got, hint)
}

// Unwrap makes a LimitError match ErrSessionReset.
func (e *LimitError) Unwrap() error { return ErrSessionReset }

// brokenProtocol is a reply that does not follow the protocol (a frame of
// the wrong kind, more bytes than announced). Like a broken limit it ends
// the session, with a message that says what the kernel did.
type brokenProtocol struct{ what string }

func protocolError(format string, args ...any) error {
	return &brokenProtocol{what: fmt.Sprintf(format, args...)}
}

func (e *brokenProtocol) Error() string {
	return "sandbox: session reset: the kernel broke the protocol (" + e.what +
		"); the sandbox ended it, so its variables and files are lost"
}

func (e *brokenProtocol) Unwrap() error { return ErrSessionReset }
