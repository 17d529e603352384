package foundry

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// The recorded-payload contract: bodies the Azure SDKs recorded against the
// live service (testdata/recorded, README there names each source) go
// through the real client, which must read every event and body, find the
// files, tell a shown figure from a saved file, and classify the refusals.

const (
	recordedFileID    = "assistant-XoFcRwENZLR9RMVypCZuHh"
	recordedFilename  = "synthetic_500_quarterly_results.csv"
	recordedContainer = "cntr_699891e28e8c81908899e5643ea7ea930c3ce18a36267e49"
	recordedChart     = "cfile_6998921fb2d881908db8f88df3b07bac"
	recordedResponse  = "resp_0dd56e473b295cc200698e46fd30ec8195a2101bb5124c6f17"
)

// TestRecorded_CodeInterpreterWithFiles replays the GA v1 turn of
// sample_agent_code_interpreter_with_files: upload, agent version,
// conversation, a code interpreter response, the chart's download.
func TestRecorded_CodeInterpreterWithFiles(t *testing.T) {
	png := "\x89PNG\r\n\x1a\nrecorded"
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/files":         {{file: "recorded/ci_with_files_file.json"}},
		"POST /agents/MyAgent/versions": {{file: "recorded/ci_with_files_agent_version.json"}},
		"POST /openai/v1/conversations": {{file: "recorded/ci_with_files_conversation.json"}},
		"POST /openai/v1/responses":     {{file: "recorded/ci_with_files_response.json"}},
		"GET /openai/v1/containers/" + recordedContainer + "/files/" + recordedChart + "/content": {{body: png,
			header: map[string]string{"Content-Disposition": `attachment; filename="file.png"; filename*=UTF-8''transportation_operating_profit_bar_chart.png`}}},
	})
	c, ctx := rs.client(t), context.Background()
	f, err := c.UploadFile(ctx, recordedFilename, strings.NewReader("a,b\n"))
	if err != nil || f.ID != recordedFileID || f.Status != "processed" {
		t.Fatalf("upload: %+v, %v", f, err)
	}
	v, err := c.CreateAgentVersion(ctx, "MyAgent", map[string]any{"kind": "prompt"}, "", nil)
	if err != nil || v.Name != "MyAgent" || v.Version != "245" {
		t.Fatalf("agent version: %+v, %v", v, err)
	}
	conv, err := c.CreateConversation(ctx, nil)
	if err != nil || conv.ID == "" {
		t.Fatalf("conversation: %+v, %v", conv, err)
	}
	r, err := c.CreateResponse(ctx, ResponseRequest{Agent: AgentRef{Name: "MyAgent"}, ConversationID: conv.ID, Input: "chart"})
	if err != nil || r.Status != StatusCompleted || r.ConversationID != conv.ID {
		t.Fatalf("response: %+v, %v", r, err)
	}
	checkRecordedOutput(t, r.Output)
	body, err := c.ContainerFileContent(ctx, recordedContainer, recordedChart)
	if err != nil {
		t.Fatalf("download the cited chart: %v", err)
	}
	got, _ := io.ReadAll(body)
	body.Close()
	if string(got) != png {
		t.Errorf("downloaded %q", got)
	}
}

// checkRecordedOutput: the code names the upload by its mount path, and of
// the two citations the 0..0 one is a figure, the other the saved chart.
func checkRecordedOutput(t *testing.T, out []Item) {
	t.Helper()
	var calls int
	var cites []Citation
	for _, it := range out {
		switch it.Type {
		case "code_interpreter_call":
			calls++
			if it.ContainerID != recordedContainer || it.Status != "completed" {
				t.Errorf("call %s: container %q, status %q", it.ID, it.ContainerID, it.Status)
			}
		case "message":
			cites = append(cites, it.Citations...)
		}
	}
	if calls != 4 || !strings.Contains(out[0].Code, MountPath(recordedFileID, recordedFilename)) {
		t.Errorf("%d calls; first code %q does not read %s", calls, out[0].Code, MountPath(recordedFileID, recordedFilename))
	}
	if len(cites) != 2 {
		t.Fatalf("citations %+v, want 2", cites)
	}
	if !cites[0].IsFigure() || cites[1].IsFigure() {
		t.Errorf("IsFigure: %v for %+v, %v for %+v; want the 0..0 cfile_….png only", cites[0].IsFigure(), cites[0], cites[1].IsFigure(), cites[1])
	}
	if cites[1].FileID != recordedChart || cites[1].Filename != "transportation_operating_profit_bar_chart.png" {
		t.Errorf("saved chart cited as %+v", cites[1])
	}
}

