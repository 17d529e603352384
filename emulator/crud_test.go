package emulator

import (
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAgentVersions(t *testing.T) {
	ts := newTestServer(t)
	const q = "?api-version=v1"
	def := map[string]any{"kind": "prompt", "model": "m", "instructions": "one"}
	created := ts.json("POST", "/agents"+q, map[string]any{"name": "a1", "definition": def, "description": "first"}, 200)
	if created["object"] != "agent" || get(created, "versions", "latest", "id") != "a1:1" ||
		get(created, "versions", "latest", "status") != "active" {
		t.Errorf("create agent: %v", created)
	}
	status, body := ts.do("POST", "/agents"+q, map[string]any{"name": "a1", "definition": def})
	if status != http.StatusConflict {
		t.Errorf("create again: %d %s", status, body)
	}
	same := ts.json("POST", "/agents/a1"+q, map[string]any{"definition": def, "description": "first"}, 200)
	if get(same, "versions", "latest", "version") != "1" {
		t.Errorf("unchanged update made version %v", get(same, "versions", "latest", "version"))
	}
	def["instructions"] = "two"
	changed := ts.json("POST", "/agents/a1"+q, map[string]any{"definition": def}, 200)
	if get(changed, "versions", "latest", "version") != "2" || get(changed, "versions", "latest", "definition", "instructions") != "two" {
		t.Errorf("changed update: %v", changed)
	}
	ts.json("POST", "/agents/a1/versions"+q, map[string]any{"definition": def}, 200)
	page := ts.json("GET", "/agents/a1/versions"+q+"&order=asc&limit=2", nil, 200)
	if get(page, "first_id") != "1" || get(page, "last_id") != "2" || page["has_more"] != true {
		t.Errorf("versions page: first %v last %v more %v", page["first_id"], page["last_id"], page["has_more"])
	}
	if got := ts.json("DELETE", "/agents/a1/versions/3"+q, nil, 200); got["object"] != "agent.version.deleted" || got["deleted"] != true {
		t.Errorf("delete version: %v", got)
	}
	if got := ts.json("GET", "/agents/a1"+q, nil, 200); get(got, "versions", "latest", "version") != "2" {
		t.Errorf("latest after deleting 3: %v", get(got, "versions", "latest", "version"))
	}
	if v := ts.json("POST", "/agents/a1/versions"+q, map[string]any{"definition": def}, 200); v["version"] != "4" {
		t.Errorf("version numbers are reused: got %v, want 4", v["version"])
	}
	list := ts.json("GET", "/agents"+q, nil, 200)
	if n := len(list["data"].([]any)); n != 1 || list["object"] != "list" {
		t.Errorf("list agents: %v", list)
	}
	if got := ts.json("DELETE", "/agents/a1"+q, nil, 200); got["object"] != "agent.deleted" {
		t.Errorf("delete agent: %v", got)
	}
	if status, _ := ts.do("GET", "/agents/a1/versions/2"+q, nil); status != http.StatusNotFound {
		t.Errorf("version of a deleted agent: %d", status)
	}
}

func TestFiles(t *testing.T) {
	ts := newTestServer(t, func(c *Config) { c.MaxFileSize = 64 })
	id := ts.upload("small.csv", "a,b\n1,2\n")
	if got := ts.json("GET", "/openai/v1/files/"+id, nil, 200); got["bytes"] != 8.0 || got["status"] != "processed" || got["object"] != "file" {
		t.Errorf("file: %v", got)
	}
	tests := []struct {
		name, file, content, purpose string
		wantStatus                   int
		wantBody                     string
	}{
		{name: "too large", file: "big.csv", content: strings.Repeat("x", 65), purpose: "assistants", wantStatus: 400,
			wantBody: `"code":"file_size_exceeded"`},
		{name: "exactly the limit", file: "edge.csv", content: strings.Repeat("x", 64), purpose: "assistants", wantStatus: 200,
			wantBody: `"bytes":64`},
		{name: "unsupported type", file: "tool.exe", content: "MZ", purpose: "assistants", wantStatus: 400,
			wantBody: `"code":"unsupported_file"`},
		{name: "extra type parquet", file: "t.parquet", content: "PAR1", purpose: "assistants", wantStatus: 200, wantBody: `"filename":"t.parquet"`},
		{name: "no purpose", file: "p.csv", content: "a", wantStatus: 400, wantBody: `"param":"purpose"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := ts.uploadRaw(tt.file, tt.content, tt.purpose)
			if status != tt.wantStatus || !strings.Contains(string(body), tt.wantBody) {
				t.Errorf("got %d %s, want %d with %s", status, body, tt.wantStatus, tt.wantBody)
			}
		})
	}
	if leftovers, _ := filepath.Glob(filepath.Join(ts.srv.filesDir, "upload-*")); len(leftovers) > 0 {
		t.Errorf("refused uploads left temporary files: %v", leftovers)
	}
	status, body := ts.do("POST", "/openai/v1/files", `{"purpose":"assistants"}`)
	if status != 400 || !strings.Contains(string(body), "multipart") {
		t.Errorf("JSON upload: %d %s", status, body)
	}
	if list := ts.json("GET", "/openai/v1/files?purpose=assistants", nil, 200); len(list["data"].([]any)) != 3 {
		t.Errorf("list: %v", list)
	}
	if got := ts.json("DELETE", "/openai/v1/files/"+id, nil, 200); got["deleted"] != true || got["id"] != id {
		t.Errorf("delete: %v", got)
	}
	if status, _ := ts.do("GET", "/openai/v1/files/"+id+"/content", nil); status != 404 {
		t.Errorf("content after delete: %d", status)
	}
}

func TestConversationItems(t *testing.T) {
	ts := newTestServer(t)
	conv := ts.json("POST", "/openai/v1/conversations", map[string]any{"items": []any{
		map[string]any{"type": "message", "role": "user", "content": "one"},
		map[string]any{"role": "assistant", "content": "two"},
	}}, 200)
	id := conv["id"].(string)
	if !strings.HasPrefix(id, "conv_") || conv["object"] != "conversation" {
		t.Errorf("created %v", conv)
	}
	added := ts.json("POST", "/openai/v1/conversations/"+id+"/items", map[string]any{"items": []any{
		map[string]any{"type": "message", "role": "user", "content": []any{map[string]any{"type": "input_text", "text": "three"}}},
	}}, 200)
	if n := len(added["data"].([]any)); n != 1 {
		t.Errorf("added %v", added)
	}
	// Re-sending an item with the id it was stored under keeps one copy.
	again := map[string]any{"items": []any{map[string]any{"id": get(added, "data", 0, "id"), "role": "user", "content": "three"}}}
	ts.json("POST", "/openai/v1/conversations/"+id+"/items", again, 200)
	texts := func(query string) []string {
		page := ts.json("GET", "/openai/v1/conversations/"+id+"/items"+query, nil, 200)
		var out []string
		for _, it := range page["data"].([]any) {
			out = append(out, get(it, "content", 0, "text").(string))
		}
		return out
	}
	if got := texts(""); !slices.Equal(got, []string{"three", "two", "one"}) {
		t.Errorf("default order %v, want newest first", got)
	}
	asc := ts.json("GET", "/openai/v1/conversations/"+id+"/items?order=asc&limit=1", nil, 200)
	if asc["has_more"] != true {
		t.Errorf("limit 1: %v", asc)
	}
	if got := texts("?order=asc&after=" + asc["last_id"].(string)); !slices.Equal(got, []string{"two", "three"}) {
		t.Errorf("after cursor %v", got)
	}
	firstID := asc["first_id"].(string)
	if it := ts.json("GET", "/openai/v1/conversations/"+id+"/items/"+firstID, nil, 200); get(it, "status") != "completed" {
		t.Errorf("item %v", it)
	}
	if got := ts.json("DELETE", "/openai/v1/conversations/"+id+"/items/"+firstID, nil, 200); got["id"] != id {
		t.Errorf("delete item answers %v, want the conversation", got)
	}
	updated := ts.json("POST", "/openai/v1/conversations/"+id, map[string]any{"metadata": map[string]string{"topic": "t"}}, 200)
	if get(updated, "metadata", "topic") != "t" {
		t.Errorf("update %v", updated)
	}
	tooMany := make([]any, 21)
	for i := range tooMany {
		tooMany[i] = map[string]any{"role": "user", "content": "x"}
	}
	if status, body := ts.do("POST", "/openai/v1/conversations", map[string]any{"items": tooMany}); status != 400 ||
		!strings.Contains(string(body), "at most 20 items") {
		t.Errorf("21 items: %d %s", status, body)
	}
	if got := ts.json("DELETE", "/openai/v1/conversations/"+id, nil, 200); got["object"] != "conversation.deleted" {
		t.Errorf("delete %v", got)
	}
	if status, _ := ts.do("GET", "/openai/v1/conversations/"+id+"/items", nil); status != 404 {
		t.Errorf("items of a deleted conversation: %d", status)
	}
}

// TestDeprecatedAgentField checks that the preview "agent" field is accepted by default and
// refused, as by the hosted service, when configured so.
func TestDeprecatedAgentField(t *testing.T) {
	for _, reject := range []bool{false, true} {
		ts := newTestServer(t, func(c *Config) { c.RejectDeprecatedAgent = reject })
		ts.createAgent("old")
		body := map[string]any{"agent": map[string]any{"type": "agent_reference", "name": "old"}, "input": "hi"}
		status, data := ts.do("POST", "/openai/v1/responses", body)
		wantStatus := map[bool]int{false: 200, true: 400}[reject]
		if status != wantStatus {
			t.Errorf("reject=%v: got %d, want %d: %s", reject, status, wantStatus, data)
		}
		if reject && !strings.Contains(string(data), "The 'agent' property is deprecated. Use 'agent_reference' instead.") {
			t.Errorf("reject: body %s", data)
		}
		// The preview surface is where the field belongs: always accepted there.
		if status, data := ts.do("POST", "/openai/responses?api-version=2025-11-15-preview", body); status != 200 {
			t.Errorf("preview surface, reject=%v: %d %s", reject, status, data)
		}
	}
}

func TestListResponsesByConversation(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("lister")
	conv := ts.json("POST", "/openai/v1/conversations", nil, 200)
	ts.json("POST", "/openai/v1/responses", turnBody("lister", map[string]any{"conversation": conv["id"], "input": "a"}), 200)
	ts.json("POST", "/openai/v1/responses", map[string]any{"model": "m", "input": "b"}, 200)
	for query, want := range map[string]int{"": 2, "?agent_name=lister": 1, "?conversation_id=" + conv["id"].(string): 1,
		"?agent_id=lister:1": 1, "?agent_name=nobody": 0} {
		if page := ts.json("GET", "/openai/v1/responses"+query, nil, 200); len(page["data"].([]any)) != want {
			t.Errorf("list %q: %d responses, want %d", query, len(page["data"].([]any)), want)
		}
	}
	if page := ts.json("GET", "/openai/v1/conversations?agent_name=lister", nil, 200); len(page["data"].([]any)) != 1 {
		t.Errorf("conversations of lister: %v", page)
	}
}
