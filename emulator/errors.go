package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/analyst-workbench/workbench/cellext"
)

// apiError is an error that reaches the client with its own status and body. The body follows
// the route family: Foundry-native routes answer {"error":{"code","message"}} plus the
// x-ms-error-code header; OpenAI-compatible routes answer {"error":{"message","type","param","code"}}.
type apiError struct {
	status  int
	code    string // empty renders as null on OpenAI routes
	message string
	param   string
	typ     string // OpenAI error type; defaults to invalid_request_error
	header  http.Header
}

// Error describes the error for logs.
func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.message) }

func errBadRequest(param, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, param: param, message: fmt.Sprintf(format, args...)}
}

func errNotFound(format string, args ...any) *apiError {
	return &apiError{status: http.StatusNotFound, code: "not_found", message: fmt.Sprintf(format, args...)}
}

// errMalformedJSON mirrors OpenAI's answer to a body that does not parse.
func errMalformedJSON(err error) *apiError {
	return &apiError{status: http.StatusBadRequest, code: "invalid_json",
		message: "We could not parse the JSON body of your request: " + err.Error()}
}

// errContainerExpired is OpenAI's answer when a turn continues on an expired container
// (foundry-api.md §8; the Foundry wording is UNCONFIRMED).
var errContainerExpired = &apiError{status: http.StatusBadRequest, message: "Container is expired."}

// errNoCodeInterpreter ends a turn whose planner wrote code for an agent without the
// code_interpreter tool: nothing may run. What the hosted service does then is UNCONFIRMED: its
// model, having no tool to call, most likely answers in prose, unable to compute anything. The
// emulator cannot write such prose, and an answer that looks computed would hide the
// misconfiguration, so it fails the response (response.failed) with noCodeInterpreterCode, an
// emulator code, and a message the app can show as it is. A turn that needs no code still
// answers.
var errNoCodeInterpreter = errors.New("the agent has no code_interpreter tool")

// noCodeInterpreterCode and noCodeInterpreterMessage are the error of a response refused by
// errNoCodeInterpreter.
const (
	noCodeInterpreterCode    = cellext.CodeNoCodeInterpreter
	noCodeInterpreterMessage = "The agent is misconfigured: it has no Code Interpreter tool (no code_interpreter in its " +
		"definition's tools), so the code written for this question was not run"
)

// errorBody is the JSON written for an apiError.
type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    *string `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
	Type    string  `json:"type,omitempty"`
}

// writeError renders err for the route family of r. Errors that are not apiErrors are internal:
// they are logged and the client gets a generic 500.
func (s *Server) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apiError
	if !errors.As(err, &ae) {
		s.log.Error("request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		ae = &apiError{status: http.StatusInternalServerError, code: "server_error", typ: "server_error",
			message: "The server had an error while processing your request."}
	} else if ae.status >= 500 {
		s.log.Warn("request failed", "method", r.Method, "path", r.URL.Path, "status", ae.status, "err", ae.message)
	}
	for k, v := range ae.header {
		w.Header()[k] = v
	}
	body := errorBody{Error: errorDetail{Message: ae.message}}
	if ae.code != "" {
		body.Error.Code = &ae.code
	}
	if isOpenAIRoute(r) {
		body.Error.Type = ae.typ
		if body.Error.Type == "" {
			body.Error.Type = "invalid_request_error"
		}
		if ae.param != "" {
			body.Error.Param = &ae.param
		}
	} else {
		code := ae.code
		if code == "" {
			code = http.StatusText(ae.status)
		}
		body.Error.Code = &code
		w.Header().Set("x-ms-error-code", code)
	}
	writeJSON(w, ae.status, body)
}

// isOpenAIRoute tells the OpenAI-compatible family (…/openai/…) from the Foundry-native one.
func isOpenAIRoute(r *http.Request) bool {
	return strings.Contains(r.URL.Path, "/openai/")
}

// writeJSON writes v with status; a failure to encode is a programming error worth a log line.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		slog.Error("emulator: encode response", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}
