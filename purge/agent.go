package purge

import (
	"context"
	"errors"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// ActionDeleteAgent is the audit action of an administrator deleting the
// Foundry agent with all its versions.
const ActionDeleteAgent = "delete_agent"

// AgentListing says how much a plan knows of an agent's versions.
type AgentListing string

// The outcomes of listing an agent's versions.
const (
	// AgentListed: Versions are every version Foundry holds.
	AgentListed AgentListing = "listed"
	// AgentMissing: Foundry holds no agent of that name.
	AgentMissing AgentListing = "missing"
	// AgentUnlisted: Foundry could not be asked (ListError says why); the
	// deletion may still be queued, and the outbox retries it.
	AgentUnlisted AgentListing = "unlisted"
)

// AgentDeletion is what deleting an agent removes, for the confirm step.
type AgentDeletion struct {
	Name    string
	Listing AgentListing
	// Versions are the agent's versions in Foundry, oldest first, when listed.
	Versions []foundry.AgentVersion
	// InUse is the version the app records in use, "" when none.
	InUse string
	// ListError is why Foundry could not be listed, when AgentUnlisted.
	ListError error
}

// errNoAgentName refuses to plan or delete an agent without a name.
var errNoAgentName = errors.New("purge: no agent named")

// PlanAgentDeletion lists what deleting the named agent removes, and
// deletes nothing.
func (s *Service) PlanAgentDeletion(ctx context.Context, name string) (*AgentDeletion, error) {
	if name == "" {
		return nil, errNoAgentName
	}
	d := &AgentDeletion{Name: name, Listing: AgentUnlisted}
	var err error
	if d.InUse, err = s.db.AgentVersionInUse(ctx, name); err != nil {
		return nil, err
	}
	if s.cfg.Lister == nil {
		d.ListError = errors.New("purge: no Foundry lister configured")
		return d, nil
	}
	versions, err := s.cfg.Lister.AgentVersions(ctx, name)
	switch {
	case foundry.IsNotFound(err):
		d.Listing = AgentMissing
	case err != nil:
		d.ListError = err
	default:
		d.Listing, d.Versions = AgentListed, versions
	}
	return d, nil
}

// DeleteAgent deletes the named agent with all its versions in Foundry,
// on behalf of actor, through the outbox: retried until done, and audited
// (started now, completed when Foundry has deleted it). The app's records
// of its versions go at once, so that the next question, on any server,
// sets the agent up anew (chat waits for the deletion to be done first).
func (s *Service) DeleteAgent(ctx context.Context, actor, name string) (*Result, error) {
	if name == "" {
		return nil, errNoAgentName
	}
	id, err := s.db.StartPurge(ctx, store.PurgeStart{Actor: actor, Action: ActionDeleteAgent,
		Objects: []store.PurgeObject{{Kind: store.OutboxAgent, Target: name}},
		Details: map[string]any{"agent": name}})
	if err != nil {
		s.auditFailure(ctx, actor, ActionDeleteAgent, err)
		return nil, err
	}
	s.kick()
	return &Result{PurgeID: id}, nil
}
