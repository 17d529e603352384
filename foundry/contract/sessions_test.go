package contract_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/analyst-workbench/workbench/foundry"
)

// The session scenarios check what the chat layer relies on beyond one
// turn: how a conversation behaves after its container expired, that Stop
// stops a background response and frees the conversation, that a file
// attached on a later turn reaches the container, and that a cut stream
// resumes with starting_after. Each runs against the emulator (strict, as
// the hosted service) and, when configured, a real project.

// sessionAgent ensures the agent of a session scenario (two file slots)
// and deletes it when the test ends.
func sessionAgent(ctx context.Context, t *testing.T, c *foundry.Client, sc scenario) foundry.AgentRef {
	t.Helper()
	v, err := c.EnsureAgent(ctx, foundry.AgentSpec{Name: sc.Agent, Model: sc.Model, Instructions: contractInstructions, FileSlots: 2})
	if err != nil {
		t.Fatalf("ensure agent: %v", err)
	}
	t.Cleanup(func() { _ = c.DeleteAgent(context.Background(), sc.Agent) })
	return foundry.AgentRef{Name: v.Name, Version: v.Version}
}

func upload(ctx context.Context, t *testing.T, c *foundry.Client, name, content string) string {
	t.Helper()
	f, err := c.UploadFile(ctx, name, strings.NewReader(content))
	if err != nil {
		t.Fatalf("upload %s: %v", name, err)
	}
	t.Cleanup(func() { _ = c.DeleteFile(context.Background(), f.ID) })
	return f.ID
}

func conversation(ctx context.Context, t *testing.T, c *foundry.Client, seed ...foundry.Message) string {
	t.Helper()
	conv, err := c.CreateConversation(ctx, map[string]string{"suite": "foundry-contract"}, seed...)
	if err != nil {
		t.Fatalf("create conversation: %v", err)
	}
	t.Cleanup(func() { _ = c.DeleteConversation(context.Background(), conv.ID) })
	return conv.ID
}

// turn streams one background turn with files in the slots and returns what
// it yielded, or the error that ended it (before or inside the stream).
func turn(ctx context.Context, c *foundry.Client, agent foundry.AgentRef, convID, code string, fileIDs ...string) (turnResult, error) {
	inputs, err := foundry.SlotInputs(fileIDs, 2)
	if err != nil {
		return turnResult{}, err
	}
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{Agent: agent, ConversationID: convID, Background: true,
		Input: "Run this.\n\n```python\n" + code + "\n```", StructuredInputs: inputs})
	if err != nil {
		return turnResult{}, err
	}
	defer s.Close()
	var r turnResult
	for s.Next() {
		e := s.Event()
		switch e.Type {
		case foundry.EventCodeDone:
			r.code, r.containerID = r.code+e.Text, e.ContainerID
		case foundry.EventLogs:
			r.logs += e.Text
		case foundry.EventTextDelta:
			r.text += e.Text
		case foundry.EventItemDone:
			if e.Item.Type == foundry.ItemCodeCall && e.Item.ContainerID != "" {
				r.containerID = e.Item.ContainerID
			}
		case foundry.EventCompleted:
			r.completed = e.Status == "completed"
		}
	}
	r.responseID = s.ResponseID()
	return r, s.Err()
}

// containerText downloads the text file the turn's code wrote under name.
func containerText(ctx context.Context, t *testing.T, c *foundry.Client, containerID, name string) string {
	t.Helper()
	files, err := c.ContainerFiles(ctx, containerID)
	if err != nil {
		t.Fatalf("list container files: %v", err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Path, "/"+name) {
			rc, err := c.ContainerFileContent(ctx, containerID, f.ID)
			if err != nil {
				t.Fatalf("download %s: %v", name, err)
			}
			defer rc.Close()
			var b bytes.Buffer
			b.ReadFrom(rc)
			return b.String()
		}
	}
	t.Fatalf("%s not in container %s (%d files)", name, containerID, len(files))
	return ""
}

// readAttached finds an attached file by its name's end (the mount name of
// attached files is not documented) and writes what it read to out.
func readAttached(suffix, out string) string {
	return `import glob, pandas as pd
src = next(p for p in sorted(glob.glob("/mnt/data/*")) if p.endswith("` + suffix + `"))
df = pd.read_csv(src)
open("/mnt/data/` + out + `", "w").write("rows=%d sum=%d" % (len(df), int(df.iloc[:, -1].sum())))
print(open("/mnt/data/` + out + `").read())`
}

