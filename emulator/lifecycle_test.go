package emulator

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestContainerExpiry checks the life of a conversation's container: it expires after 30 idle
// minutes; then its files are gone (404) and naming it explicitly is a 400. The conversation's
// next turn is a 400 too, as on the hosted service; the lenient emulator gives it a fresh
// container with the agent's files but none of the old state instead.
func TestContainerExpiry(t *testing.T) {
	for _, lenient := range []bool{false, true} {
		t.Run(map[bool]string{false: "hosted", true: "lenient"}[lenient], func(t *testing.T) {
			testContainerExpiry(t, lenient)
		})
	}
}

func testContainerExpiry(t *testing.T, lenient bool) {
	ts := newTestServer(t, func(c *Config) { c.Lenient = lenient })
	ts.createAgent("analyst")
	fileID := ts.upload("data.csv", "v\n7\n")
	conv := ts.json("POST", "/openai/v1/conversations", nil, 200)
	turn := func(code string) map[string]any {
		return ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"],
			"input": "```python\n" + code + "\n```", "structured_inputs": map[string]any{"f1": fileID},
			"include": []string{"code_interpreter_call.outputs"}}), 200)
	}
	first := turn("x = 1\nopen('/mnt/data/note.txt', 'w').write('hi')")
	oldID := get(first, "output", 0, "container_id").(string)
	ann := get(first, "output", 1, "content", 0, "annotations", 0)
	download := "/openai/v1/containers/" + oldID + "/files/" + get(ann, "file_id").(string) + "/content"
	if status, body := ts.do("GET", download, nil); status != 200 || string(body) != "hi" {
		t.Fatalf("download before expiry: %d %q", status, body)
	}

	ts.clock.Advance(29 * time.Minute)
	if got := ts.json("GET", "/openai/v1/containers/"+oldID, nil, 200); got["status"] != "active" {
		t.Fatalf("after 29 idle minutes: %v", got["status"])
	}
	ts.clock.Advance(2 * time.Minute)
	if got := ts.json("GET", "/openai/v1/containers/"+oldID, nil, 200); got["status"] != "expired" {
		t.Fatalf("after 31 idle minutes: %v", got["status"])
	}
	if status, body := ts.do("GET", download, nil); status != http.StatusNotFound || !strings.Contains(string(body), "expired") {
		t.Errorf("download after expiry: %d %s", status, body)
	}
	status, body := ts.do("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "```python\nprint(1)\n```",
		"tools": []any{map[string]any{"type": "code_interpreter", "container": oldID}}})
	if status != http.StatusBadRequest || !strings.Contains(string(body), `"message":"Container is expired."`) {
		t.Errorf("explicit expired container: %d %s", status, body)
	}

	if !lenient {
		status, body := ts.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"], "input": "hi"}))
		if status != http.StatusBadRequest || !strings.Contains(string(body), "Container is expired.") {
			t.Errorf("turn in the expired conversation: %d %s", status, body)
		}
		status, body = ts.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"previous_response_id": first["id"], "input": "hi"}))
		if status != http.StatusBadRequest || !strings.Contains(string(body), "Container is expired.") {
			t.Errorf("turn along the expired chain: %d %s", status, body)
		}
		return
	}
	second := turn("print(open('" + fileID + "-data.csv').read().strip())\nprint('x' in globals())")
	if newID := get(second, "output", 0, "container_id"); newID == oldID {
		t.Errorf("auto turn reused the expired container %s", oldID)
	}
	if logs := get(second, "output", 0, "outputs", 0, "logs"); logs != "v\n7\nFalse\n" {
		t.Errorf("fresh container logs %q, want the agent's file and no old state", logs)
	}
}

// TestContainerLifetime checks that an active container still expires an hour after creation.
func TestContainerLifetime(t *testing.T) {
	ts := newTestServer(t)
	c := ts.json("POST", "/openai/v1/containers", map[string]any{"name": "long"}, 200)
	id := c["id"].(string)
	if c["status"] != "active" || get(c, "expires_after", "minutes") != 30.0 {
		t.Errorf("created %v", c)
	}
	run := func() int {
		status, _ := ts.do("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "```python\npass\n```",
			"tools": []any{map[string]any{"type": "code_interpreter", "container": id}}})
		return status
	}
	for range 2 {
		ts.clock.Advance(29 * time.Minute)
		if status := run(); status != 200 {
			t.Fatalf("turn within the hour: %d", status)
		}
	}
	ts.clock.Advance(3 * time.Minute)
	if got := ts.json("GET", "/openai/v1/containers/"+id, nil, 200); got["status"] != "expired" {
		t.Errorf("61 minutes after creation: %v", got["status"])
	}
}

