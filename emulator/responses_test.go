package emulator

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func turnBody(name string, extra map[string]any) map[string]any {
	body := map[string]any{"agent_reference": map[string]any{"type": "agent_reference", "name": name}}
	for k, v := range extra {
		body[k] = v
	}
	return body
}

// TestStreamedTurn runs two fenced cells through the real sandbox and checks the event order,
// the sequence numbers, the code deltas, the outputs, the citation and the stored items.
func TestStreamedTurn(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	fileID := ts.upload("sales.csv", "region,amount\nnorth,10\nsouth,32\n")
	conv := ts.json("POST", "/openai/v1/conversations", map[string]any{}, http.StatusOK)
	// Attached files are mounted as <file_id>-<filename>, as on the hosted service.
	readSales := "df = pd.read_csv('/mnt/data/" + fileID + "-sales.csv')"
	question := "Total please.\n```python\nimport pandas as pd\n" + readSales + "\nprint(df.amount.sum())\n```\n" +
		"and save it\n```python\ndf.to_csv('/mnt/data/totals.csv')\n```"
	events := ts.stream(turnBody("analyst", map[string]any{"conversation": conv["id"], "input": question,
		"include": []string{"code_interpreter_call.outputs"}, "structured_inputs": map[string]any{"f1": fileID, "f2": ""}}))

	var names []string
	for i, e := range events {
		names = append(names, e.Name)
		if e.Data["type"] != e.Name {
			t.Errorf("event %d: type %v differs from event name %s", i, e.Data["type"], e.Name)
		}
		if seq, _ := e.Data["sequence_number"].(float64); int(seq) != i {
			t.Errorf("event %d (%s): sequence_number %v", i, e.Name, e.Data["sequence_number"])
		}
	}
	cell := []string{"response.output_item.added", "response.code_interpreter_call.in_progress"}
	// A cell that prints while it runs streams logs deltas before it
	// completes: none on an idle machine, some when a slow one stretches
	// the cell past the streamer's tick.
	cellEnd := func(want []string) []string {
		want = append(want, "response.code_interpreter_call_code.done", "response.code_interpreter_call.interpreting")
		for i := len(want); i < len(names) && names[i] == "response.code_interpreter_call_logs.delta"; i++ {
			want = append(want, names[i])
		}
		return append(want, "response.code_interpreter_call.completed", "response.output_item.done")
	}
	want := append([]string{"response.created", "response.in_progress"}, cell...)
	want = append(want, deltas(names, len(want), "response.code_interpreter_call_code.delta")...)
	want = cellEnd(want)
	want = append(want, cell...)
	want = append(want, deltas(names, len(want), "response.code_interpreter_call_code.delta")...)
	want = cellEnd(want)
	want = append(want, "response.output_item.added", "response.content_part.added")
	want = append(want, deltas(names, len(want), "response.output_text.delta")...)
	want = append(want, "response.output_text.annotation.added", "response.output_text.done",
		"response.content_part.done", "response.output_item.done", "response.completed")
	if !slices.Equal(names, want) {
		t.Fatalf("event order:\n got %v\nwant %v", names, want)
	}

	var code strings.Builder
	for _, e := range events[:12] {
		if e.Name == "response.code_interpreter_call_code.delta" {
			code.WriteString(e.Data["delta"].(string))
		}
	}
	if wantCode := "import pandas as pd\n" + readSales + "\nprint(df.amount.sum())"; code.String() != wantCode {
		t.Errorf("code deltas join to %q, want %q", code.String(), wantCode)
	}
	resp := lastResponse(t, events)
	if resp["status"] != "completed" || get(resp, "agent_reference", "name") != "analyst" ||
		get(resp, "agent_reference", "version") != "1" || get(resp, "conversation", "id") != conv["id"] {
		t.Errorf("final response: status %v, agent_reference %v, conversation %v", resp["status"], resp["agent_reference"], resp["conversation"])
	}
	if got := get(resp, "output", 0, "outputs", 0, "logs"); got != "42\n" {
		t.Errorf("first cell logs %q, want %q", got, "42\n")
	}
	if got := get(resp, "instructions"); got != "Analyse "+fileID+"." {
		t.Errorf("instructions %q: structured input not substituted", got)
	}
	if u, _ := resp["usage"].(map[string]any); u == nil || u["output_tokens"].(float64) <= 0 ||
		u["total_tokens"].(float64) != u["input_tokens"].(float64)+u["output_tokens"].(float64) {
		t.Errorf("usage %v", resp["usage"])
	}
	checkCitation(t, ts, resp, "totals.csv")
	checkStoredItems(t, ts, conv["id"].(string))
}

// deltas returns the run of name starting at names[from], or one name if there is none, so a
// missing delta fails the comparison.
func deltas(names []string, from int, name string) []string {
	var out []string
	for i := from; i < len(names) && names[i] == name; i++ {
		out = append(out, name)
	}
	if len(out) == 0 {
		out = []string{name}
	}
	return out
}

