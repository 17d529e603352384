package purge_test

import (
	"context"
	"errors"
	"testing"

	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// TestSetRetention: 0 to 36,500 days is kept as the setting; anything else
// is refused with a message for the user and changes nothing.
func TestSetRetention(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	admin, _ := e.db.CreateUser(ctx, "root", "h", store.RoleAdmin, nil)
	if err := e.svc.SetRetention(ctx, admin.ID, 90); err != nil {
		t.Fatal(err)
	}
	for _, days := range []int{-1, purge.MaxRetentionDays + 1} {
		if err := e.svc.SetRetention(ctx, admin.ID, days); !errors.As(err, new(purge.RetentionError)) {
			t.Errorf("%d days: %v", days, err)
		}
	}
	if got, _ := e.db.IntSetting(ctx, store.SettingRetentionDays, 0); got != 90 {
		t.Errorf("retention %d days, want 90", got)
	}
}
