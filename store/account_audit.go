package store

import (
	"context"
	"encoding/json"
)

// Audit actions of account changes.
const (
	ActionUserCreate        = "user_create"
	ActionUserDisable       = "user_disable"
	ActionUserEnable        = "user_enable"
	ActionUserPasswordReset = "user_password_reset"
	ActionUserRoleChange    = "user_role_change"
)

// AccountAudit is the audit entry of a change to an account. The store
// writes it in the change's own transaction, so that no account changes
// without its record and no record tells of a change that failed.
type AccountAudit struct {
	// Actor is the user id of whoever made the change, or a name such as
	// "setup" for changes no signed-in user made; empty means the account
	// itself (the first administrator creating their own account).
	Actor, Action string
	// Details are extra facts, such as the new role; the account's id is
	// added as "user".
	Details map[string]any
}

// insertAccountAudit writes a (nil means none) for the account userID.
func insertAccountAudit(ctx context.Context, tx *txn, now int64, userID string, a *AccountAudit) error {
	if a == nil {
		return nil
	}
	d := map[string]any{"user": userID}
	for k, v := range a.Details {
		d[k] = v
	}
	details, err := json.Marshal(d)
	if err != nil {
		return err
	}
	actor := a.Actor
	if actor == "" {
		actor = userID
	}
	return insertAudit(ctx, tx, now, actor, a.Action, "", string(details), AuditCompleted)
}