// checkCitation checks that the message cites file with indices that point at its link, and
// that the cited bytes download.
func checkCitation(t *testing.T, ts *testServer, resp map[string]any, file string) {
	t.Helper()
	out := resp["output"].([]any)
	msg := out[len(out)-1]
	text := get(msg, "content", 0, "text").(string)
	ann := get(msg, "content", 0, "annotations", 0)
	if get(ann, "type") != "container_file_citation" || get(ann, "filename") != file {
		t.Fatalf("annotation %v, want a container_file_citation of %s", ann, file)
	}
	start, end := int(get(ann, "start_index").(float64)), int(get(ann, "end_index").(float64))
	if link := string([]rune(text)[start:end]); link != "["+file+"](sandbox:/mnt/data/"+file+")" {
		t.Errorf("annotation covers %q", link)
	}
	path := "/openai/v1/containers/" + get(ann, "container_id").(string) + "/files/" + get(ann, "file_id").(string)
	if status, body := ts.do("GET", path+"/content", nil); status != 200 || !strings.Contains(string(body), "north") {
		t.Errorf("download %s: %d %q", path, status, body)
	}
	meta := ts.json("GET", path, nil, 200)
	if meta["path"] != "/mnt/data/"+file || meta["source"] != "assistant" || meta["object"] != "container.file" {
		t.Errorf("container file %v", meta)
	}
}

// checkStoredItems checks that the conversation holds the question, both calls and the answer.
func checkStoredItems(t *testing.T, ts *testServer, convID string) {
	t.Helper()
	page := ts.json("GET", "/openai/v1/conversations/"+convID+"/items?order=asc", nil, 200)
	var types []string
	for _, it := range page["data"].([]any) {
		types = append(types, get(it, "type").(string)+"/"+stringOr(get(it, "role")))
	}
	want := []string{"message/user", "code_interpreter_call/", "code_interpreter_call/", "message/assistant"}
	if !slices.Equal(types, want) {
		t.Fatalf("stored items %v, want %v", types, want)
	}
	data := page["data"].([]any)
	if get(data[1], "outputs") != nil {
		t.Errorf("outputs listed without include: %v", get(data[1], "outputs"))
	}
	// GA v1 shape (recorded): agent_reference and response_id, no preview created_by.
	if get(data[3], "agent_reference", "name") != "analyst" || get(data[3], "response_id") == nil || get(data[3], "created_by") != nil {
		t.Errorf("stored item %v, want agent_reference and response_id, no created_by", data[3])
	}
	withOutputs := ts.json("GET", "/openai/v1/conversations/"+convID+"/items?order=asc&include=code_interpreter_call.outputs", nil, 200)
	if get(withOutputs, "data", 1, "outputs", 0, "logs") != "42\n" {
		t.Errorf("outputs with include: %v", get(withOutputs, "data", 1, "outputs"))
	}
}

func stringOr(v any) string {
	s, _ := v.(string)
	return s
}

// TestTurnWithoutCode checks the plain answer of the local engine and that no kernel starts.
func TestTurnWithoutCode(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	resp := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"input": "What is the mean?"}), 200)
	text, _ := get(resp, "output", 0, "content", 0, "text").(string)
	if len(resp["output"].([]any)) != 1 || !strings.Contains(text, "fenced") || !strings.Contains(text, "local engine") {
		t.Errorf("output %v", resp["output"])
	}
	if n := len(ts.srv.containers.all()); n != 0 {
		t.Errorf("%d containers started for a turn without code", n)
	}
}

// TestOutputsNeedInclude checks that logs and images are returned only when included.
func TestOutputsNeedInclude(t *testing.T) {
	ts := newTestServer(t)
	code := "```python\nimport matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nprint('drawn')\n```"
	plain := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": code,
		"tools": []any{map[string]any{"type": "code_interpreter", "container": map[string]any{"type": "auto"}}}}, 200)
	if get(plain, "output", 0, "outputs") != nil || get(plain, "output", 0, "status") != "completed" {
		t.Errorf("without include: %v", get(plain, "output", 0))
	}
	full := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": code,
		"include": []string{"code_interpreter_call.outputs"}}, 200)
	if get(full, "output", 0, "outputs", 0, "logs") != "drawn\n" || get(full, "output", 0, "outputs", 1, "type") != "image" ||
		!strings.HasPrefix(stringOr(get(full, "output", 0, "outputs", 1, "url")), "data:image/png;base64,iVBOR") {
		t.Errorf("with include: %.300v", get(full, "output", 0, "outputs"))
	}
	// GET answers as the creating request did, or with outputs when it asks for them.
	again := ts.json("GET", "/openai/v1/responses/"+plain["id"].(string)+"?include[]=code_interpreter_call.outputs", nil, 200)
	if get(again, "output", 0, "outputs", 0, "logs") != "drawn\n" {
		t.Errorf("GET with include: %v", get(again, "output", 0, "outputs"))
	}
}

