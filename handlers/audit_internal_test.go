package handlers

import (
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

// TestAuditViewNamesPeople shows an audit entry for people: the actor and
// a user in its details by name, the details as words, not JSON; the
// retention job, which is no user, as it is.
func TestAuditViewNamesPeople(t *testing.T) {
	names := map[string]string{"u1": "alice", "u2": "bob"}
	rows := auditView([]store.AuditEntry{
		{At: time.Now(), Actor: "u1", Action: "share_revoke", Details: `{"share_id":"s9","owner":"u2","anyone":true}`},
		{At: time.Now(), Actor: "retention", Action: "retention", Details: `{}`},
	}, names)
	if rows[0].Actor != "alice" || rows[0].Details != "anyone: true · owner: bob · share id: s9" {
		t.Errorf("row 0: %q, %q", rows[0].Actor, rows[0].Details)
	}
	if rows[1].Actor != "retention" || rows[1].Details != "" {
		t.Errorf("row 1: %q, %q", rows[1].Actor, rows[1].Details)
	}
}
