package contract_test

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
)

// The contract scenario is one analyst turn end to end, run unchanged
// against the local engine (emulator_test.go) and, when
// FOUNDRY_PROJECT_ENDPOINT is set, a real Foundry project. Whatever passes
// here is what the chat layer may rely on from either engine.

const contractInstructions = "You are a data analyst. Files are under /mnt/data. " +
	"When the user gives you a fenced python block, run it exactly as written with the code interpreter, " +
	"then answer in one sentence and link every file the code saved in /mnt/data."

// contractCode reads the attached CSV at its mount path,
// /mnt/data/<file_id>-<filename> (recorded on the hosted service; see
// foundry.MountPath), and saves a chart.
func contractCode(path string) string {
	return `import pandas as pd
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
df = pd.read_csv("` + path + `")
print("total", int(df["sales"].sum()))
ax = df.plot(x="month", y="sales")
ax.figure.savefig("/mnt/data/contract_chart.png")
print("saved /mnt/data/contract_chart.png")`
}

const contractCSV = "month,sales\njan,10\nfeb,12\nmar,38\n"

type scenario struct {
	Agent string
	Model string
}

// turnResult is what one streamed turn yielded.
type turnResult struct {
	responseID  string
	code        string
	logs        string
	text        string
	containerID string
	citations   []foundry.Citation
	images      int
	completed   bool
}

func runScenario(t *testing.T, c *foundry.Client, sc scenario) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	v := ensureAgentTwice(ctx, t, c, sc)
	f, err := c.UploadFile(ctx, "sales.csv", strings.NewReader(contractCSV))
	if err != nil {
		t.Fatalf("upload: %v", err)
	}
	t.Cleanup(func() { _ = c.DeleteFile(context.Background(), f.ID) })
	if f.ID == "" || f.Filename != "sales.csv" {
		t.Errorf("uploaded file = %+v", f)
	}
	conv, err := c.CreateConversation(ctx, map[string]string{"suite": "foundry-contract"})
	if err != nil {
		t.Fatalf("create conversation: %v", err)
	}
	t.Cleanup(func() { _ = c.DeleteConversation(context.Background(), conv.ID) })

	checkListed(ctx, t, c, conv.ID, f.ID)

	res := streamTurn(ctx, t, c, v, conv.ID, f.ID)
	checkTurn(t, res)
	fileID := downloadArtifact(ctx, t, c, res)
	checkStored(ctx, t, c, conv.ID, res)

	if fileID != "" {
		if err := c.DeleteContainerFile(ctx, res.containerID, fileID); err != nil && !foundry.IsNotFound(err) {
			t.Errorf("delete container file: %v", err)
		}
	}
	deleteAll(ctx, t, c, sc, v, conv.ID, f.ID)
}

// checkListed finds the new file and conversation in the listings that
// reconciliation and purge walk.
func checkListed(ctx context.Context, t *testing.T, c *foundry.Client, convID, fileID string) {
	t.Helper()
	files, err := c.Files(ctx)
	if err != nil {
		t.Fatalf("list files: %v", err)
	}
	if !slices.ContainsFunc(files, func(f foundry.File) bool { return f.ID == fileID }) {
		t.Errorf("file %s not listed in %d files", fileID, len(files))
	}
	convs, err := c.Conversations(ctx)
	if err != nil {
		t.Fatalf("list conversations: %v", err)
	}
	if !slices.ContainsFunc(convs, func(cv foundry.Conversation) bool { return cv.ID == convID }) {
		t.Errorf("conversation %s not listed in %d conversations", convID, len(convs))
	}
}

