package foundry

// ResponseStatus is the status of a response (reference §5).
type ResponseStatus string

// The statuses a response goes through. A response is queued or in
// progress until it reaches one of the four terminal statuses.
const (
	StatusQueued     ResponseStatus = "queued"
	StatusInProgress ResponseStatus = "in_progress"
	StatusCompleted  ResponseStatus = "completed"
	StatusIncomplete ResponseStatus = "incomplete"
	StatusFailed     ResponseStatus = "failed"
	StatusCancelled  ResponseStatus = "cancelled"
)

// Terminal reports whether the response has finished: the service will not
// change it any more, and its conversation is free for the next turn.
func (s ResponseStatus) Terminal() bool {
	switch s {
	case StatusCompleted, StatusIncomplete, StatusFailed, StatusCancelled:
		return true
	}
	return false
}

// CallStatus is the status of a code_interpreter_call item: in progress
// while the code is written, interpreting while it runs, then completed,
// incomplete or failed (reference §5, the output item's status).
type CallStatus string

// The statuses of a code_interpreter_call item.
const (
	CallInProgress   CallStatus = "in_progress"
	CallInterpreting CallStatus = "interpreting"
	CallCompleted    CallStatus = "completed"
	CallIncomplete   CallStatus = "incomplete"
	CallFailed       CallStatus = "failed"
)

// Failed reports whether the call ended without its code having run to
// the end.
func (s CallStatus) Failed() bool { return s == CallFailed || s == CallIncomplete }
