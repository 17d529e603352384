package chat

import (
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// TestAnswerSummary_Bounded: an earlier answer is summarised with its text,
// its code and the files it made, each cut to a bounded length.
func TestAnswerSummary_Bounded(t *testing.T) {
	a := &Answer{Text: strings.Repeat("word ", 1000), Artifacts: []ArtifactRef{{Name: "chart.png"}}}
	for range 5 {
		a.Cells = append(a.Cells, &Cell{Code: strings.Repeat("x = 1\n", 200)})
	}
	got := answerSummary(a, &store.Run{})
	if n := len([]rune(got)); n > seedAnswerRunes+seedCellsPerTurn*(seedCodeRunes+40)+200 {
		t.Errorf("summary of %d runes", n)
	}
	if strings.Count(got, "```python") != seedCellsPerTurn || !strings.Contains(got, "chart.png") || !strings.Contains(got, "[…]") {
		t.Errorf("summary:\n%s", got)
	}
	if got := answerSummary(&Answer{}, &store.Run{Error: "The agent service is busy."}); !strings.Contains(got, "No answer: The agent service is busy.") {
		t.Errorf("failed turn: %q", got)
	}
	if seedTurns*2+1 > foundry.MaxSeedItems {
		t.Errorf("%d turns make %d seed items, more than the %d a conversation starts with", seedTurns, seedTurns*2+1, foundry.MaxSeedItems)
	}
}
