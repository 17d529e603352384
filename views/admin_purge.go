package views

import "time"

// PurgeForm is what the admin chose to purge.
type PurgeForm struct {
	OlderThanDays   string
	UserID          string
	ConversationIDs []string
	Orphans         bool
}

// PurgePlan is a dry run: what would be deleted here and in Foundry.
type PurgePlan struct {
	Form          PurgeForm
	Description   string
	Totals        []Stat
	Conversations []PurgeRow
	Remote        []PurgeObjectRow
	Empty         bool
}

// PurgeRow is one conversation of a preview.
type PurgeRow struct {
	Title, Username string
	UpdatedAt       time.Time
	Files           int64
	Bytes           int64
}

// PurgeObjectRow is one Foundry object or blob of a preview.
type PurgeObjectRow struct {
	Kind, Target string
	Bytes        int64
	// Value identifies the object in a form: kind|parent|target.
	Value string
}

// PurgeStatus is a purge that was queued, with its progress.
type PurgeStatus struct {
	ID                     string
	Pending, Done, Failing int64
	LastError              string
	Finished               bool
}

// AuditRow is one line of the audit log.
type AuditRow struct {
	At                     time.Time
	Actor, Action, Outcome string
	Details                string
}

// Reconcile lists what Foundry holds that no local row knows, and agent
// versions not in use.
type Reconcile struct {
	Files, Conversations, AgentVersions []PurgeObjectRow
	Error                               string
}
