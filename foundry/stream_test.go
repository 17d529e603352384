package foundry

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// readStream parses an SSE fixture and returns every event and the error.
func readStream(t testing.TB, name string) ([]Event, error) {
	t.Helper()
	s := newStream(io.NopCloser(bytes.NewReader(readTestdata(t, filepath.Join("sse", name)))), "req-1")
	var evs []Event
	for s.Next() {
		evs = append(evs, s.Event())
	}
	return evs, s.Err()
}

func types(evs []Event) []EventType {
	out := make([]EventType, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}

func TestStream_Golden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "sse", "*.sse"))
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			evs, err := readStream(t, name)
			got := goldenJSON(t, evs, err)
			golden := filepath.Join("testdata", "sse", strings.TrimSuffix(name, ".sse")+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, rerr := os.ReadFile(golden)
			if rerr != nil {
				t.Fatalf("%v (run go test -update)", rerr)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("events differ from %s (go test -update, then review the diff):\n%s", golden, got)
			}
		})
	}
}

func goldenJSON(t *testing.T, evs []Event, err error) []byte {
	t.Helper()
	for i := range evs {
		if evs[i].Item != nil {
			it := *evs[i].Item
			it.Raw = nil // the fixture already holds it
			evs[i].Item = &it
		}
	}
	errText := ""
	if err != nil {
		errText = err.Error()
	}
	b, merr := json.MarshalIndent(struct {
		Events []Event
		Err    string
	}{evs, errText}, "", "  ")
	if merr != nil {
		t.Fatal(merr)
	}
	return append(b, '\n')
}

func TestStream_Turn(t *testing.T) {
	evs, err := readStream(t, "turn_code_interpreter.sse")
	if err != nil {
		t.Fatalf("Err() = %v, want nil", err)
	}
	want := []EventType{EventCreated, EventItemAdded, EventCodeStatus, EventCodeDelta, EventCodeDelta,
		EventCodeDelta, EventCodeDone, EventCodeStatus, EventCodeStatus, EventLogs, EventImage, EventItemDone,
		EventItemAdded, EventTextDelta, EventTextDelta, EventTextDelta, EventFileCitation, EventItemDone,
		EventUsage, EventCompleted}
	if got := types(evs); !slices.Equal(got, want) {
		t.Fatalf("types:\n got %v\nwant %v", got, want)
	}
	var code, text strings.Builder
	for _, e := range evs {
		switch e.Type {
		case EventCodeDelta:
			code.WriteString(e.Text)
		case EventTextDelta:
			text.WriteString(e.Text)
		}
		if e.ResponseID != "resp_01" || e.ConversationID != "conv_01" {
			t.Errorf("%s: response/conversation = %q/%q", e.Type, e.ResponseID, e.ConversationID)
		}
	}
	if done := evs[6]; done.Text != code.String() || done.ItemID != "ci_01" || done.ContainerID != "cntr_01" {
		t.Errorf("code done = %+v, want the joined deltas in ci_01/cntr_01", done)
	}
	if logs := evs[9]; !strings.Contains(logs.Text, "jan") || logs.ContainerID != "cntr_01" {
		t.Errorf("logs = %+v", logs)
	}
	if img := evs[10]; !strings.HasPrefix(img.Output.URL, "data:image/png") || img.ItemID != "ci_01" {
		t.Errorf("image = %+v", img)
	}
	wantCite := Citation{ContainerID: "cntr_01", FileID: "cfile_01", Filename: "chart.png", StartIndex: 31, EndIndex: 71}
	if c := evs[16].Citation; c != wantCite {
		t.Errorf("citation = %+v, want %+v", c, wantCite)
	}
	if got := text.String()[31:71]; got != "[chart.png](sandbox:/mnt/data/chart.png)" {
		t.Errorf("citation span = %q", got)
	}
	if u := evs[18].Usage; u.TotalTokens != 908 || u.CachedTokens != 128 {
		t.Errorf("usage = %+v", u)
	}
	if c := evs[19]; c.Status != "completed" {
		t.Errorf("completed status = %q", c.Status)
	}
}

