package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestUpload_Purpose: an upload whose purpose is not "assistants" is refused
// with an OpenAI-shaped 400 that names the purpose it had.
func TestUpload_Purpose(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		purpose    string
		wantStatus int
		wantBody   []string
	}{
		{"assistants", 200, []string{`"purpose":"assistants"`}},
		{"batch", 400, []string{`"code":"invalid_value"`, `"param":"purpose"`, `\"batch\"`, `"type":"invalid_request_error"`}},
		{"fine-tune", 400, []string{`\"fine-tune\"`}},
		{"", 400, []string{`"param":"purpose"`, "Missing required parameter"}},
	}
	for _, tt := range tests {
		status, body := ts.uploadRaw("sales.csv", "a,b\n1,2\n", tt.purpose)
		if status != tt.wantStatus {
			t.Errorf("purpose %q: status %d, want %d: %s", tt.purpose, status, tt.wantStatus, body)
		}
		for _, want := range tt.wantBody {
			if !strings.Contains(string(body), want) {
				t.Errorf("purpose %q: body %s lacks %s", tt.purpose, body, want)
			}
		}
	}
}

// TestUpload_FileTypes: the article's types and the tolerated ones are
// accepted; a name with no extension, or one of no known type, is not.
func TestUpload_FileTypes(t *testing.T) {
	ts := newTestServer(t)
	for _, name := range []string{"app.ts", "deck.pptx", "Q3.TSV", "old.xls", "t.parquet", "run.sh"} {
		if status, body := ts.uploadRaw(name, "x", "assistants"); status != 200 {
			t.Errorf("%s: status %d: %s", name, status, body)
		}
	}
	for _, name := range []string{"README", "tool.exe", "data.tar.gz"} {
		status, body := ts.uploadRaw(name, "x", "assistants")
		if status != 400 || !strings.Contains(string(body), `"code":"unsupported_file"`) {
			t.Errorf("%s: got %d %s, want 400 unsupported_file", name, status, body)
		}
	}
}

// createAgentWithTools makes agent name with the given tools and no slots.
func (ts *testServer) createAgentWithTools(name string, tools []any, wantStatus int) map[string]any {
	ts.t.Helper()
	return ts.json("POST", "/agents/"+name+"/versions?api-version=v1", map[string]any{
		"definition": map[string]any{"kind": "prompt", "model": "local", "tools": tools}}, wantStatus)
}

// TestResponse_NoCodeInterpreter: an agent without the code_interpreter
// tool runs no code: the response fails with an error saying the agent is
// misconfigured, and no container (so no kernel) comes to be. A question
// that needs no code still gets its answer.
func TestResponse_NoCodeInterpreter(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgentWithTools("talker", []any{}, http.StatusOK)
	events := ts.stream(turnBody("talker", map[string]any{
		"input": "Write it down.\n```python\nopen('/mnt/data/ran.txt', 'w').write('ran')\n```"}))
	last := events[len(events)-1]
	resp := lastResponse(t, events)
	if last.Name != "response.failed" || get(resp, "error", "code") != noCodeInterpreterCode ||
		!strings.Contains(get(resp, "error", "message").(string), "no Code Interpreter tool") {
		t.Fatalf("ended with %s, error %v; want response.failed saying the agent has no Code Interpreter tool", last.Name, resp["error"])
	}
	for _, e := range events {
		if strings.Contains(e.Name, "code_interpreter") {
			t.Errorf("event %s: a cell was started", e.Name)
		}
	}
	if list := ts.json("GET", "/openai/v1/containers", nil, http.StatusOK); len(list["data"].([]any)) != 0 {
		t.Errorf("containers %v: a kernel was started for an agent without the tool", list["data"])
	}
	plain := lastResponse(t, ts.stream(turnBody("talker", map[string]any{"input": "Hello there"})))
	if plain["status"] != "completed" {
		t.Errorf("a question with no code: status %v, error %v", plain["status"], plain["error"])
	}
}

