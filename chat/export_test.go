package chat

import "time"

// SetCopyOutBackoff shortens the copy-out retry pause for tests.
func SetCopyOutBackoff(d time.Duration) { copyOutBackoff = d }