// TestStatePersistsAcrossTurns checks that a conversation's turns share one kernel, and that
// previous_response_id chains share theirs.
func TestStatePersistsAcrossTurns(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	conv := ts.json("POST", "/openai/v1/conversations", nil, 200)
	first := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"],
		"input": "```python\nx = 41\n```"}), 200)
	second := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"conversation": conv["id"],
		"input": "```python\nprint(x + 1)\n```", "include": []string{"code_interpreter_call.outputs"}}), 200)
	if get(second, "output", 0, "outputs", 0, "logs") != "42\n" {
		t.Errorf("second turn logs %v", get(second, "output", 0, "outputs"))
	}
	if a, b := get(first, "output", 0, "container_id"), get(second, "output", 0, "container_id"); a != b {
		t.Errorf("containers %v then %v, want one", a, b)
	}
	third := ts.json("POST", "/openai/v1/responses", turnBody("analyst", map[string]any{"previous_response_id": second["id"],
		"input": "```python\nprint(x * 2)\n```", "include": []string{"code_interpreter_call.outputs"}}), 200)
	if get(third, "output", 0, "outputs", 0, "logs") != "82\n" || get(third, "previous_response_id") != second["id"] {
		t.Errorf("chained turn: logs %v, previous %v", get(third, "output", 0, "outputs"), third["previous_response_id"])
	}
	items := ts.json("GET", "/openai/v1/responses/"+third["id"].(string)+"/input_items", nil, 200)
	if get(items, "data", 0, "role") != "user" || !strings.Contains(stringOr(get(items, "data", 0, "content", 0, "text")), "x * 2") {
		t.Errorf("input items %v", items)
	}
}

// TestPythonErrorIsAnOutput checks that an exception is reported in the logs, not as a failure.
func TestPythonErrorIsAnOutput(t *testing.T) {
	ts := newTestServer(t)
	resp := ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "```python\n1/0\n```",
		"include": []string{"code_interpreter_call.outputs"}}, 200)
	logs := stringOr(get(resp, "output", 0, "outputs", 0, "logs"))
	text := stringOr(get(resp, "output", 1, "content", 0, "text"))
	if resp["status"] != "completed" || !strings.Contains(logs, "ZeroDivisionError") || !strings.Contains(text, "ZeroDivisionError") {
		t.Errorf("status %v, logs %q, text %q", resp["status"], logs, text)
	}
}

// TestInputShapes checks every accepted form of input and conversation: the question is found
// and its fenced block runs, in the same conversation's container.
func TestInputShapes(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("shapes")
	conv := ts.json("POST", "/openai/v1/conversations", nil, 200)
	code := func(n int) string { return "```python\nprint(" + strconv.Itoa(n) + ")\n```" }
	tests := []struct {
		name         string
		input        any
		conversation any
	}{
		{name: "text, conversation id", input: code(1), conversation: conv["id"]},
		{name: "easy message, conversation object", input: []any{map[string]any{"role": "user", "content": code(2)}},
			conversation: map[string]any{"id": conv["id"]}},
		{name: "message with parts", input: []any{map[string]any{"type": "message", "role": "user",
			"content": []any{map[string]any{"type": "input_text", "text": code(3)}}}}, conversation: conv["id"]},
		{name: "assistant then user", input: []any{map[string]any{"role": "assistant", "content": "earlier"},
			map[string]any{"role": "user", "content": code(4)}}, conversation: conv["id"]},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := ts.json("POST", "/openai/v1/responses", turnBody("shapes", map[string]any{"input": tt.input,
				"conversation": tt.conversation, "include": []string{"code_interpreter_call.outputs"}}), 200)
			if got, want := get(resp, "output", 0, "outputs", 0, "logs"), strconv.Itoa(i+1)+"\n"; got != want {
				t.Errorf("logs %q, want %q", got, want)
			}
		})
	}
	// The question may also be added to the conversation first, with no input in the request.
	ts.json("POST", "/openai/v1/conversations/"+conv["id"].(string)+"/items", map[string]any{"items": []any{
		map[string]any{"role": "user", "content": code(5)}}}, 200)
	resp := ts.json("POST", "/openai/v1/responses", turnBody("shapes", map[string]any{"conversation": conv["id"],
		"include": []string{"code_interpreter_call.outputs"}}), 200)
	if got := get(resp, "output", 0, "outputs", 0, "logs"); got != "5\n" {
		t.Errorf("question from the conversation: logs %q", got)
	}
	status, body := ts.do("POST", "/openai/v1/responses", turnBody("shapes", map[string]any{"input": []any{map[string]any{"role": "robot", "content": "x"}}}))
	if status != 400 || !strings.Contains(string(body), `"param":"input[0].role"`) {
		t.Errorf("bad role: %d %s", status, body)
	}
}
