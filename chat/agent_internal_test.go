package chat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/foundry"
)

// TestDescribeFailure_Misconfigured: a refused set-up and a turn refused
// for want of the Code Interpreter tool both tell the analyst the agent is
// misconfigured and that /admin says why, never that the service could not
// be reached.
func TestDescribeFailure_Misconfigured(t *testing.T) {
	t.Parallel()
	refused := &AgentMisconfiguredError{State: AgentState{Status: AgentFailed,
		Failure: &AgentFailure{HTTPStatus: 403, Code: "PermissionDenied", Message: "The principal lacks the Foundry User role"}}}
	noTool := fmt.Errorf("foundry: stream: %w", &foundry.APIError{Code: cellext.CodeNoCodeInterpreter, Message: "no tool"})
	for name, err := range map[string]error{"set-up refused": refused, "no tool": noTool} {
		got := describeFailure(err, false)
		if !strings.HasPrefix(got, "The agent is misconfigured: ") || !strings.Contains(got, seeAdmin) ||
			strings.Contains(got, "could not be reached") {
			t.Errorf("%s: %q", name, got)
		}
	}
	if got := describeFailure(refused, false); !strings.Contains(got, "403 PermissionDenied: The principal lacks the Foundry User role") {
		t.Errorf("the refusal's words leave out the service's answer: %q", got)
	}
}

// TestAgentFailureString: "<status> <code>: <message>", leaving out what
// is unknown.
func TestAgentFailureString(t *testing.T) {
	t.Parallel()
	for want, f := range map[string]AgentFailure{
		"400 invalid_model: no such model": {HTTPStatus: 400, Code: "invalid_model", Message: "no such model"},
		"401: expired token":               {HTTPStatus: 401, Message: "expired token"},
		"dial tcp: refused":                {Message: "dial tcp: refused"},
		"code_x: m":                        {Code: "code_x", Message: "m"},
	} {
		if got := f.String(); got != want {
			t.Errorf("%+v reads %q, want %q", f, got, want)
		}
	}
}
