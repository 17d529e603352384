package emulator

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestAgentVersion_DeploymentRefused: with the deployments it serves named,
// the emulator refuses an agent version for a model it does not serve, and
// the code_interpreter tool for a model that cannot run it, with a 400 in
// the agents routes' error shape; the same model without the tool, and a
// served model with it, are accepted.
func TestAgentVersion_DeploymentRefused(t *testing.T) {
	ts := newTestServer(t, func(c *Config) {
		c.Deployments = []string{"local", "old-model"}
		c.WithoutCodeInterpreter = []string{"old-model"}
	})
	ci := []any{map[string]any{"type": "code_interpreter"}}
	for _, tc := range []struct {
		model      string
		tools      []any
		wantStatus int
		wantCode   string
		wantWords  string
	}{
		{"gpt-nope", ci, http.StatusBadRequest, "invalid_model", "'gpt-nope' was not found"},
		{"old-model", ci, http.StatusBadRequest, noCodeInterpreterCode, "does not support the code_interpreter tool"},
		{"old-model", []any{}, http.StatusOK, "", ""},
		{"LOCAL", ci, http.StatusOK, "", ""},
	} {
		resp := ts.send("POST", "/agents/a/versions?api-version=v1", map[string]any{
			"definition": map[string]any{"kind": "prompt", "model": tc.model, "tools": tc.tools}})
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.wantStatus {
			t.Errorf("%s: status %d, want %d; body %s", tc.model, resp.StatusCode, tc.wantStatus, data)
			continue
		}
		if tc.wantCode == "" {
			continue
		}
		var body struct {
			Error struct{ Code, Message string }
		}
		if err := json.Unmarshal(data, &body); err != nil {
			t.Fatalf("%s: body %s: %v", tc.model, data, err)
		}
		if body.Error.Code != tc.wantCode || !strings.Contains(body.Error.Message, tc.wantWords) ||
			resp.Header.Get("x-ms-error-code") != tc.wantCode {
			t.Errorf("%s: error %+v (x-ms-error-code %q), want code %s saying %q", tc.model, body.Error,
				resp.Header.Get("x-ms-error-code"), tc.wantCode, tc.wantWords)
		}
	}
}

// TestAgentVersion_AnyModelByDefault: without Deployments the emulator
// serves any model, as SDK samples expect.
func TestAgentVersion_AnyModelByDefault(t *testing.T) {
	ts := newTestServer(t)
	ts.json("POST", "/agents/a/versions?api-version=v1", map[string]any{
		"definition": map[string]any{"kind": "prompt", "model": "whatever-they-deployed",
			"tools": []any{map[string]any{"type": "code_interpreter"}}}}, http.StatusOK)
}
