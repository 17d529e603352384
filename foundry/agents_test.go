package foundry

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestClient_AgentVersions(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"GET /agents/analyst/versions": {
		{file: "json/agent_versions_page1.json"}, {file: "json/agent_versions_page2.json"}}})
	vs, err := rs.client(t).AgentVersions(context.Background(), "analyst")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.Version)
	}
	// "10" shares a timestamp with "2" and must still sort after it.
	if want := []string{"1", "2", "10"}; !slices.Equal(got, want) {
		t.Errorf("versions = %v, want %v", got, want)
	}
	reqs := rs.requests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].Query, "after=analyst%3A2") || !strings.Contains(reqs[1].Query, "api-version=v1") {
		t.Errorf("second page query = %q", reqs[len(reqs)-1].Query)
	}
}

func TestClient_LatestAgentVersion(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"GET /agents/analyst": {{file: "json/agent.json"}}})
	v, err := rs.client(t).LatestAgentVersion(context.Background(), "analyst")
	if err != nil {
		t.Fatal(err)
	}
	if v.Name != "analyst" || v.Version != "2" || v.ID != "analyst:2" || v.Status != "active" ||
		!v.CreatedAt.Equal(time.Unix(1767225600, 0)) || len(v.Definition) == 0 {
		t.Errorf("version = %+v", v)
	}
}

func TestClient_CreateAgentVersion(t *testing.T) {
	tests := []struct {
		name      string
		routes    map[string][]reply
		wantPaths []string
		wantVer   string
	}{
		{"existing agent", map[string][]reply{"POST /agents/analyst/versions": {{file: "json/agent_version.json"}}},
			[]string{"POST /agents/analyst/versions"}, "3"},
		{"unknown agent falls back to create agent", map[string][]reply{
			"POST /agents/analyst/versions": {{status: 404, body: `{"error":{"code":"NotFound","message":"agent not found"}}`}},
			"POST /agents":                  {{status: 201, file: "json/agent_created.json"}}},
			[]string{"POST /agents/analyst/versions", "POST /agents"}, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := newReplay(t, tt.routes)
			def := map[string]any{"kind": "prompt", "model": "gpt-4.1"}
			v, err := rs.client(t).CreateAgentVersion(context.Background(), "analyst", def, "desc", map[string]string{"app": "wb"})
			if err != nil {
				t.Fatal(err)
			}
			if v.Version != tt.wantVer {
				t.Errorf("version = %q, want %q", v.Version, tt.wantVer)
			}
			var paths []string
			for _, r := range rs.requests() {
				paths = append(paths, r.Method+" "+r.Path)
				var body struct {
					Name        string            `json:"name"`
					Description string            `json:"description"`
					Definition  json.RawMessage   `json:"definition"`
					Metadata    map[string]string `json:"metadata"`
				}
				if err := json.Unmarshal(r.Body, &body); err != nil || body.Description != "desc" || len(body.Definition) == 0 ||
					body.Metadata["app"] != "wb" {
					t.Errorf("%s body = %s", r.Path, r.Body)
				}
				if r.Path == "/agents" && body.Name != "analyst" {
					t.Errorf("create agent without name: %s", r.Body)
				}
			}
			if !slices.Equal(paths, tt.wantPaths) {
				t.Errorf("requests = %v, want %v", paths, tt.wantPaths)
			}
		})
	}
}

func TestClient_DeleteAgentVersion(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"DELETE /agents/analyst/versions/1": {{file: "json/agent_version_deleted.json"}},
		"DELETE /agents/analyst/versions/9": {{status: 404, body: `{"error":{"code":"NotFound","message":"no such version"}}`}},
	})
	c := rs.client(t)
	if err := c.DeleteAgentVersion(context.Background(), "analyst", "1"); err != nil {
		t.Fatal(err)
	}
	err := c.DeleteAgentVersion(context.Background(), "analyst", "9")
	if !IsNotFound(err) {
		t.Errorf("err = %v, want not found", err)
	}
	if r := rs.requests()[0]; r.Method != http.MethodDelete || r.Query != "api-version=v1" {
		t.Errorf("request = %+v", r)
	}
}
