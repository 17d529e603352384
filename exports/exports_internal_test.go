package exports

import (
	"testing"

	"github.com/analyst-workbench/workbench/report"
)

// within keeps the charts that fit, in order, and empties the rest, so an
// export names a chart it could not hold instead of holding everything.
func TestWithinKeepsWhatFits(t *testing.T) {
	t.Parallel()
	l := &layout{budget: 10}
	got := l.within([]report.Image{{Name: "a", PNG: make([]byte, 6)}, {Name: "b", PNG: make([]byte, 6)}, {Name: "c", PNG: make([]byte, 4)}})
	if got[0].PNG == nil || got[1].PNG != nil || got[2].PNG == nil || l.budget != 0 {
		t.Fatalf("kept a=%v b=%v c=%v, budget left %d; want a and c, 0 left", got[0].PNG != nil, got[1].PNG != nil, got[2].PNG != nil, l.budget)
	}
}
