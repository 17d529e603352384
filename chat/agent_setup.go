package chat

import (
	"context"
	"time"
)

// AgentRetry paces the tries of the agent's set-up.
type AgentRetry struct {
	// First and Max bound the wait after a failure that passes by itself
	// (a 429, a 5xx, no connection): First, doubling up to Max; 1 s and
	// 1 min by default. Foundry may be slow or briefly out of reach at start.
	First, Max time.Duration
	// Refused is the wait after the service refused the set-up (a 4xx):
	// trying again at once changes nothing, but trying never again would
	// miss a configuration fixed meanwhile; 10 minutes by default.
	Refused time.Duration
	// OnQuestion is how old a refusal must be for a question to try the
	// set-up again itself, rather than be told of the refusal at once;
	// 1 minute by default.
	OnQuestion time.Duration
}

// withDefaults fills the zero fields.
func (r AgentRetry) withDefaults() AgentRetry {
	if r.First <= 0 {
		r.First = time.Second
	}
	if r.Max <= 0 {
		r.Max = time.Minute
	}
	if r.Refused <= 0 {
		r.Refused = 10 * time.Minute
	}
	if r.OnQuestion <= 0 {
		r.OnQuestion = time.Minute
	}
	return r
}

// SetUpAgent sets the agent up in the background, trying again until it is
// ready or ctx ends: at a doubling wait after a failure that passes by
// itself, at the long AgentRetry.Refused one after a refusal. Meanwhile
// /readyz and /admin say why (Ready, Agent).
func (s *Service) SetUpAgent(ctx context.Context) {
	wait := s.agentRetry.First
	for {
		if s.currentAgent().Status == AgentReady {
			return // a question set it up meanwhile
		}
		err := s.EnsureAgent(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		next := wait
		if s.currentAgent().Status == AgentFailed {
			next, wait = s.agentRetry.Refused, s.agentRetry.First
		} else {
			wait = min(2*wait, s.agentRetry.Max)
		}
		s.log.Error("agent set-up failed; trying again", "err", err, "in", next)
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
	}
}
