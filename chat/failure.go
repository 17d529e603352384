package chat

import (
	"errors"
	"strings"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/foundry"
)

// describeFailure turns a failed turn's error into what the user is told,
// following the troubleshooting cases of the Foundry documentation. The
// same refusal reads the same whether the service answered it over HTTP or
// reported it inside the stream (foundry.IsRateLimited and its kin look at
// both).
func describeFailure(err error, partial bool) string {
	kept := ""
	if partial {
		kept = " What was written before the failure is kept above."
	}
	var api *foundry.APIError
	var own *UserError
	var agent *AgentMisconfiguredError
	switch {
	case errors.As(err, &own):
		return own.Msg + kept
	case errors.As(err, &agent):
		said := strings.TrimRight(agent.State.Failure.String(), ". ")
		return "The agent is misconfigured: the agent service refused to set it up (" + said + "). " + seeAdmin + kept
	case isToolRefusal(err):
		return "The agent is misconfigured: it has no Code Interpreter tool, so the code written for this question was not run. " +
			seeAdmin + kept
	case foundry.IsContainerExpired(err):
		return "The Code Interpreter session expired during this answer, and a new one could not take over. Ask again: a new session starts with your files." + kept
	case foundry.IsRateLimited(err):
		// The hosted service's rate limit, or every local sandbox busy with
		// others' code past the wait limit: either way the question stays.
		return "The agent service is busy (rate limit reached, or every sandbox is running other analyses). Wait a minute, then send your question again: it is kept above." + kept
	case foundry.IsServerError(err):
		errors.As(err, &api)
		return "The agent service had an internal error" + requestID(api) + ". Ask again in a moment." + kept
	case foundry.IsConversationLocked(err):
		return "The agent service is still finishing an earlier answer in this conversation. Wait a few seconds, then ask again." + kept
	case errors.As(err, &api) && api.StatusCode == 0 && api.Code == "cancelled":
		return "The agent service cancelled this answer. Ask again." + kept
	case errors.As(err, &api) && strings.Contains(strings.ToLower(api.Code+api.Message), "file"):
		return "The agent service refused a file: " + api.Message + ". Check that the file type is supported, or upload it again." + kept
	case errors.As(err, &api):
		return "The agent service refused this question: " + api.Message + requestID(api) + "." + kept
	case errors.Is(err, foundry.ErrStreamEnded) || partial:
		// Anything else after the answer began streaming is a broken connection.
		return "The connection to the agent service broke before the answer was complete. Ask again." + kept
	default:
		return "The answer could not be completed because the agent service could not be reached. Check the engine status, then ask again." + kept
	}
}

// seeAdmin ends what an analyst is told of a misconfigured agent: they
// cannot fix it, and /admin shows the service's answer.
const seeAdmin = "An administrator can see why on /admin."

// isToolRefusal reports whether err is a response failed because the agent
// has no Code Interpreter tool (the local engine's code; see cellext).
func isToolRefusal(err error) bool {
	var api *foundry.APIError
	return errors.As(err, &api) && api.Code == cellext.CodeNoCodeInterpreter
}

func requestID(api *foundry.APIError) string {
	if api == nil || api.RequestID == "" {
		return ""
	}
	return " (request " + api.RequestID + ")"
}
