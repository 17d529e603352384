package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestBadInput drives every kind of bad request and checks the status and the error body of
// the reference: {"error":{"code","message"}} on agents routes, OpenAI's
// {"error":{"message","type","param","code"}} on /openai routes.
func TestBadInput(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("known")
	tests := []struct {
		name        string
		method      string
		path        string
		body        any
		header      []string
		wantStatus  int
		wantCode    any // nil means JSON null
		wantMessage string
		wantParam   any
		wantType    string // "" for agents routes, which have none
	}{
		{name: "unknown route", method: "GET", path: "/nothing-here", wantStatus: 404,
			wantCode: "NotFound", wantMessage: "Resource not found: GET /api/projects/test/nothing-here"},
		{name: "wrong method", method: "PUT", path: "/openai/v1/files", wantStatus: 404,
			wantCode: "NotFound", wantMessage: "Resource not found: PUT", wantType: "invalid_request_error"},
		{name: "agents without api-version", method: "GET", path: "/agents", wantStatus: 400,
			wantCode: "MissingApiVersionParameter", wantMessage: "The api-version query parameter (?api-version=) is required for all requests."},
		{name: "preview surface without api-version", method: "GET", path: "/openai/conversations/x", wantStatus: 400,
			wantCode: "MissingApiVersionParameter", wantMessage: "api-version", wantParam: "api-version", wantType: "invalid_request_error"},
		{name: "malformed JSON, agents", method: "POST", path: "/agents?api-version=v1", body: "{not json", wantStatus: 400,
			wantCode: "invalid_json", wantMessage: "We could not parse the JSON body of your request"},
		{name: "malformed JSON, responses", method: "POST", path: "/openai/v1/responses", body: `{"input": [}`, wantStatus: 400,
			wantCode: "invalid_json", wantMessage: "We could not parse the JSON body", wantType: "invalid_request_error"},
		{name: "malformed JSON, conversations", method: "POST", path: "/openai/v1/conversations", body: `[1,2]`, wantStatus: 400,
			wantCode: "invalid_json", wantMessage: "We could not parse", wantType: "invalid_request_error"},
		{name: "unknown agent", method: "GET", path: "/agents/ghost?api-version=v1", wantStatus: 404,
			wantCode: "not_found", wantMessage: "Agent 'ghost' not found."},
		{name: "unknown agent version", method: "GET", path: "/agents/known/versions/9?api-version=v1", wantStatus: 404,
			wantCode: "not_found", wantMessage: "Agent 'known' version '9' not found."},
		{name: "response for unknown agent", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"agent_reference": map[string]any{"type": "agent_reference", "name": "ghost"}, "input": "hi"},
			wantStatus: 404, wantCode: "not_found", wantMessage: "Agent 'ghost' not found.", wantType: "invalid_request_error"},
		{name: "unknown conversation", method: "GET", path: "/openai/v1/conversations/conv_nope", wantStatus: 404,
			wantMessage: "Conversation with id 'conv_nope' not found.", wantParam: "conversation_id", wantType: "invalid_request_error"},
		{name: "response in unknown conversation", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"agent_reference": map[string]any{"name": "known"}, "conversation": map[string]any{"id": "conv_nope"}, "input": "hi"},
			wantStatus: 404, wantMessage: "Conversation with id 'conv_nope' not found.", wantParam: "conversation_id", wantType: "invalid_request_error"},
		{name: "unknown file", method: "GET", path: "/openai/v1/files/file-nope", wantStatus: 404,
			wantMessage: "No such File object: file-nope", wantParam: "file_id", wantType: "invalid_request_error"},
		{name: "response with unknown file in a slot", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"agent_reference": map[string]any{"name": "known"}, "structured_inputs": map[string]any{"f1": "file-nope"}, "input": "hi"},
			wantStatus: 404, wantMessage: "No such File object: file-nope", wantParam: "file_id", wantType: "invalid_request_error"},
		{name: "unknown container", method: "GET", path: "/openai/v1/containers/cntr_nope/files", wantStatus: 404,
			wantMessage: "Container with id 'cntr_nope' not found.", wantParam: "container_id", wantType: "invalid_request_error"},
		{name: "response naming an unknown container", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"model": "m", "input": "hi", "tools": []any{map[string]any{"type": "code_interpreter", "container": "cntr_nope"}}},
			wantStatus: 404, wantMessage: "Container with id 'cntr_nope' not found.", wantParam: "container_id", wantType: "invalid_request_error"},
		{name: "bad tool container", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"model": "m", "input": "hi", "tools": []any{map[string]any{"type": "code_interpreter", "container": map[string]any{"type": "fixed"}}}},
			wantStatus: 400, wantMessage: "Invalid container", wantParam: "tools[0].container", wantType: "invalid_request_error"},
		{name: "unknown response", method: "GET", path: "/openai/v1/responses/resp_nope", wantStatus: 404,
			wantMessage: "Response with id 'resp_nope' not found.", wantParam: "response_id", wantType: "invalid_request_error"},
		{name: "conversation and previous_response_id", method: "POST", path: "/openai/v1/responses",
			body:       map[string]any{"agent_reference": map[string]any{"name": "known"}, "conversation": "conv_x", "previous_response_id": "resp_y", "input": "hi"},
			wantStatus: 400, wantMessage: "Mutually exclusive parameters", wantParam: "conversation", wantType: "invalid_request_error"},
		{name: "response without agent or model", method: "POST", path: "/openai/v1/responses", body: map[string]any{"input": "hi"},
			wantStatus: 400, wantMessage: "Missing required parameter: 'model'", wantParam: "model", wantType: "invalid_request_error"},
		{name: "agent without model", method: "POST", path: "/agents/a/versions?api-version=v1",
			body: map[string]any{"definition": map[string]any{"kind": "prompt"}}, wantStatus: 400,
			wantCode: "Bad Request", wantMessage: "Missing required parameter: 'definition.model'."},
		{name: "bad limit", method: "GET", path: "/openai/v1/conversations?limit=0", wantStatus: 400,
			wantMessage: "Invalid 'limit'", wantParam: "limit", wantType: "invalid_request_error"},
		{name: "no token", method: "GET", path: "/openai/v1/files", header: []string{"Authorization", ""}, wantStatus: 401,
			wantCode: "Unauthorized", wantMessage: "Access denied", wantType: "invalid_request_error"},
		{name: "wrong token", method: "GET", path: "/agents?api-version=v1", header: []string{"Authorization", "Bearer nope"},
			wantStatus: 401, wantCode: "Unauthorized", wantMessage: "Access denied"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.do(tt.method, tt.path, tt.body, tt.header...)
			if status != tt.wantStatus {
				t.Fatalf("got status %d, want %d; body %s", status, tt.wantStatus, body)
			}
			var got struct {
				Error map[string]any `json:"error"`
			}
			if err := json.Unmarshal(body, &got); err != nil || got.Error == nil {
				t.Fatalf("body %s is not an error object: %v", body, err)
			}
			if got.Error["code"] != tt.wantCode {
				t.Errorf("got code %v, want %v", got.Error["code"], tt.wantCode)
			}
			if msg, _ := got.Error["message"].(string); !strings.Contains(msg, tt.wantMessage) {
				t.Errorf("got message %q, want it to contain %q", msg, tt.wantMessage)
			}
			if tt.wantType == "" {
				return
			}
			if got.Error["type"] != tt.wantType {
				t.Errorf("got type %v, want %v", got.Error["type"], tt.wantType)
			}
			if _, ok := got.Error["param"]; !ok || got.Error["param"] != tt.wantParam {
				t.Errorf("got param %v (present %v), want %v", got.Error["param"], ok, tt.wantParam)
			}
		})
	}
}

// TestUnauthorizedHeader checks the challenge header of a 401 and the Foundry error code header.
func TestUnauthorizedHeader(t *testing.T) {
	ts := newTestServer(t)
	resp := ts.send("GET", "/agents?api-version=v1", nil, "Authorization", "Basic xyz")
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != "Bearer" ||
		resp.Header.Get("x-ms-error-code") != "Unauthorized" {
		t.Errorf("got %d, WWW-Authenticate %q, x-ms-error-code %q", resp.StatusCode,
			resp.Header.Get("WWW-Authenticate"), resp.Header.Get("x-ms-error-code"))
	}
	resp = ts.send("GET", "/openai/v1/files", nil, "Authorization", "", "api-key", testToken)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("api-key header: got %d, want 200", resp.StatusCode)
	}
}