// runExpiredTurn: after the conversation's container expired, a turn in it
// either works or fails with an error IsContainerExpired recognises (the
// chat layer then moves on); a new conversation seeded with a summary then
// works, with the files attached again.
func runExpiredTurn(t *testing.T, c *foundry.Client, sc scenario, expire func()) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Minute)
	defer cancel()
	agent := sessionAgent(ctx, t, c, sc)
	fileID := upload(ctx, t, c, "sales.csv", contractCSV)
	convID := conversation(ctx, t, c)
	if _, err := turn(ctx, c, agent, convID, "x = 1\nprint('first')", fileID); err != nil {
		t.Fatalf("first turn: %v", err)
	}
	expire()
	_, err := turn(ctx, c, agent, convID, "print('again')", fileID)
	switch {
	case err == nil:
		t.Log("the service continued the conversation after its container expired")
	case foundry.IsContainerExpired(err):
		t.Logf("the expired conversation is refused: %v", err)
	default:
		t.Fatalf("turn after expiry failed in a way the chat layer does not recognise: %v", err)
	}
	fresh := conversation(ctx, t, c, foundry.Message{Role: "user", Text: "[Note] The earlier session ended; sales.csv is attached again."},
		foundry.Message{Role: "user", Text: "Sum the sales."}, foundry.Message{Role: "assistant", Text: "The total is 60."})
	r, err := turn(ctx, c, agent, fresh, readAttached("sales.csv", "after_expiry.txt"), fileID)
	if err != nil || !r.completed {
		t.Fatalf("turn in the new conversation: %v (completed %v)", err, r.completed)
	}
	if got := containerText(ctx, t, c, r.containerID, "after_expiry.txt"); got != "rows=3 sum=60" {
		t.Errorf("the new session read %q from the file attached again", got)
	}
}

// runStopThenTurn: a background turn is cancelled while its code runs; the
// service confirms the cancel, and the conversation takes the next turn.
func runStopThenTurn(t *testing.T, c *foundry.Client, sc scenario) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	agent := sessionAgent(ctx, t, c, sc)
	convID := conversation(ctx, t, c)
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{Agent: agent, ConversationID: convID, Background: true,
		Input: "Run this.\n\n```python\nimport time\nprint('sleeping', flush=True)\ntime.sleep(120)\n```"})
	if err != nil {
		t.Fatal(err)
	}
	for s.Next() {
		if e := s.Event(); e.Type == foundry.EventCodeDone || e.Type == foundry.EventCodeStatus && e.Status == "interpreting" {
			break
		}
	}
	s.Close()
	id := s.ResponseID()
	if id == "" {
		t.Fatalf("no response id before the code ran (err %v)", s.Err())
	}
	start := time.Now()
	if _, err := c.CancelResponse(ctx, id); err != nil {
		t.Fatalf("cancel: %v", err)
	}
	r, err := c.WaitResponse(ctx, id)
	if err != nil || r.Status != foundry.StatusCancelled {
		t.Fatalf("after cancel: %q, %v; want cancelled", r.Status, err)
	}
	t.Logf("cancelled in %v", time.Since(start))
	if again, err := c.CancelResponse(ctx, id); err != nil || again.Status != foundry.StatusCancelled {
		t.Errorf("a second cancel: %q, %v; want the cancelled response again", again.Status, err)
	}
	next, err := turn(ctx, c, agent, convID, "print('next')")
	if err != nil || !next.completed {
		t.Fatalf("turn after Stop: %v", err)
	}
}

// runLateFile: the second turn of a conversation attaches a file the first
// did not; the code of the second turn reads it.
func runLateFile(t *testing.T, c *foundry.Client, sc scenario) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	agent := sessionAgent(ctx, t, c, sc)
	first := upload(ctx, t, c, "sales.csv", contractCSV)
	late := upload(ctx, t, c, "costs.csv", "month,cost\njan,1\nfeb,2\nmar,4\napr,8\n")
	convID := conversation(ctx, t, c)
	if _, err := turn(ctx, c, agent, convID, readAttached("sales.csv", "first.txt"), first); err != nil {
		t.Fatalf("first turn: %v", err)
	}
	r, err := turn(ctx, c, agent, convID, readAttached("costs.csv", "late.txt"), first, late)
	if err != nil || !r.completed {
		t.Fatalf("second turn: %v", err)
	}
	if got := containerText(ctx, t, c, r.containerID, "late.txt"); got != "rows=4 sum=15" {
		t.Errorf("the late file read as %q", got)
	}
}