func ensureAgentTwice(ctx context.Context, t *testing.T, c *foundry.Client, sc scenario) foundry.AgentVersion {
	t.Helper()
	spec := foundry.AgentSpec{Name: sc.Agent, Model: sc.Model, Instructions: contractInstructions, FileSlots: 2}
	v, err := c.EnsureAgent(ctx, spec)
	if err != nil {
		t.Fatalf("ensure agent: %v", err)
	}
	if v.Version == "" {
		t.Fatalf("ensure agent: no version in %+v", v)
	}
	again, err := c.EnsureAgent(ctx, spec)
	if err != nil {
		t.Fatalf("ensure agent again: %v", err)
	}
	if again.Version != v.Version {
		t.Errorf("unchanged spec made version %q after %q; the service's echo no longer matches", again.Version, v.Version)
	}
	return v
}

func streamTurn(ctx context.Context, t *testing.T, c *foundry.Client, v foundry.AgentVersion, convID, fileID string) turnResult {
	t.Helper()
	inputs, err := foundry.SlotInputs([]string{fileID}, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{
		Agent:            foundry.AgentRef{Name: v.Name, Version: v.Version},
		ConversationID:   convID,
		Input:            "Plot the sales.\n\n```python\n" + contractCode(foundry.MountPath(fileID, "sales.csv")) + "\n```",
		StructuredInputs: inputs,
	})
	if err != nil {
		t.Fatalf("stream response: %v", err)
	}
	defer s.Close()
	var r turnResult
	var deltas strings.Builder
	for s.Next() {
		e := s.Event()
		switch e.Type {
		case foundry.EventCodeDone:
			r.code += e.Text
			r.containerID = e.ContainerID
		case foundry.EventLogs:
			r.logs += e.Text
		case foundry.EventImage:
			r.images++
		case foundry.EventTextDelta:
			deltas.WriteString(e.Text)
		case foundry.EventFileCitation:
			r.citations = append(r.citations, e.Citation)
		case foundry.EventItemDone:
			if e.Item.Type == foundry.ItemCodeCall && r.containerID == "" {
				r.containerID = e.Item.ContainerID
			}
		case foundry.EventCompleted:
			r.completed = e.Status == "completed"
		}
	}
	if err := s.Err(); err != nil {
		t.Fatalf("stream: %v", err)
	}
	r.responseID, r.text = s.ResponseID(), deltas.String()
	t.Logf("turn %s: container %s, %d citations, %d images, logs %q, text %q",
		r.responseID, r.containerID, len(r.citations), r.images, r.logs, r.text)
	return r
}

func checkTurn(t *testing.T, r turnResult) {
	t.Helper()
	if !r.completed || r.responseID == "" {
		t.Errorf("turn not completed (response %q)", r.responseID)
	}
	if !strings.Contains(r.code, "contract_chart.png") {
		t.Errorf("code done = %q, want the fenced block", r.code)
	}
	if r.containerID == "" {
		t.Error("no container id on the code interpreter call")
	}
	if !strings.Contains(r.logs, "total 60") {
		// Foundry may leave outputs empty even with include (reference §5.1).
		t.Logf("logs = %q (want \"total 60\"; outputs may be omitted by the service)", r.logs)
	}
	if strings.TrimSpace(r.text) == "" {
		t.Error("no answer text")
	}
}