func TestStream_Endings(t *testing.T) {
	tests := []struct {
		name      string
		wantTypes []EventType
		wantMsg   string // APIError message; "" = no APIError
		wantCode  string
		wantEnded bool // Err wraps ErrStreamEnded
		wantNoErr bool
	}{
		{name: "failed.sse", wantTypes: []EventType{EventCreated, EventTextDelta, EventFailed},
			wantMsg: "The model produced invalid content.", wantCode: "server_error"},
		{name: "error_event.sse", wantTypes: []EventType{EventCreated, EventCodeDelta, EventFailed},
			wantMsg: "Rate limit reached.", wantCode: "rate_limit_exceeded"},
		{name: "error_nested.sse", wantTypes: []EventType{EventCreated, EventFailed},
			wantMsg: "Container is expired."},
		{name: "truncated.sse", wantTypes: []EventType{EventCreated, EventTextDelta, EventTextDelta}, wantEnded: true},
		{name: "incomplete.sse", wantTypes: []EventType{EventCreated, EventTextDelta, EventUsage, EventCompleted}, wantNoErr: true},
		{name: "unknown_events.sse", wantTypes: []EventType{EventCreated, EventItemAdded, EventItemDone, EventCompleted}, wantNoErr: true},
		{name: "text_without_deltas.sse", wantTypes: []EventType{EventCreated, EventItemAdded, EventTextDelta, EventItemDone,
			EventTextDelta, EventItemDone, EventCompleted}, wantNoErr: true},
		{name: "completed_only.sse", wantTypes: []EventType{EventCreated, EventTextDelta, EventCodeDone, EventLogs,
			EventItemDone, EventFileCitation, EventItemDone, EventUsage, EventCompleted}, wantNoErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := readStream(t, tt.name)
			if got := types(evs); !slices.Equal(got, tt.wantTypes) {
				t.Errorf("types:\n got %v\nwant %v", got, tt.wantTypes)
			}
			if tt.wantNoErr != (err == nil) {
				t.Fatalf("Err() = %v", err)
			}
			if tt.wantEnded != errors.Is(err, ErrStreamEnded) {
				t.Errorf("Err() = %v, ErrStreamEnded wanted: %v", err, tt.wantEnded)
			}
			var ae *APIError
			if tt.wantMsg != "" {
				if !errors.As(err, &ae) {
					t.Fatalf("Err() = %v, want *APIError", err)
				}
				if ae.Code != tt.wantCode || ae.RequestID != "req-1" || ae.Message != tt.wantMsg {
					t.Errorf("APIError = %+v, want code %q, message %q, request req-1", ae, tt.wantCode, tt.wantMsg)
				}
				if last := evs[len(evs)-1]; last.Err != ae {
					t.Errorf("failed event Err = %v, want the stream's error", last.Err)
				}
			}
		})
	}
}

// TestStream_Framing feeds the recorded turn with CRLF line ends, and with
// every JSON payload split over two data: lines, and expects the same events.
func TestStream_Framing(t *testing.T) {
	raw := readTestdata(t, "sse/turn_code_interpreter.sse")
	want, err := readStreamBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string][]byte{
		"crlf":           bytes.ReplaceAll(raw, []byte("\n"), []byte("\r\n")),
		"multiline data": bytes.ReplaceAll(raw, []byte(`,"sequence_number"`), []byte("\ndata: ,\"sequence_number\"")),
	}
	for name, data := range variants {
		t.Run(name, func(t *testing.T) {
			got, err := readStreamBytes(data)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := goldenJSON(t, got, nil), goldenJSON(t, want, nil); !bytes.Equal(a, b) {
				t.Errorf("events differ:\n%s", a)
			}
		})
	}
}

func TestStream_LooseAndBrokenJSON(t *testing.T) {
	tests := []struct {
		name      string
		sse       string
		wantTypes []EventType
		wantErr   bool
	}{
		{name: "wrong field types are tolerated",
			sse: "data: {\"type\":\"response.output_text.delta\",\"sequence_number\":\"5\",\"output_index\":\"1\",\"item_id\":\"m\",\"delta\":\"hi\"}\n\n" +
				"data: {\"type\":\"response.completed\",\"response\":{\"id\":\"r\",\"status\":\"completed\",\"usage\":{\"input_tokens\":\"n/a\"}}}\n\n",
			wantTypes: []EventType{EventTextDelta, EventUsage, EventCompleted}},
		{name: "broken JSON fails the stream",
			sse:       "data: {\"type\":\"response.output_text.delta\",\"delta\":\"hi\"}\n\ndata: {\"type\":\n\n",
			wantTypes: []EventType{EventTextDelta, EventFailed}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := readStreamBytes([]byte(tt.sse))
			if got := types(evs); !slices.Equal(got, tt.wantTypes) {
				t.Errorf("types = %v, want %v", got, tt.wantTypes)
			}
			if (err != nil) != tt.wantErr {
				t.Errorf("Err() = %v, wantErr %v", err, tt.wantErr)
			}
			if len(evs) > 0 && evs[0].Text != "hi" {
				t.Errorf("delta = %q, want hi", evs[0].Text)
			}
		})
	}
}

func readStreamBytes(data []byte) ([]Event, error) {
	s := newStream(io.NopCloser(bytes.NewReader(data)), "req-1")
	var evs []Event
	for s.Next() {
		evs = append(evs, s.Event())
	}
	return evs, s.Err()
}
