package sandbox

import (
	"testing"
	"time"
)

// TestDefaults_OneTable: a zero Config takes every value Defaults gives,
// a negative one is unset too, and a value set is kept.
func TestDefaults_OneTable(t *testing.T) {
	t.Parallel()
	got, d := Config{}.withDefaults(), Defaults()
	if got.IdleTimeout != d.IdleTimeout || got.Lifetime != d.Lifetime || got.DataBytes != d.DataBytes || got.CPUs != d.CPUs ||
		got.Python != d.Python || got.Isolation != d.Isolation || got.MaxFigures != d.MaxFigures || got.SelfTestTimeout != d.SelfTestTimeout {
		t.Errorf("zero config took %+v", got)
	}
	set := Config{CellTimeout: 7 * time.Second, Processes: -1, CPUs: 2.5, Python: "/opt/py"}.withDefaults()
	if set.CellTimeout != 7*time.Second || set.Processes != d.Processes || set.CPUs != 2.5 || set.Python != "/opt/py" {
		t.Errorf("set config became %+v", set)
	}
	if got.Warm != 2 || !got.warmDefaulted || got.MaxWarm != defaultMaxWarm || got.RefillParallel <= 0 || got.Logger == nil {
		t.Errorf("the values worked out at start: warm %d/%d, refill %d", got.Warm, got.MaxWarm, got.RefillParallel)
	}
}