// TestRecorded_BackgroundStream replays a background streamed response and
// its later GET ?stream=true (the same 20 events): every event reads, the
// answer is whole, and the resume asks for an event stream.
func TestRecorded_BackgroundStream(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/responses":                    {{file: "recorded/background_stream.sse"}},
		"GET /openai/v1/responses/" + recordedResponse: {{file: "recorded/background_stream.sse"}},
	})
	c := rs.client(t)
	s, err := c.StreamResponse(context.Background(), bgTurn)
	if err != nil {
		t.Fatal(err)
	}
	first := recordedEvents(t, s)
	s, err = c.ResumeResponse(context.Background(), recordedResponse, -1)
	if err != nil {
		t.Fatal(err)
	}
	again := recordedEvents(t, s)
	// A resumed stream knows its response already, so it announces no
	// created event; everything after it is the same.
	if strings.Join(first[1:], ",") != strings.Join(again, ",") {
		t.Errorf("replay differs:\n%v\n%v", first, again)
	}
	get := rs.requests()[1]
	if get.Header.Get("Accept") != "text/event-stream" || strings.Contains(get.Query, "starting_after") {
		t.Errorf("resume sent Accept %q, query %q", get.Header.Get("Accept"), get.Query)
	}
}

// recordedEvents reads the recorded stream to its end and checks it.
func recordedEvents(t *testing.T, s *Stream) []string {
	t.Helper()
	defer s.Close()
	var types []string
	var text string
	var last int64 = -1
	for s.Next() {
		e := s.Event()
		types = append(types, string(e.Type))
		if e.Sequence < last {
			t.Errorf("sequence went back from %d to %d", last, e.Sequence)
		}
		last = e.Sequence
		if e.Type == EventTextDelta {
			text += e.Text
		}
	}
	if s.Err() != nil || text != "Hello! How can I help you today?" || s.ResponseID() != recordedResponse || last != 19 {
		t.Fatalf("err %v, text %q, response %q, last seq %d", s.Err(), text, s.ResponseID(), last)
	}
	if !slices.Contains(types, string(EventQueued)) || types[len(types)-1] != string(EventCompleted) {
		t.Errorf("events %v, want queued, …, completed", types)
	}
	return types
}

// TestRecorded_ListResponses: the recorded listing reads, agent_reference
// null and partition_key included, and FindResponse looks in it.
func TestRecorded_ListResponses(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"GET /openai/v1/responses": {{file: "recorded/list_responses.json"}}})
	_, found, err := rs.client(t).FindResponse(context.Background(), bgTurn)
	if err != nil || found {
		t.Fatalf("found %v, err %v; the recorded responses carry no request key", found, err)
	}
	q := rs.requests()[0].Query
	if !strings.Contains(q, "conversation_id=conv_1") || !strings.Contains(q, "order=desc") {
		t.Errorf("listed with %q", q)
	}
	var page wirePage[json.RawMessage]
	if err := json.Unmarshal(readTestdata(t, "recorded/list_responses.json"), &page); err != nil {
		t.Fatal(err)
	}
	for _, raw := range page.Data {
		r, err := responseFrom(string(raw))
		if err != nil || r.Status != StatusCompleted || r.ConversationID == "" || len(r.Output) != 1 || r.Output[0].Text == "" {
			t.Errorf("listed response %+v, %v", r, err)
		}
	}
}

// TestRecorded_Refusals: both expiry wordings are expiry, and a 429
// without retry-after is a rate limit with no wait named.
func TestRecorded_Refusals(t *testing.T) {
	tests := []struct {
		file    string
		status  int
		expired bool
		limited bool
	}{
		{"recorded/container_expired_400.json", http.StatusBadRequest, true, false},
		{"recorded/expected_container_400.json", http.StatusBadRequest, true, false},
		{"recorded/rate_limit_bare_429.json", http.StatusTooManyRequests, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			rs := newReplay(t, map[string][]reply{"POST /openai/v1/responses": {{status: tt.status, file: tt.file}}})
			c, err := New(Config{Endpoint: rs.URL + testProject, Credential: StaticToken(testToken), MaxRetries: -1})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateResponse(context.Background(), ResponseRequest{Agent: AgentRef{Name: "a"}, Input: "x"})
			if IsContainerExpired(err) != tt.expired || IsRateLimited(err) != tt.limited {
				t.Errorf("%v: expired %v, rate limited %v", err, IsContainerExpired(err), IsRateLimited(err))
			}
		})
	}
}
