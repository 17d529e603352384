package sandbox

import (
	"errors"
	"strings"
)

var (
	// ErrQueueFull is returned when every kernel is busy running code and
	// Config.MaxQueue claims are already waiting for one.
	ErrQueueFull = errors.New("sandbox: every sandbox is busy and the line for one is full")
	// ErrQueueTimeout is returned when a claim waited Config.QueueTimeout
	// for a free sandbox.
	ErrQueueTimeout = errors.New("sandbox: no sandbox became free in time")
	// ErrIdleTimeout ends a session that received no call for Config.IdleTimeout.
	ErrIdleTimeout = errors.New("sandbox: session expired after being idle")
	// ErrLifetime ends a session that has lived for Config.Lifetime.
	ErrLifetime = errors.New("sandbox: session reached its maximum lifetime")
	// ErrSessionReset means the session's kernel died (out of memory, a kill
	// after a timeout that could not be interrupted, a crash): its variables
	// and files are gone and a new session is needed.
	ErrSessionReset = errors.New("sandbox: session reset: the kernel died and its state is lost")
	// ErrIsolationUnavailable means the sandbox could not be set up or failed
	// its self-test, so it refuses to run code.
	ErrIsolationUnavailable = errors.New("sandbox: isolation unavailable")
	// ErrClosed is returned by calls on a session or pool that was closed.
	ErrClosed = errors.New("sandbox: closed")
	// ErrFileTooLarge is returned when a file exceeds Config.DataBytes or the
	// caller's limit.
	ErrFileTooLarge = errors.New("sandbox: file too large")
)

// ExecError is a Python exception raised by a cell. It arrives inside a
// Result; it is not an infrastructure failure.
type ExecError struct {
	Name      string   // exception class, e.g. "KeyError"
	Value     string   // str() of the exception
	Traceback []string // formatted lines, user frames only
}

// Error formats the exception like Python's last traceback line.
func (e *ExecError) Error() string {
	if e.Value == "" {
		return e.Name
	}
	return e.Name + ": " + e.Value
}

// String returns the whole traceback.
func (e *ExecError) String() string {
	return strings.Join(e.Traceback, "\n")
}
