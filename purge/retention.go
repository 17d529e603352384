package purge

import (
	"context"

	"github.com/analyst-workbench/workbench/store"
)

// MaxRetentionDays bounds the retention period an administrator may set:
// a hundred years, as good as keeping everything.
const MaxRetentionDays = 36500

// RetentionError refuses a retention period out of bounds; its text is
// meant for the user.
type RetentionError struct{}

func (RetentionError) Error() string {
	return "Enter the retention as a whole number of days, 0 to keep everything."
}

// UserMessage returns the text for the user.
func (e RetentionError) UserMessage() string { return e.Error() }

// SetRetention sets the retention period, in days (0 keeps everything):
// conversations idle for longer are purged, here and in Foundry, by the
// hourly retention pass. actor is the administrator, for the audit log.
func (s *Service) SetRetention(ctx context.Context, actor string, days int) error {
	if days < 0 || days > MaxRetentionDays {
		return RetentionError{}
	}
	return s.db.SetIntSetting(ctx, store.SettingRetentionDays, days, actor)
}