// TestContainers_MemoryLimit: a container reports the size it was asked
// for, the service's default 1g when none, and an unknown size is a 400.
func TestContainers_MemoryLimit(t *testing.T) {
	ts := newTestServer(t)
	for asked, want := range map[string]string{"4g": "4g", "": "1g"} {
		body := map[string]any{"name": "c"}
		if asked != "" {
			body["memory_limit"] = asked
		}
		c := ts.json("POST", "/openai/v1/containers", body, http.StatusOK)
		if c["memory_limit"] != want {
			t.Errorf("asked %q: memory_limit %v, want %s", asked, c["memory_limit"], want)
		}
		if got := ts.json("GET", "/openai/v1/containers/"+c["id"].(string), nil, http.StatusOK); got["memory_limit"] != want {
			t.Errorf("asked %q: GET shows memory_limit %v, want %s", asked, got["memory_limit"], want)
		}
	}
	status, body := ts.do("POST", "/openai/v1/containers", map[string]any{"name": "c", "memory_limit": "2g"})
	if status != 400 || !strings.Contains(string(body), `"param":"memory_limit"`) || !strings.Contains(string(body), `\"2g\"`) {
		t.Errorf("memory_limit 2g: %d %s, want a 400 naming it", status, body)
	}
}

// memoryProbe prints the kernel's address-space limit, then whether it
// can map 1 GiB more: a kernel already holds about 450 MiB, so under 1g it
// cannot, while under the sandbox's default 2 GiB it can.
const memoryProbe = "```python\nimport resource\nprint(resource.getrlimit(resource.RLIMIT_AS)[0])\n" +
	"try:\n    probe = bytearray(1 << 30)\n    print('allocated')\nexcept MemoryError:\n    print('MemoryError')\n```"

// TestAgent_MemoryLimitSizesTheKernel: the memory_limit of an agent's
// container is the kernel's memory, capped by what the sandbox gives any
// kernel (2 GiB by default); the container reports the size asked; an
// agent asking for an unknown size is refused when it is created.
func TestAgent_MemoryLimitSizesTheKernel(t *testing.T) {
	ts := newTestServer(t)
	withLimit := func(limit string) []any {
		container := map[string]any{"type": "auto"}
		if limit != "" {
			container["memory_limit"] = limit
		}
		return []any{map[string]any{"type": "code_interpreter", "container": container}}
	}
	tests := []struct {
		limit, wantReported, wantLogs string
	}{
		{"1g", "1g", "1073741824\nMemoryError\n"},
		{"4g", "4g", "2147483648\nallocated\n"}, // capped by the sandbox's 2 GiB a kernel
		{"", "1g", "2147483648\nallocated\n"},   // none asked: the kernel keeps the sandbox's size
	}
	for _, tt := range tests {
		name := "sized-" + tt.limit
		ts.createAgentWithTools(name, withLimit(tt.limit), http.StatusOK)
		resp := lastResponse(t, ts.stream(turnBody(name, map[string]any{"input": memoryProbe,
			"include": []string{"code_interpreter_call.outputs"}})))
		if got := get(resp, "output", 0, "outputs", 0, "logs"); got != tt.wantLogs {
			t.Errorf("memory_limit %q: the cell printed %q, want %q", tt.limit, got, tt.wantLogs)
		}
		cid, _ := get(resp, "output", 0, "container_id").(string)
		if c := ts.json("GET", "/openai/v1/containers/"+cid, nil, http.StatusOK); c["memory_limit"] != tt.wantReported {
			t.Errorf("memory_limit %q: the container reports %v, want %s", tt.limit, c["memory_limit"], tt.wantReported)
		}
	}
	body := ts.createAgentWithTools("oversized", withLimit("3g"), http.StatusBadRequest)
	if get(body, "error", "message") == nil || !strings.Contains(get(body, "error", "message").(string), `"3g"`) {
		t.Errorf("memory_limit 3g: %v, want a 400 naming it", body)
	}
}
