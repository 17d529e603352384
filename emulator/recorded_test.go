package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// The emulator as the recordings show the hosted service (see
// shared/reference/foundry-recorded.md and foundry/testdata/recorded).

// figureCode shows one figure (left open, as the recorded turn did) and
// saves another chart.
const figureCode = "```python\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n" +
	"plt.plot([1, 2, 3])\nplt.savefig('/mnt/data/line.png')\n```"

// TestShownFigureCitedAtZero: a figure the cell showed is an image output
// and a container file cfile_….png cited at 0..0, before the saved chart's
// citation; the file downloads.
func TestShownFigureCitedAtZero(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	resp := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"input": figureCode,
		"include": []string{"code_interpreter_call.outputs"}}), http.StatusOK)
	call := get(resp, "output", 0).(map[string]any)
	if get(call, "outputs", 0, "type") != "image" {
		t.Fatalf("outputs %v, want the shown figure as an image", call["outputs"])
	}
	anns, _ := get(resp, "output", 1, "content", 0, "annotations").([]any)
	if len(anns) != 2 {
		t.Fatalf("annotations %v, want the figure's and the saved chart's", anns)
	}
	fig := anns[0].(map[string]any)
	id, _ := fig["file_id"].(string)
	if !strings.HasPrefix(id, "cfile_") || fig["filename"] != id+".png" || fig["start_index"] != 0.0 || fig["end_index"] != 0.0 {
		t.Errorf("figure citation %v, want 0..0 naming cfile_….png after its id", fig)
	}
	if anns[1].(map[string]any)["filename"] != "line.png" {
		t.Errorf("second citation %v, want the saved line.png", anns[1])
	}
	status, body := ts.do("GET", "/openai/v1/containers/"+call["container_id"].(string)+"/files/"+id+"/content", nil)
	if status != http.StatusOK || !strings.HasPrefix(string(body), "\x89PNG") {
		t.Errorf("figure download: %d, %d bytes", status, len(body))
	}
	text, _ := get(resp, "output", 1, "content", 0, "text").(string)
	if strings.Contains(text, id) {
		t.Errorf("the figure file is listed in the text %q; it is cited only", text)
	}
}

// TestMetadataLimits: 16 pairs, 64-character keys, 512-character values, on
// conversations, responses and agent versions alike.
func TestMetadataLimits(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	many := map[string]string{}
	for i := range 17 {
		many["k"+strings.Repeat("x", i)] = "v"
	}
	tests := []struct {
		name string
		md   map[string]string
		ok   bool
	}{
		{"at the limits", map[string]string{strings.Repeat("k", 64): strings.Repeat("v", 512)}, true},
		{"17 pairs", many, false},
		{"65-character key", map[string]string{strings.Repeat("k", 65): "v"}, false},
		{"513-character value", map[string]string{"k": strings.Repeat("v", 513)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			requests := map[string]struct {
				path string
				body map[string]any
			}{
				"conversation":  {"/openai/v1/conversations", map[string]any{"metadata": tt.md}},
				"response":      {"/openai/v1/responses", turnBody("analyst", map[string]any{"input": "hi", "metadata": tt.md})},
				"agent version": {"/agents/analyst/versions?api-version=v1", agentBody(tt.md)},
			}
			for what, rq := range requests {
				status, body := ts.do("POST", rq.path, rq.body)
				if ok := status == http.StatusOK; ok != tt.ok || !ok && (status != http.StatusBadRequest || !strings.Contains(string(body), "metadata")) {
					t.Errorf("%s: %d %s", what, status, body)
				}
			}
		})
	}
}

func agentBody(md map[string]string) map[string]any {
	return map[string]any{"metadata": md, "definition": map[string]any{"kind": "prompt", "model": "local", "instructions": "x"}}
}

// sleepyCode runs until the turn is cancelled.
const sleepyCode = "```python\nimport time\ntime.sleep(120)\n```"

// TestInFlightResponseListed: a running background response is in the
// conversation's list, with its metadata, before it is stored; once
// cancelled it is listed once.
func TestInFlightResponseListed(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	conv := ts.json("POST", "/openai/v1/conversations", map[string]any{}, http.StatusOK)["id"].(string)
	resp := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv,
		"input": sleepyCode, "background": true, "metadata": map[string]string{"request_key": "k1"}}), http.StatusOK)
	id := resp["id"].(string)
	list := ts.json("GET", "/openai/v1/responses?conversation_id="+conv+"&order=desc", nil, http.StatusOK)
	data, _ := list["data"].([]any)
	if len(data) != 1 || get(data[0], "id") != id || get(data[0], "metadata", "request_key") != "k1" {
		t.Fatalf("list while running: %v", list)
	}
	if st := get(data[0], "status"); st != "in_progress" && st != "queued" {
		t.Errorf("listed with status %v", st)
	}
	other := ts.json("GET", "/openai/v1/responses?conversation_id=conv_other", nil, http.StatusOK)
	if n := len(other["data"].([]any)); n != 0 {
		t.Errorf("another conversation lists %d responses", n)
	}
	ts.json("POST", "/openai/v1/responses/"+id+"/cancel", nil, http.StatusOK)
	list = ts.json("GET", "/openai/v1/responses?conversation_id="+conv, nil, http.StatusOK)
	if data := list["data"].([]any); len(data) != 1 || get(data[0], "status") != "cancelled" {
		t.Errorf("list after the cancel: %v", list)
	}
}

// TestStreamLaterOnlyIfCreatedStreaming: a background response created
// without stream cannot be streamed afterwards (OpenAI's background guide);
// one created with stream can.
func TestStreamLaterOnlyIfCreatedStreaming(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	plain := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"input": "hi", "background": true}), http.StatusOK)
	status, body := ts.do("GET", "/openai/v1/responses/"+plain["id"].(string)+"?stream=true", nil)
	if status != http.StatusBadRequest || !strings.Contains(string(body), "stream=true") {
		t.Errorf("stream of a non-stream background response: %d %s", status, body)
	}
	events := ts.stream(turnBody("analyst", map[string]any{"input": "hi", "background": true}))
	id, _ := get(events[0].Data, "response", "id").(string)
	resp := ts.send("GET", "/openai/v1/responses/"+id+"?stream=true", nil)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("stream of a streamed background response: %d", resp.StatusCode)
	}
}
