package chat

import (
	"context"
	"time"
)

// AgentMisconfiguredError is a turn refused, or a set-up failed, because
// the service refused the agent (AgentFailed): the analyst is told the
// agent is misconfigured and that /admin says why.
type AgentMisconfiguredError struct {
	// State is the agent's state at the refusal, with the service's answer.
	State AgentState
	err   error
}

// Error implements error.
func (e *AgentMisconfiguredError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return "chat: the agent could not be set up: " + e.State.Failure.String()
}

// Unwrap returns the service's error, when there was one.
func (e *AgentMisconfiguredError) Unwrap() error { return e.err }

// ErrAgentBeingDeleted refuses a question asked while an administrator's
// deletion of the agent is still on its way to Foundry: set up now, the
// agent would be found as it was, and deleted under the answer.
var ErrAgentBeingDeleted error = &UserError{"The agent is being deleted at an administrator's request. Ask again in a minute: the question then sets it up anew."}

// agentForTurn makes sure the agent a turn runs as is there: set up at
// start, set up anew when an administrator deleted it (no version is
// recorded in use any more, whichever server deleted it), and tried again
// after a refusal that is old enough, in case the configuration was fixed.
// A recent refusal fails the turn at once, without asking Foundry.
func (s *Service) agentForTurn(ctx context.Context) error {
	if ok, err := s.agentInPlace(ctx); ok || err != nil {
		return err
	}
	s.setup.Lock()
	defer s.setup.Unlock()
	if ok, err := s.agentInPlace(ctx); ok || err != nil { // another question set it up meanwhile
		return err
	}
	st := s.currentAgent()
	if st.Status == AgentFailed && time.Since(st.At) < s.agentRetry.OnQuestion {
		return &AgentMisconfiguredError{State: st}
	}
	deleting, err := s.db.AgentDeletionPending(ctx, s.agent.Name)
	if err != nil {
		return err
	}
	if deleting {
		return ErrAgentBeingDeleted
	}
	return s.ensureAgent(ctx)
}

// agentInPlace reports whether the agent is ready and its version still
// recorded in use.
func (s *Service) agentInPlace(ctx context.Context) (bool, error) {
	if s.currentAgent().Status != AgentReady {
		return false, nil
	}
	inUse, err := s.db.AgentVersionInUse(ctx, s.agent.Name)
	return inUse != "", err
}