// TestRestart checks that agents, files, conversations, items and responses survive a restart
// of the emulator on the same data directory.
func TestRestart(t *testing.T) {
	dir := t.TempDir()
	before := newTestServerIn(t, dir)
	before.createAgent("keeper")
	fileID := before.upload("kept.csv", "k\n1\n")
	conv := before.json("POST", "/openai/v1/conversations", map[string]any{"metadata": map[string]string{"a": "b"}}, 200)
	resp := before.json("POST", "/openai/v1/responses", turnBody("keeper", map[string]any{"conversation": conv["id"], "input": "hi"}), 200)
	before.close()

	after := newTestServerIn(t, dir)
	if got := after.json("GET", "/agents/keeper?api-version=v1", nil, 200); get(got, "versions", "latest", "version") != "1" {
		t.Errorf("agent after restart: %v", got)
	}
	if status, body := after.do("GET", "/openai/v1/files/"+fileID+"/content", nil); status != 200 || string(body) != "k\n1\n" {
		t.Errorf("file after restart: %d %q", status, body)
	}
	if got := after.json("GET", "/openai/v1/conversations/"+conv["id"].(string), nil, 200); get(got, "metadata", "a") != "b" {
		t.Errorf("conversation after restart: %v", got)
	}
	items := after.json("GET", "/openai/v1/conversations/"+conv["id"].(string)+"/items", nil, 200)
	if n := len(items["data"].([]any)); n != 2 {
		t.Errorf("%d items after restart, want 2", n)
	}
	if got := after.json("GET", "/openai/v1/responses/"+resp["id"].(string), nil, 200); got["status"] != "completed" {
		t.Errorf("response after restart: %v", got["status"])
	}
	v2 := after.createAgent("keeper")
	if v2["version"] != "2" {
		t.Errorf("next version after restart %v, want 2", v2["version"])
	}
}

// TestSweepClosesIdleKernels checks that an idle container's kernel is closed in the
// background, without any request touching it.
func TestSweepClosesIdleKernels(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.IdleTimeout = 200 * time.Millisecond })
	c := ts.json("POST", "/openai/v1/containers", map[string]any{"name": "idle"}, 200)
	cont, _ := ts.srv.containers.get(c["id"].(string))
	ts.clock.Advance(time.Second)
	select {
	case <-cont.kernel.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the idle container's kernel is still running")
	}
	if got := ts.json("GET", "/openai/v1/containers/"+c["id"].(string), nil, 200); got["status"] != "expired" {
		t.Errorf("status %v", got["status"])
	}
}

// TestStreamReplayErrors checks the answers to a replay that cannot be served.
func TestStreamReplayErrors(t *testing.T) {
	ts := newTestServer(t)
	resp := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "hi"}, 200)
	id := resp["id"].(string)
	ts.srv.runs.remove(id) // as after keepRuns, or a restart
	for _, tt := range []struct {
		path       string
		wantStatus int
		wantBody   string
	}{
		{"/openai/v1/responses/" + id + "?stream=true", 400, "no longer available"},
		{"/openai/v1/responses/resp_nope?stream=true", 404, "not found"},
		{"/openai/v1/responses/" + id, 200, `"status":"completed"`},
	} {
		if status, body := ts.do("GET", tt.path, nil); status != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
			t.Errorf("GET %s: %d %s, want %d with %q", tt.path, status, body, tt.wantStatus, tt.wantBody)
		}
	}
}

// TestConversationRules checks two more hosted-service rules: a conversation's container does
// not survive a restart of the emulator, so its next turn is a 400 "Container is expired."; and
// a conversation runs one response at a time (400 conversation_locked while one runs).
func TestConversationRules(t *testing.T) {
	dir := t.TempDir()
	before := newTestServerIn(t, dir)
	before.createAgent("analyst")
	conv := before.json("POST", "/openai/v1/conversations", nil, 200)
	before.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"],
		"input": "```python\nx = 1\n```"}), 200)
	before.close()

	after := newTestServerIn(t, dir)
	status, body := after.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"], "input": "hi"}))
	if status != http.StatusBadRequest || !strings.Contains(string(body), "Container is expired.") {
		t.Errorf("turn after a restart: %d %s", status, body)
	}

	fresh := after.json("POST", "/openai/v1/conversations", nil, 200)
	slow := after.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": fresh["id"],
		"background": true, "input": "```python\nimport time\ntime.sleep(60)\n```"}), 200)
	status, body = after.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": fresh["id"], "input": "hi"}))
	if status != http.StatusBadRequest || !strings.Contains(string(body), `"code":"conversation_locked"`) {
		t.Errorf("second turn while one runs: %d %s", status, body)
	}
	after.json("POST", "/openai/v1/responses/"+slow["id"].(string)+"/cancel", nil, 200)

	// A background response must be stored, to be polled, resumed or cancelled.
	status, body = after.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"background": true, "store": false, "input": "hi"}))
	if status != http.StatusBadRequest || !strings.Contains(string(body), "store=true") {
		t.Errorf("background without store: %d %s", status, body)
	}

	// Turns that arrive together: exactly one runs, the others are locked out.
	racing := after.json("POST", "/openai/v1/conversations", nil, 200)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var won []string
	for range 8 {
		wg.Go(func() {
			status, body := after.do("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": racing["id"],
				"background": true, "input": "```python\nimport time\ntime.sleep(60)\n```"}))
			if status == http.StatusOK {
				var r map[string]any
				json.Unmarshal(body, &r)
				mu.Lock()
				won = append(won, r["id"].(string))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(won) != 1 {
		t.Errorf("%d of 8 turns sent at once ran in one conversation, want 1", len(won))
	}
	for _, id := range won {
		after.json("POST", "/openai/v1/responses/"+id+"/cancel", nil, 200)
	}
	if got := after.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": fresh["id"], "input": "hi"}), 200); got["status"] != "completed" {
		t.Errorf("turn after the cancel: %v", got["status"])
	}
}
