package views

import (
	"testing"
	"time"
)

func TestEveryMinutes(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		10 * time.Minute: "every 10 minutes", time.Hour: "every hour", 2 * time.Hour: "every 2 hours",
		time.Minute: "every minute", 30 * time.Second: "every 30 seconds", 90 * time.Minute: "every 90 minutes",
	} {
		if got := everyMinutes(d); got != want {
			t.Errorf("everyMinutes(%s) = %q, want %q", d, got, want)
		}
	}
}