// downloadArtifact fetches the chart: through its citation when there is
// one, otherwise through the container listing, as the chat layer does.
func downloadArtifact(ctx context.Context, t *testing.T, c *foundry.Client, r turnResult) string {
	t.Helper()
	fileID := ""
	for _, ci := range r.citations {
		if strings.HasSuffix(ci.Filename, ".png") {
			fileID = ci.FileID
		}
	}
	files, err := c.ContainerFiles(ctx, r.containerID)
	if err != nil {
		t.Fatalf("list container files: %v", err)
	}
	for _, f := range files {
		if fileID == "" && strings.HasSuffix(f.Path, "contract_chart.png") {
			fileID = f.ID
		}
	}
	if fileID == "" {
		t.Fatalf("chart neither cited (%+v) nor listed (%+v)", r.citations, files)
	}
	rc, err := c.ContainerFileContent(ctx, r.containerID, fileID)
	if err != nil {
		t.Fatalf("download %s: %v", fileID, err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(rc); err != nil {
		t.Fatalf("read %s: %v", fileID, err)
	}
	if !bytes.HasPrefix(buf.Bytes(), []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("chart is not a PNG: % x", buf.Bytes()[:min(8, buf.Len())])
	}
	return fileID
}

func checkStored(ctx context.Context, t *testing.T, c *foundry.Client, convID string, r turnResult) {
	t.Helper()
	resp, err := c.Response(ctx, r.responseID)
	if err != nil {
		t.Fatalf("get response: %v", err)
	}
	if resp.Status != "completed" || resp.ConversationID != convID {
		t.Errorf("stored response: status %q, conversation %q", resp.Status, resp.ConversationID)
	}
	items, err := c.ConversationItems(ctx, convID)
	if err != nil {
		t.Fatalf("list items: %v", err)
	}
	var kinds []string
	for _, it := range items {
		kinds = append(kinds, string(it.Type)+"/"+it.Role)
	}
	joined := strings.Join(kinds, " ")
	if !strings.Contains(joined, "message/user") || !strings.Contains(joined, "code_interpreter_call/") ||
		!strings.Contains(joined, "message/assistant") {
		t.Errorf("conversation items = %v, want the user message, the code call and the answer", kinds)
	}
}

func deleteAll(ctx context.Context, t *testing.T, c *foundry.Client, sc scenario, v foundry.AgentVersion, convID, fileID string) {
	t.Helper()
	if err := c.DeleteConversation(ctx, convID); err != nil {
		t.Errorf("delete conversation: %v", err)
	}
	if _, err := c.Conversation(ctx, convID); !foundry.IsNotFound(err) {
		t.Errorf("conversation after delete: err = %v, want not found", err)
	}
	if err := c.DeleteFile(ctx, fileID); err != nil {
		t.Errorf("delete file: %v", err)
	}
	if err := c.DeleteFile(ctx, fileID); !foundry.IsNotFound(err) {
		t.Errorf("second delete of file: err = %v, want not found", err)
	}
	retireAgent(ctx, t, c, sc, v)
}

// retireAgent changes the spec, which must make a second version, deletes
// the first, and then the agent (it exists for this suite only).
func retireAgent(ctx context.Context, t *testing.T, c *foundry.Client, sc scenario, v foundry.AgentVersion) {
	t.Helper()
	spec := foundry.AgentSpec{Name: sc.Agent, Model: sc.Model, Instructions: contractInstructions + " Be brief.", FileSlots: 2}
	v2, err := c.EnsureAgent(ctx, spec)
	if err != nil {
		t.Fatalf("ensure changed agent: %v", err)
	}
	if v2.Version == v.Version {
		t.Errorf("changed instructions kept version %q", v.Version)
	}
	vs, err := c.AgentVersions(ctx, sc.Agent)
	if err != nil {
		t.Fatalf("list agent versions: %v", err)
	}
	if len(vs) < 2 || vs[len(vs)-1].Version != v2.Version {
		t.Errorf("versions = %+v, want %q last", vs, v2.Version)
	}
	if err := c.DeleteAgentVersion(ctx, sc.Agent, v.Version); err != nil {
		t.Errorf("delete agent version: %v", err)
	}
	if _, err := c.AgentVersion(ctx, sc.Agent, v.Version); !foundry.IsNotFound(err) {
		t.Errorf("deleted version: err = %v, want not found", err)
	}
	if err := c.DeleteAgent(ctx, sc.Agent); err != nil {
		t.Errorf("delete agent: %v", err)
	}
	if _, err := c.LatestAgentVersion(ctx, sc.Agent); !foundry.IsNotFound(err) {
		t.Errorf("deleted agent: err = %v, want not found", err)
	}
}

// TestContract_Foundry runs the scenario against a real project. It skips,
// never fails, when no endpoint, model or credential is available.
func TestContract_Foundry(t *testing.T) {
	c, model := realProject(t)
	runScenario(t, c, scenario{Agent: contractAgent(""), Model: model})
}
