package views

import (
	"fmt"
	"time"
)

// CodeSessions is how many Code Interpreter sessions something used and
// their estimated time (the store's rule: each lasts until 30 minutes after
// its last use, at most an hour).
type CodeSessions struct {
	Sessions int64
	// Live says whether one of them is still running its clock, so its
	// time is counted up to now.
	Live bool
	Time time.Duration
}

// sessionCount writes "1 Code Interpreter session", "2 Code Interpreter
// sessions".
func sessionCount(n int64) string {
	if n == 1 {
		return "1 Code Interpreter session"
	}
	return fmt.Sprintf("%d Code Interpreter sessions", n)
}

// aboutDuration writes an estimated time for prose: "about 25 min",
// "about 1 h 10 min"; under a minute is said as such.
func aboutDuration(d time.Duration) string {
	if d < 30*time.Second {
		return "under a minute"
	}
	return "about " + clockDuration(d)
}

// clockDuration writes a time to the minute: "<1 min", "25 min", "1 h",
// "1 h 10 min".
func clockDuration(d time.Duration) string {
	m := int64(d.Round(time.Minute) / time.Minute)
	switch {
	case m < 1:
		return "<1 min"
	case m < 60:
		return fmt.Sprintf("%d min", m)
	case m%60 == 0:
		return fmt.Sprintf("%d h", m/60)
	default:
		return fmt.Sprintf("%d h %d min", m/60, m%60)
	}
}

// sessionHours writes an estimated time in hours with one decimal, for the
// admin's columns: "0.6", "12.0"; a little time shows as "<0.1", not 0.
func sessionHours(d time.Duration) string {
	switch {
	case d <= 0:
		return "0"
	case d < 6*time.Minute:
		return "<0.1"
	default:
		return fmt.Sprintf("%.1f", d.Hours())
	}
}
