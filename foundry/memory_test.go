package foundry

import (
	"context"
	"encoding/json"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	t.Parallel()
	const mb = 1_000_000
	tests := []struct {
		total int64
		want  string
	}{
		{0, "1g"},
		{100 * mb, "1g"},
		{108 * mb, "4g"}, // ten times is past 1 GiB
		{429 * mb, "4g"},
		{430 * mb, "16g"},
		{1700 * mb, "16g"},
		{1800 * mb, "64g"},
		{300_000 * mb, "64g"}, // nothing is larger
	}
	for _, tt := range tests {
		if got := MemoryLimitFor(tt.total); got != tt.want {
			t.Errorf("MemoryLimitFor(%d) = %q, want %q", tt.total, got, tt.want)
		}
	}
}

// TestClient_EnsureAgent_SendsMemoryLimit: the definition posted carries
// the container size chosen from the files' sizes, and a served agent of
// the default size is replaced by one of that size.
func TestClient_EnsureAgent_SendsMemoryLimit(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"GET /agents/analyst":           {{file: "json/agent.json"}}, // memory_limit null: the default, 1g
		"POST /agents/analyst/versions": {{file: "json/agent_version.json"}},
	})
	spec := fixtureSpec
	spec.MemoryLimit = MemoryLimitFor(250_000_000 + 60_000_000) // two files, 310 MB
	if _, err := rs.client(t).EnsureAgent(context.Background(), spec); err != nil {
		t.Fatal(err)
	}
	reqs := rs.requests()
	if len(reqs) != 2 || reqs[1].Method != "POST" {
		t.Fatalf("requests %v: want a new version posted", reqs)
	}
	var body struct {
		Definition struct {
			Tools []struct {
				Container struct {
					MemoryLimit string `json:"memory_limit"`
				} `json:"container"`
			} `json:"tools"`
		} `json:"definition"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil || len(body.Definition.Tools) != 1 {
		t.Fatalf("posted %s: %v", reqs[1].Body, err)
	}
	if got := body.Definition.Tools[0].Container.MemoryLimit; got != "4g" {
		t.Errorf("memory_limit %q, want 4g for 310 MB of files", got)
	}
}

// TestAgentSpec_DefinitionOmitsDefaultMemoryLimit: an agent without a
// chosen size sends none, so its definition stays as before.
func TestAgentSpec_DefinitionOmitsDefaultMemoryLimit(t *testing.T) {
	t.Parallel()
	b, _ := json.Marshal(AgentSpec{Model: "m"}.definition())
	var d struct {
		Tools []struct {
			Container map[string]any `json:"container"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Tools[0].Container["memory_limit"]; ok {
		t.Errorf("definition %s names a memory limit nobody chose", b)
	}
}
