package emulator

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

func (ts *testServer) openAI(opts ...option.RequestOption) openai.Client {
	return openai.NewClient(append([]option.RequestOption{option.WithBaseURL(ts.base + "/openai/v1/"),
		option.WithAPIKey(testToken)}, opts...)...)
}

// TestOpenAIGoClient drives a whole turn with the official openai-go client, as the workbench's
// foundry package does: upload, conversation, streamed response with Foundry's extra fields,
// items, and the download of the cited file.
func TestOpenAIGoClient(t *testing.T) {
	ts := newTestServer(t)
	ts.createAgent("analyst")
	client := ts.openAI()
	ctx := context.Background()
	f, err := client.Files.New(ctx, openai.FileNewParams{Purpose: openai.FilePurposeAssistants,
		File: openai.File(strings.NewReader("x,y\n1,2\n3,5\n"), "points.csv", "text/csv")})
	if err != nil {
		t.Fatal(err)
	}
	if f.Filename != "points.csv" || f.Bytes != 12 || f.Purpose != "assistants" {
		t.Errorf("file %+v", f)
	}
	conv, err := client.Conversations.New(ctx, conversations.ConversationNewParams{})
	if err != nil {
		t.Fatal(err)
	}
	stream := client.Responses.NewStreaming(ctx, responses.ResponseNewParams{
		Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String("```python\nimport pandas as pd\ndf = pd.read_csv('/mnt/data/" + f.ID + "-points.csv')\ndf.describe().to_csv('/mnt/data/summary.csv')\nprint(df.y.max())\n```")},
		Conversation: responses.ResponseNewParamsConversationUnion{OfString: openai.String(conv.ID)},
		Include:      []responses.ResponseIncludable{responses.ResponseIncludableCodeInterpreterCallOutputs},
	}, option.WithJSONSet("agent_reference", map[string]any{"type": "agent_reference", "name": "analyst"}),
		option.WithJSONSet("structured_inputs", map[string]any{"f1": f.ID, "f2": ""}))
	var final responses.Response
	var containerID, fileID, code string
	for stream.Next() {
		switch e := stream.Current().AsAny().(type) {
		case responses.ResponseCodeInterpreterCallCodeDeltaEvent:
			code += e.Delta
		case responses.ResponseOutputTextAnnotationAddedEvent:
			containerID, fileID = e.Annotation.ContainerID, e.Annotation.FileID
		case responses.ResponseCompletedEvent:
			final = e.Response
		}
	}
	if err := stream.Err(); err != nil {
		t.Fatal(err)
	}
	if final.Status != responses.ResponseStatusCompleted || !strings.Contains(final.OutputText(), "summary.csv") {
		t.Fatalf("final: status %q, text %q", final.Status, final.OutputText())
	}
	if !strings.Contains(code, "describe()") {
		t.Errorf("code deltas %q", code)
	}
	if ref := final.JSON.ExtraFields["agent_reference"].Raw(); !strings.Contains(ref, `"name":"analyst"`) {
		t.Errorf("agent_reference %s", ref)
	}
	call := final.Output[0].AsCodeInterpreterCall()
	if call.ContainerID != containerID || call.Outputs[0].Logs != "5\n" {
		t.Errorf("call container %q (cited %q), outputs %+v", call.ContainerID, containerID, call.Outputs)
	}
	content, err := client.Containers.Files.Content.Get(ctx, containerID, fileID)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(content.Body)
	content.Body.Close()
	if !strings.HasPrefix(string(data), ",x,y\ncount,2.0,2.0") {
		t.Errorf("downloaded %q", data)
	}
	items, err := client.Conversations.Items.List(ctx, conv.ID, conversations.ItemListParams{Order: conversations.ItemListParamsOrderAsc})
	if err != nil {
		t.Fatal(err)
	}
	if len(items.Data) != 3 || items.Data[1].Type != "code_interpreter_call" || items.Data[2].Type != "message" {
		t.Errorf("items %+v", items.Data)
	}
	checkOpenAIGoNonStream(t, client, conv.ID, containerID)
}

// checkOpenAIGoNonStream runs a second, non-streamed turn in the same conversation (and so the
// same container) and reads it back with Get and the container file list.
func checkOpenAIGoNonStream(t *testing.T, client openai.Client, convID, containerID string) {
	ctx := context.Background()
	resp, err := client.Responses.New(ctx, responses.ResponseNewParams{
		Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String("```python\nprint(len(df))\n```")},
		Conversation: responses.ResponseNewParamsConversationUnion{OfConversationObject: &responses.ResponseConversationParam{ID: convID}},
	}, option.WithJSONSet("agent_reference", map[string]any{"type": "agent_reference", "name": "analyst"}))
	if err != nil {
		t.Fatal(err)
	}
	call := resp.Output[0].AsCodeInterpreterCall()
	if resp.Status != responses.ResponseStatusCompleted || call.ContainerID != containerID || len(call.Outputs) != 0 ||
		!strings.Contains(resp.OutputText(), "2") || resp.Usage.TotalTokens == 0 {
		t.Errorf("non-streamed turn: status %q, container %q, outputs %v, text %q, usage %+v",
			resp.Status, call.ContainerID, call.Outputs, resp.OutputText(), resp.Usage)
	}
	again, err := client.Responses.Get(ctx, resp.ID, responses.ResponseGetParams{})
	if err != nil || again.ID != resp.ID || again.Conversation.ID != convID {
		t.Errorf("get: %v, %+v", err, again)
	}
	files, err := client.Containers.Files.List(ctx, containerID, openai.ContainerFileListParams{})
	if err != nil || len(files.Data) != 2 {
		t.Fatalf("container files: %v, %+v", err, files)
	}
	if files.Data[0].Path != "/mnt/data/summary.csv" || files.Data[1].Source != "user" {
		t.Errorf("container files %+v", files.Data)
	}
}

// TestOpenAIGoRetriesInjected429 checks that a configured 429 carries headers that the
// official client honours, and that the retry then succeeds.
func TestOpenAIGoRetriesInjected429(t *testing.T) {
	ts := newTestServer(t, func(c *Config) {
		c.Faults = Faults{Always: []string{"429:2"}, RetryAfter: 20 * time.Millisecond}
	})
	start := time.Now()
	retrying := ts.openAI(option.WithMaxRetries(2))
	conv, err := retrying.Conversations.New(context.Background(), conversations.ConversationNewParams{})
	if err != nil {
		t.Fatalf("after two injected 429s: %v", err)
	}
	if conv.ID == "" || time.Since(start) > 5*time.Second {
		t.Errorf("conversation %q after %v", conv.ID, time.Since(start))
	}
	once := ts.openAI(option.WithMaxRetries(0))
	if _, err := once.Conversations.Get(context.Background(), conv.ID); err != nil {
		t.Errorf("faults should be used up: %v", err)
	}
}
