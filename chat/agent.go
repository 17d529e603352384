package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
)

// AgentStatus is where the set-up of the Foundry agent stands.
type AgentStatus string

// The statuses of the agent's set-up.
const (
	// AgentPending: not set up yet. The set-up is under way, or tried again
	// after a failure that passes by itself (a 429, a 5xx, no connection).
	AgentPending AgentStatus = "pending"
	// AgentReady: the agent has a version that matches the configuration,
	// and turns run as it.
	AgentReady AgentStatus = "ready"
	// AgentFailed: the service refused the set-up (foundry.IsRefused): the
	// model deployment, the tool or the app's permissions are wrong, and
	// only a change of configuration helps. Turns fail with
	// AgentMisconfiguredError until a later try succeeds.
	AgentFailed AgentStatus = "failed"
	// AgentRemoved: an administrator deleted the agent (no version of it is
	// recorded in use any more); the next question sets it up anew.
	AgentRemoved AgentStatus = "removed"
)

// AgentState is the outcome of the latest set-up of the agent.
type AgentState struct {
	Status AgentStatus
	// Name and Model are the agent and the model deployment configured.
	Name, Model string
	// Version is the version turns run as, once ready.
	Version string
	// Failure is why the latest try failed: the service's refusal when
	// failed, the passing trouble while pending; nil otherwise.
	Failure *AgentFailure
	// At is when the latest try ended; zero before the first.
	At time.Time
	// Retry is how long a refused set-up waits before it is tried again
	// (a question asked meanwhile tries sooner; see AgentRetry).
	Retry time.Duration
}

// AgentFailure is what the service answered to a failed set-up.
type AgentFailure struct {
	// HTTPStatus is the service's status, 0 when none came (no connection,
	// or a failure reported inside a stream).
	HTTPStatus int
	// Code and Message are the service's error code and message; Message
	// is the error's own text when the service never answered.
	Code, Message string
	// RequestID names the request for the service's support, when known.
	RequestID string
}

// String is the failure as "<status> <code>: <message>", leaving out what
// is unknown.
func (f AgentFailure) String() string {
	head := ""
	if f.HTTPStatus != 0 {
		head = strconv.Itoa(f.HTTPStatus)
	}
	if f.Code != "" {
		head = joinNonEmpty(head, f.Code, " ")
	}
	return joinNonEmpty(head, f.Message, ": ")
}

func joinNonEmpty(a, b, sep string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + sep + b
}

// failureOf reads the service's answer out of err; an error that carries
// none keeps its text as the message.
func failureOf(err error) *AgentFailure {
	var ae *foundry.APIError
	if errors.As(err, &ae) {
		return &AgentFailure{HTTPStatus: ae.StatusCode, Code: ae.Code, Message: ae.Message, RequestID: ae.RequestID}
	}
	return &AgentFailure{Message: err.Error()}
}

// pendingAgent is the state of an agent not tried yet.
func pendingAgent(spec foundry.AgentSpec) AgentState {
	return AgentState{Status: AgentPending, Name: spec.Name, Model: spec.Model}
}

// EnsureAgent makes sure the agent exists in Foundry with the configured
// definition, records the version in use, and keeps the outcome
// (AgentState). Servers sharing a database take turns (store.Exclusive),
// so that replicas starting together find the version the first one made
// rather than each making its own. A refusal comes back as an
// *AgentMisconfiguredError.
func (s *Service) EnsureAgent(ctx context.Context) error {
	s.setup.Lock()
	defer s.setup.Unlock()
	return s.ensureAgent(ctx)
}

// ensureAgent is EnsureAgent with s.setup held.
func (s *Service) ensureAgent(ctx context.Context) error {
	var v foundry.AgentVersion
	err := s.db.Exclusive(ctx, "agent:"+s.agent.Name, func(ctx context.Context) error {
		var err error
		if v, err = s.client.EnsureAgent(ctx, s.agent); err != nil {
			return fmt.Errorf("chat: ensure agent %s: %w", s.agent.Name, err)
		}
		return s.db.RecordAgentVersion(ctx, v.Name, v.Version)
	})
	if err != nil && ctx.Err() != nil {
		return err // stopped, not failed: the state stays as it was
	}
	st := s.noteSetUp(v.Version, err)
	if err != nil {
		if st.Status == AgentFailed {
			return &AgentMisconfiguredError{State: st, err: err}
		}
		return err
	}
	s.log.Info("agent ready", "agent", v.Name, "version", v.Version)
	return nil
}

// noteSetUp keeps the outcome of a try and returns the new state: ready,
// failed when the service refused, pending otherwise.
func (s *Service) noteSetUp(version string, err error) AgentState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := pendingAgent(s.agent)
	st.At, st.Retry = time.Now(), s.agentRetry.Refused
	switch {
	case err == nil:
		st.Status, st.Version = AgentReady, version
	case foundry.IsRefused(err):
		st.Status, st.Failure = AgentFailed, failureOf(err)
	default:
		st.Failure = failureOf(err)
	}
	s.agentState = st
	return st
}

// noteToolRefused keeps a turn's refusal to run code for want of the Code
// Interpreter tool as the agent's failure, so that /admin and /readyz say
// why analysts are told the agent is misconfigured.
func (s *Service) noteToolRefused(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agentState.Status, s.agentState.Failure, s.agentState.At = AgentFailed, failureOf(err), time.Now()
}

// currentAgent returns the kept state as it is.
func (s *Service) currentAgent() AgentState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.agentState
}

// Agent returns where the agent's set-up stands. A ready agent whose
// versions are no longer recorded was deleted by an administrator, here
// or through another server sharing the database: it is AgentRemoved.
func (s *Service) Agent(ctx context.Context) (AgentState, error) {
	st := s.currentAgent()
	if st.Status != AgentReady {
		return st, nil
	}
	inUse, err := s.db.AgentVersionInUse(ctx, s.agent.Name)
	if err != nil {
		return st, err
	}
	if inUse == "" {
		st.Status, st.Version = AgentRemoved, ""
	}
	return st, nil
}

// Ready reports whether turns can start: the agent is set up, or was
// deleted on purpose and is set up again by the next question. A failed
// set-up says what the service answered.
func (s *Service) Ready(context.Context) error {
	st := s.currentAgent()
	switch st.Status {
	case AgentReady, AgentRemoved:
		return nil
	case AgentFailed:
		return fmt.Errorf("the agent could not be set up: %s", st.Failure)
	}
	if st.Failure != nil {
		return fmt.Errorf("the agent is not set up yet (last try: %s)", st.Failure)
	}
	return errors.New("the agent is not set up yet")
}

// agentRef is the agent version a turn runs as.
func (s *Service) agentRef() foundry.AgentRef {
	st := s.currentAgent()
	return foundry.AgentRef{Name: s.agent.Name, Version: st.Version}
}
