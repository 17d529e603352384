package analyst

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestBeyondReplyDoesNotDenyWhatTheRulesDo is issue 40's minor: the reply to a forecast or a
// "why" said the rules do not fit models or cluster, which they do when asked by name; the help
// names them and the documents the engine reads.
func TestBeyondReplyDoesNotDenyWhatTheRulesDo(t *testing.T) {
	b, err := os.ReadFile("testdata/profiles/sales.csv.json")
	if err != nil {
		t.Fatal(err)
	}
	var p Profile
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	reply := makePlan("why did revenue drop in March?", nil, &p).Reply
	if !strings.Contains(reply, "beyond the built-in rules") || strings.Contains(reply, "fit models, cluster") ||
		!strings.Contains(reply, "k-means clusters") {
		t.Errorf("the why-question is declined as:\n%s", reply)
	}
	help := makePlan("what can you do?", nil, &p).Reply
	if !strings.Contains(help, "logistic regression") || !strings.Contains(help, "documents") {
		t.Errorf("the help leaves out models or documents:\n%s", help)
	}
}
