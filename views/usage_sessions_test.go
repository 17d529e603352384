package views

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSessionTimesInWords: the estimate reads to the minute in prose and in
// hours on the admin page, and a little time never reads as none.
func TestSessionTimesInWords(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		d                  time.Duration
		about, clock, hour string
	}{
		{0, "under a minute", "<1 min", "0"},
		{20 * time.Second, "under a minute", "<1 min", "<0.1"},
		{35 * time.Minute, "about 35 min", "35 min", "0.6"},
		{time.Hour, "about 1 h", "1 h", "1.0"},
		{70*time.Minute + 20*time.Second, "about 1 h 10 min", "1 h 10 min", "1.2"},
	} {
		if got := aboutDuration(tc.d); got != tc.about {
			t.Errorf("aboutDuration(%v) = %q, want %q", tc.d, got, tc.about)
		}
		if got := clockDuration(tc.d); got != tc.clock {
			t.Errorf("clockDuration(%v) = %q, want %q", tc.d, got, tc.clock)
		}
		if got := sessionHours(tc.d); got != tc.hour {
			t.Errorf("sessionHours(%v) = %q, want %q", tc.d, got, tc.hour)
		}
	}
}

// TestSessionUsageLine: one session is said in the singular, a live one
// "so far", and nothing is said before any code ran.
func TestSessionUsageLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		s    CodeSessions
		want string
	}{
		{CodeSessions{}, ""},
		{CodeSessions{Sessions: 1, Time: 35 * time.Minute}, "1 Code Interpreter session · about 35 min"},
		{CodeSessions{Sessions: 2, Live: true, Time: 70 * time.Minute}, "2 Code Interpreter sessions · about 1 h 10 min so far"},
	} {
		var b strings.Builder
		if err := sessionUsage(tc.s).Render(context.Background(), &b); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(stripTags(b.String())), " ")
		if text != tc.want {
			t.Errorf("%+v: %q, want %q", tc.s, text, tc.want)
		}
	}
}

// stripTags drops the markup of a fragment, leaving its text.
func stripTags(html string) string {
	var b strings.Builder
	in := false
	for _, r := range html {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
