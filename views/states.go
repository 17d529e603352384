package views

// CellState is where a code cell of an answer is; handlers map the chat
// package's cell statuses onto these (views import nothing of chat).
type CellState string

// The states a cell shows.
const (
	CellWriting   CellState = "writing"
	CellRunning   CellState = "running"
	CellCompleted CellState = "completed"
	CellFailed    CellState = "failed"
	CellStopped   CellState = "stopped"
	// CellUnreadable is a step stored in a form this version cannot read.
	CellUnreadable CellState = "unreadable"
)

// SessionState is what the session badge says.
type SessionState string

// The states of a conversation's Code Interpreter session.
const (
	SessionNone     SessionState = "none"
	SessionActive   SessionState = "active"
	SessionIdle     SessionState = "idle"
	SessionExpired  SessionState = "expired"
	SessionRestored SessionState = "restored"
)

// RunStatus is an answer's run status, as the store records it.
type RunStatus string

// The run statuses an answer shows (as data-status; the page treats
// running, completed and cancelled apart).
const (
	RunRunning     RunStatus = "running"
	RunCompleted   RunStatus = "completed"
	RunCancelled   RunStatus = "cancelled"
	RunFailed      RunStatus = "failed"
	RunIncomplete  RunStatus = "incomplete"
	RunInterrupted RunStatus = "interrupted"
)

// FileFlaw is what is wrong with a generated file's bytes; handlers map
// the chat package's flaws onto these, and troubles.go says them in words.
type FileFlaw string

// The flaws a generated file shows.
const (
	FileSound   FileFlaw = ""
	FileEmpty   FileFlaw = "empty"
	FileNotType FileFlaw = "not_type" // a binary type whose bytes are not one
	FileNotText FileFlaw = "not_text" // a text type holding binary data
)
