package purge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// Audit actions: which door a purge came through.
const (
	ActionPurge              = "purge"
	ActionRetention          = "retention"
	ActionDeleteConversation = "delete_conversation"
	ActionPurgeObjects       = "purge_objects"
)

// ActorRetention is the audit actor of the background retention job.
const ActorRetention = "retention"

// Result is a queued purge: its local rows are gone when Execute returns,
// its remote objects and blobs follow through the outbox.
type Result struct {
	PurgeID string
	// Summary is what the selection held when the purge started.
	Summary store.PurgeSummary
	// Orphans counts the orphans queued.
	Orphans OrphanSummary
}

// Execute purges sel on behalf of actor (a user id): it records the purge,
// queues its work, deletes the local rows before returning and leaves the
// rest to the worker. If the process dies, the worker of the next one
// finishes the purge. An error with a non-nil Result means the purge was
// queued and the worker will finish it; with a nil Result nothing changed.
func (s *Service) Execute(ctx context.Context, actor string, sel Selection) (*Result, error) {
	return s.execute(ctx, actor, ActionPurge, sel)
}

// DeleteConversation deletes one conversation of userID through the purge
// path, here and in Foundry. Another user's conversation is
// store.ErrNotFound, as a missing one.
func (s *Service) DeleteConversation(ctx context.Context, userID, conversationID string) error {
	if _, err := s.db.Conversation(ctx, userID, conversationID); err != nil {
		return err
	}
	sel := Selection{ConversationIDs: []string{conversationID}, UserID: userID}
	_, err := s.execute(ctx, userID, ActionDeleteConversation, sel)
	return err
}

// RunRetention purges every conversation not updated for days days, as the
// retention actor. It records nothing when nothing is that old, so an
// hourly job does not flood the audit log.
func (s *Service) RunRetention(ctx context.Context, days int) (*Result, error) {
	if days <= 0 {
		return nil, fmt.Errorf("purge: retention of %d days", days)
	}
	sel := Selection{OlderThanDays: days}
	sum, err := s.db.PurgeSummary(ctx, sel.store(s.now()))
	if err != nil || sum.Conversations == 0 {
		return &Result{Summary: sum}, err
	}
	return s.execute(ctx, ActorRetention, ActionRetention, sel)
}

// PurgeObjects deletes Foundry objects or blobs the admin picked, such as
// those Reconcile offered, through the outbox.
func (s *Service) PurgeObjects(ctx context.Context, actor string, objs []store.PurgeObject) (*Result, error) {
	for _, o := range objs {
		if o.Kind == store.OutboxConversation || o.Target == "" {
			return nil, fmt.Errorf("purge: cannot purge %s %q as an object", o.Kind, o.Target)
		}
	}
	id, err := s.db.StartPurge(ctx, store.PurgeStart{Actor: actor, Action: ActionPurgeObjects, Objects: objs,
		Details: map[string]any{"objects": len(objs)}})
	if err != nil {
		s.auditFailure(ctx, actor, ActionPurgeObjects, err)
		return nil, err
	}
	s.kick()
	return &Result{PurgeID: id}, nil
}

func (s *Service) execute(ctx context.Context, actor, action string, sel Selection) (*Result, error) {
	if err := sel.validate(); err != nil {
		return nil, err
	}
	res, err := s.queue(ctx, actor, action, sel)
	if err != nil {
		s.auditFailure(ctx, actor, action, err)
		return nil, err
	}
	s.kick()
	// The local rows go now, so the caller's next page no longer shows
	// them; should this fail or the process die, the worker does it later.
	if err := s.deleteLocal(ctx, res.PurgeID); err != nil {
		return res, err
	}
	return res, nil
}

// queue records the purge and its outbox entries; nothing is deleted yet.
func (s *Service) queue(ctx context.Context, actor, action string, sel Selection) (*Result, error) {
	ss := sel.store(s.now())
	res := &Result{}
	var err error
	if res.Summary, err = s.db.PurgeSummary(ctx, ss); err != nil {
		return nil, err
	}
	var objs []store.PurgeObject
	if sel.Orphans {
		err = s.orphans(ctx, func(o store.PurgeObject) {
			res.Orphans.add(o)
			objs = append(objs, o)
		})
		if err != nil {
			return nil, err
		}
	}
	res.PurgeID, err = s.db.StartPurge(ctx, store.PurgeStart{Actor: actor, Action: action, Selection: ss, Objects: objs,
		Details: details{Selection: sel, Before: ss.Before, Summary: res.Summary, Orphans: res.Orphans}})
	return res, err
}

// details is what the started audit entry records.
type details struct {
	Selection Selection          `json:"selection"`
	Before    time.Time          `json:"before,omitzero"`
	Summary   store.PurgeSummary `json:"summary"`
	Orphans   OrphanSummary      `json:"orphans,omitzero"`
}

// deleteLocal deletes the rows of a purge's conversations, batch by batch.
func (s *Service) deleteLocal(ctx context.Context, purgeID string) error {
	for {
		n, err := s.db.PurgeConversations(ctx, purgeID, s.batch)
		if err != nil || n == 0 {
			return err
		}
		if s.afterBatch != nil {
			s.afterBatch()
		}
	}
}

// auditFailure records a purge that could not be queued; the purge changed
// nothing, so there is nothing else to record.
func (s *Service) auditFailure(ctx context.Context, actor, action string, cause error) {
	if errors.Is(cause, context.Canceled) {
		return
	}
	d, _ := json.Marshal(map[string]string{"error": cause.Error()})
	err := s.db.AppendAudit(ctx, store.AuditEntry{Actor: actor, Action: action, Details: string(d), Outcome: store.AuditFailed})
	if err != nil {
		s.log.Error("purge: audit failure", "err", err, "cause", cause)
	}
}

// ActionRemoveFile is the audit action of an analyst removing an uploaded
// file from a conversation.
const ActionRemoveFile = "remove_file"

// RemoveFile removes one uploaded file of one of userID's conversations
// through the purge path: the row goes at once, its Foundry copy and its
// blob (unless still used) through the outbox. Another user's file is
// store.ErrNotFound, as a missing one.
func (s *Service) RemoveFile(ctx context.Context, userID, conversationID, fileID string) (store.RemovedFile, error) {
	removed, err := s.db.RemoveFile(ctx, userID, conversationID, fileID, ActionRemoveFile)
	if err != nil {
		return removed, err
	}
	s.kick()
	return removed, nil
}
