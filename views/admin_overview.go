package views

import "time"

// AdminOverview is the admin's view of everything stored here and in Foundry.
type AdminOverview struct {
	Totals        []Stat
	SessionsToday int64
	SessionDays   []DayBar
	Users         []AdminUsage
	// CodeSessions counts Code Interpreter sessions per user and conversation.
	CodeSessions  AdminSessions
	Conversations []AdminConversationRow
	Files         []AdminFileRow
	// Filter is what the lists are narrowed to.
	FilterUser, FilterQuery string
	UserOptions             []AdminUser
	Audit                   []AuditRow
	// Shares are the live read-only links of every user.
	Shares        []AdminShareRow
	RetentionDays int
	// Sandbox is the local engine's sandbox; nil on Foundry.
	Sandbox *SandboxCard
	// Packages lists what the Code Interpreter's Python has installed.
	Packages PackagesCard
	// Agent is the Foundry agent and how its set-up went.
	Agent AdminAgent
}

// SandboxCard shows the local engine's memory budget and its kernels.
type SandboxCard struct {
	Budget, Used, KernelSize string // sizes, formatted
	Template                 string // the template kernels fork from, formatted; "" when they do not fork
	UsedPct                  int
	Capacity                 int
	Live, Busy, Idle         int
	Evicted, Queued, Ready   int
	WarmGoal                 int // warm kernels the pool keeps now: its floor, or more after a rush
	Evictions, Restores      int64
	QueuedTotal, Refused     int64
}

// Stat is one total with its label.
type Stat struct {
	Label, Value, Hint string
}

// DayBar is one day of the sessions chart; Pct is its height in percent.
type DayBar struct {
	Day   time.Time
	Count int64
	Pct   int
}

// AdminUsage is one user's usage.
type AdminUsage struct {
	Username, Role       string
	Disabled             bool
	Conversations, Files int64
	StoredBytes, Tokens  int64
	LastActive           time.Time
}

// AdminConversationRow is a conversation of any user.
type AdminConversationRow struct {
	ID, Title, Username, FoundryID, ContainerID string
	Files, StoredBytes                          int64
	UpdatedAt                                   time.Time
}

// AdminFileRow is an uploaded file of any user.
type AdminFileRow struct {
	Name, Username, Conversation, FoundryID string
	Size                                    int64
	CreatedAt                               time.Time
}
