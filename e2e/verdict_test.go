package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// richCSV is a few people ranked by wealth, in the shape of DataBench's Forbes table.
const richCSV = "rank,personName,age,finalWorth,category,selfMade,gender\n" +
	"1,Ana Ruiz,51,219000,Automotive,True,F\n2,Ben Okafor,59,171000,Technology,True,M\n" +
	"3,Chen Wei,92,118000,Fashion & Retail,False,M\n4,Dana Berg,19,4000,Technology,False,F\n" +
	"5,Eli Novak,67,107000,Technology,True,M\n"

// TestYesNoAnswerOpensWithTheVerdict asks yes/no and ranked questions the way others write them
// and reads the answer in the page: the verdict or the value first, then what it was of.
func TestYesNoAnswerOpensWithTheVerdict(t *testing.T) {
	srv := startServer(t, "ADMIN_USERNAME=ops", "ADMIN_PASSWORD="+adminPassword)
	ctx := newBrowser(t)
	signInNewConversation(t, ctx, srv)
	upload(t, ctx, writeFile(t, t.TempDir(), "forbes.csv", richCSV))

	askAndWait(t, ctx, "Is the person with the highest net worth self-made?", "Yes.")
	first := js[string](t, ctx, `[...document.querySelectorAll('#messages .answer')].pop().querySelector('.answer-text, .prose, p')?.textContent || ''`)
	if !strings.HasPrefix(strings.TrimSpace(first), "Yes.") {
		t.Errorf("the answer opens with %q, want the verdict first", first)
	}
	askAndWait(t, ctx, "Which category does the youngest billionaire belong to?", "Technology")
	askAndWait(t, ctx, "List the top 2 categories with the most billionaires.", "Technology")
	if dir := os.Getenv("E2E_SCREENSHOTS"); dir != "" {
		shoot(t, ctx, filepath.Join(dir, "verdict.png"))
	}
}
