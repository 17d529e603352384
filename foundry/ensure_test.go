package foundry

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// fixtureSpec matches testdata/json/agent.json's latest version.
var fixtureSpec = AgentSpec{Name: "analyst", Model: "gpt-4.1",
	Instructions: "You are a data analyst.\nFiles are under /mnt/data.", FileSlots: 2}

func TestDefinitionMatches(t *testing.T) {
	t.Parallel()
	var agent wireAgent
	if err := json.Unmarshal(readTestdata(t, "json/agent.json"), &agent); err != nil {
		t.Fatal(err)
	}
	served := agent.Versions.Latest.Definition
	tests := []struct {
		name string
		spec func(AgentSpec) AgentSpec
		raw  string // replaces the served definition when set
		want bool
	}{
		{name: "served with defaults, CRLF, spacing, slot order", want: true},
		{name: "model case differs", spec: func(s AgentSpec) AgentSpec { s.Model = "GPT-4.1"; return s }, want: true},
		{name: "model changed", spec: func(s AgentSpec) AgentSpec { s.Model = "gpt-5"; return s }},
		{name: "instructions changed", spec: func(s AgentSpec) AgentSpec { s.Instructions += " Be terse."; return s }},
		{name: "more slots", spec: func(s AgentSpec) AgentSpec { s.FileSlots = 3; return s }},
		{name: "no slots", spec: func(s AgentSpec) AgentSpec { s.FileSlots = 0; return s }},
		{name: "no slots, tool without container", spec: func(s AgentSpec) AgentSpec { s.FileSlots = 0; return s },
			raw: `{"kind":"prompt","model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter"}]}`, want: true},
		{name: "fixed container id", spec: func(s AgentSpec) AgentSpec { s.FileSlots = 0; return s },
			raw: `{"kind":"prompt","model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter","container":"cntr_1"}]}`},
		{name: "extra tool",
			raw: `{"kind":"prompt","model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"]}},{"type":"file_search"}],"structured_inputs":{"file_1":{},"file_2":{}}}`},
		{name: "slot required",
			raw: `{"kind":"prompt","model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"]}}],"structured_inputs":{"file_1":{"required":true},"file_2":{}}}`},
		{name: "slot schema not string",
			raw: `{"kind":"prompt","model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"]}}],"structured_inputs":{"file_1":{"schema":{"type":"number"}},"file_2":{}}}`},
		{name: "minimal echo without kind",
			raw: `{"model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.\n\nThe files attached to this question, at the paths to read them from: {{files}}","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"]}}],"structured_inputs":{"file_1":{"default_value":""},"file_2":{"default_value":""},"files":{"default_value":"none"}}}`, want: true},
		{name: "an older version without the file list",
			raw: `{"model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"]}}],"structured_inputs":{"file_1":{"default_value":""},"file_2":{"default_value":""}}}`},
		{name: "default memory limit asked, none served", spec: func(s AgentSpec) AgentSpec { s.MemoryLimit = "1g"; return s }, want: true},
		{name: "larger memory limit asked", spec: func(s AgentSpec) AgentSpec { s.MemoryLimit = "4g"; return s }},
		{name: "memory limit served as asked", spec: func(s AgentSpec) AgentSpec { s.MemoryLimit = "16g"; return s },
			raw: `{"model":"gpt-4.1","instructions":"You are a data analyst.\nFiles are under /mnt/data.\n\nThe files attached to this question, at the paths to read them from: {{files}}","tools":[{"type":"code_interpreter","container":{"file_ids":["{{file_1}}","{{file_2}}"],"memory_limit":"16g"}}],"structured_inputs":{"file_1":{"default_value":""},"file_2":{"default_value":""},"files":{"default_value":"none"}}}`, want: true},
		{name: "other kind", raw: `{"kind":"hosted","model":"gpt-4.1"}`},
		{name: "not json", raw: `nope`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			spec := fixtureSpec
			if tt.spec != nil {
				spec = tt.spec(spec)
			}
			raw := served
			if tt.raw != "" {
				raw = json.RawMessage(tt.raw)
			}
			if got := definitionMatches(spec.definition(), raw); got != tt.want {
				t.Errorf("definitionMatches = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAgentSpec_Definition(t *testing.T) {
	b, err := json.Marshal(AgentSpec{Model: "m", Instructions: "i", FileSlots: 2}.definition())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"prompt","model":"m","instructions":"i\n\nThe files attached to this question, at the paths to read them from: {{files}}","tools":[{"type":"code_interpreter","container":{"type":"auto","file_ids":["{{file_1}}","{{file_2}}"]}}],` +
		`"structured_inputs":{"file_1":{"description":"id of attached file 1, or empty","required":false,"default_value":"","schema":{"type":"string"}},` +
		`"file_2":{"description":"id of attached file 2, or empty","required":false,"default_value":"","schema":{"type":"string"}},` +
		`"files":{"description":"paths of the attached files in the sandbox","required":false,"default_value":"none","schema":{"type":"string"}}}}`
	if string(b) != want {
		t.Errorf("definition:\n got %s\nwant %s", b, want)
	}
}

func TestClient_EnsureAgent(t *testing.T) {
	notFound := reply{status: 404, body: `{"error":{"code":"NotFound","message":"agent analyst not found"}}`}
	tests := []struct {
		name      string
		spec      AgentSpec
		get       reply
		wantPaths []string
		wantVer   string
	}{
		{"unchanged reuses latest", fixtureSpec, reply{file: "json/agent.json"},
			[]string{"GET /agents/analyst"}, "2"},
		{"changed creates a version", AgentSpec{Name: "analyst", Model: "gpt-4.1", Instructions: "You are a data analyst.", FileSlots: 2},
			reply{file: "json/agent.json"}, []string{"GET /agents/analyst", "POST /agents/analyst/versions"}, "3"},
		{"missing agent creates one", fixtureSpec, notFound,
			[]string{"GET /agents/analyst", "POST /agents/analyst/versions"}, "3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReplay(t, map[string][]reply{
				"GET /agents/analyst":           {tt.get},
				"POST /agents/analyst/versions": {{file: "json/agent_version.json"}},
			})
			v, err := rs.client(t).EnsureAgent(context.Background(), tt.spec)
			if err != nil {
				t.Fatal(err)
			}
			if v.Version != tt.wantVer {
				t.Errorf("version = %q, want %q", v.Version, tt.wantVer)
			}
			var paths []string
			for _, r := range rs.requests() {
				paths = append(paths, r.Method+" "+r.Path)
				if r.Method == "POST" {
					var body struct{ Definition definition }
					if err := json.Unmarshal(r.Body, &body); err != nil || !definitionMatches(tt.spec.definition(), mustJSON(t, body.Definition)) {
						t.Errorf("posted definition does not match the spec: %s", r.Body)
					}
				}
			}
			if !slices.Equal(paths, tt.wantPaths) {
				t.Errorf("requests = %v, want %v", paths, tt.wantPaths)
			}
		})
	}
}

func TestClient_EnsureAgentValidates(t *testing.T) {
	c := newTestClient(t, "http://127.0.0.1:1"+testProject)
	for _, spec := range []AgentSpec{{Model: "m"}, {Name: "a"}, {Name: "a", Model: "m", FileSlots: -1}, {Name: "a", Model: "m", FileSlots: 101},
		{Name: "a", Model: "m", MemoryLimit: "2g"}} {
		if _, err := c.EnsureAgent(context.Background(), spec); err == nil {
			t.Errorf("EnsureAgent(%+v) accepted", spec)
		}
	}
}

func TestSlotInputs(t *testing.T) {
	got, err := SlotInputs([]string{"f-a", "f-b"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"file_1": "f-a", "file_2": "f-b", "file_3": ""}
	if len(got) != len(want) || got["file_1"] != "f-a" || got["file_2"] != "f-b" || got["file_3"] != "" {
		t.Errorf("SlotInputs = %v, want %v", got, want)
	}
	if _, err := SlotInputs([]string{"a", "b"}, 1); err == nil {
		t.Error("more files than slots accepted")
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFileList(t *testing.T) {
	got := FileList([]Attached{{FileID: "assistant-XoFc", Filename: "sales.csv"}, {FileID: "file-1", Filename: "b c.xlsx"}})
	want := "/mnt/data/assistant-XoFc-sales.csv (sales.csv); /mnt/data/file-1-b c.xlsx (b c.xlsx)"
	if got != want {
		t.Errorf("FileList = %q, want %q", got, want)
	}
	if got := FileList(nil); got != "none" {
		t.Errorf("FileList(nil) = %q", got)
	}
}
