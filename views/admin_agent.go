package views

import (
	"strconv"
	"strings"
	"time"
)

// AgentState is where the set-up of the Foundry agent stands; handlers map
// chat's agent statuses onto these (views import nothing of chat).
type AgentState string

// The states the admin page shows of the agent.
const (
	// AgentNone is no agent configured: nothing is shown.
	AgentNone    AgentState = ""
	AgentPending AgentState = "pending"
	AgentReady   AgentState = "ready"
	AgentFailed  AgentState = "failed"
	AgentRemoved AgentState = "removed"
)

// AdminAgent is the Foundry agent as /admin shows it.
type AdminAgent struct {
	State                AgentState
	Name, Model, Version string
	// Failure is the service's answer to the latest try ("400 invalid_model:
	// …"), "" when it did not fail.
	Failure string
	// At is when the latest try ended.
	At time.Time
	// Retry is the wait before a refused set-up is tried again.
	Retry time.Duration
}

// AgentListing says how much the confirm step knows of the agent's versions.
type AgentListing string

// What listing the agent's versions in Foundry found.
const (
	AgentListed   AgentListing = "listed"
	AgentMissing  AgentListing = "missing"
	AgentUnlisted AgentListing = "unlisted"
)

// AgentDeletion is the confirm step of deleting the Foundry agent.
type AgentDeletion struct {
	Name     string
	Listing  AgentListing
	Versions []AgentVersionRow
	// ListError is why Foundry could not be listed, when AgentUnlisted.
	ListError string
}

// AgentVersionRow is one version of the agent that the deletion removes.
type AgentVersionRow struct {
	Version, Model string
	CreatedAt      time.Time
	InUse          bool
}

// sentence ends text with one full stop: a service's message may end with
// its own.
func sentence(text string) string {
	return strings.TrimRight(text, ". ") + "."
}

// everyMinutes says a wait as "every hour", "every 10 minutes", "every 30
// seconds".
func everyMinutes(d time.Duration) string {
	switch {
	case d <= 0:
		return "later"
	case d < time.Minute:
		return every(int(d.Seconds()), "second")
	case d%time.Hour == 0:
		return every(int(d.Hours()), "hour")
	}
	return every(int(d.Minutes()), "minute")
}

func every(n int, unit string) string {
	if n == 1 {
		return "every " + unit
	}
	return "every " + strconv.Itoa(n) + " " + unit + "s"
}