// runCutAndResume: the client drops the stream after a few events and
// opens it again with starting_after; the events before and after add up to
// the finished answer, nothing lost or repeated.
func runCutAndResume(t *testing.T, c *foundry.Client, sc scenario) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	agent := sessionAgent(ctx, t, c, sc)
	s, err := c.StreamResponse(ctx, foundry.ResponseRequest{Agent: agent, Background: true,
		Input: "Run this.\n\n```python\nfor i in range(3):\n    print('line', i)\n```"})
	if err != nil {
		t.Fatal(err)
	}
	var deltas, final strings.Builder
	var last int64
	for n := 0; n < 4 && s.Next(); n++ { // response.created, in_progress, a code event or two
		e := s.Event()
		if e.Type == foundry.EventCodeDelta || e.Type == foundry.EventTextDelta {
			deltas.WriteString(e.Text)
		}
		last = e.Sequence
	}
	s.Close()
	r, err := c.ResumeResponse(ctx, s.ResponseID(), last)
	if err != nil {
		t.Fatalf("resume after %d: %v", last, err)
	}
	defer r.Close()
	if _, completed := collect(r, &deltas, &final); !completed || r.Err() != nil {
		t.Fatalf("resumed stream: completed %v, err %v", completed, r.Err())
	}
	if deltas.String() != final.String() || !strings.Contains(final.String(), "line") {
		t.Errorf("deltas before and after the cut = %q, want them to add up to %q", deltas.String(), final.String())
	}
}

// contractAgent is the agent name a scenario uses in a real project.
func contractAgent(suffix string) string {
	name := os.Getenv("FOUNDRY_CONTRACT_AGENT")
	if name == "" {
		name = "workbench-contract"
	}
	return name + suffix
}

func TestContract_FoundryStopThenTurn(t *testing.T) {
	c, model := realProject(t)
	runStopThenTurn(t, c, scenario{Agent: contractAgent("-stop"), Model: model})
}

func TestContract_FoundryLateFile(t *testing.T) {
	c, model := realProject(t)
	runLateFile(t, c, scenario{Agent: contractAgent("-late"), Model: model})
}

func TestContract_FoundryCutAndResume(t *testing.T) {
	c, model := realProject(t)
	runCutAndResume(t, c, scenario{Agent: contractAgent("-resume"), Model: model})
}

// TestContract_FoundryExpiredTurn waits out the hosted session's 30 idle
// minutes, so it runs only when FOUNDRY_CONTRACT_EXPIRY is set as well.
func TestContract_FoundryExpiredTurn(t *testing.T) {
	if os.Getenv("FOUNDRY_CONTRACT_EXPIRY") == "" {
		t.Skip("FOUNDRY_CONTRACT_EXPIRY not set (the test waits 31 minutes)")
	}
	c, model := realProject(t)
	runExpiredTurn(t, c, scenario{Agent: contractAgent("-expiry"), Model: model}, func() { time.Sleep(31 * time.Minute) })
}

// realProject returns a client of the project named by the environment, or
// skips (never fails) when there is none.
func realProject(t *testing.T) (*foundry.Client, string) {
	t.Helper()
	endpoint := os.Getenv("FOUNDRY_PROJECT_ENDPOINT")
	model := os.Getenv("FOUNDRY_MODEL_DEPLOYMENT")
	if endpoint == "" || model == "" {
		t.Skip("FOUNDRY_PROJECT_ENDPOINT and FOUNDRY_MODEL_DEPLOYMENT not set")
	}
	cred, err := foundry.DefaultCredential()
	if err != nil {
		t.Skipf("no credential: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: []string{foundry.Scope}}); err != nil {
		t.Skipf("no token for %s: %v", foundry.Scope, err)
	}
	c, err := foundry.New(foundry.Config{Endpoint: endpoint, Credential: cred})
	if err != nil {
		t.Fatal(err)
	}
	return c, model
}
