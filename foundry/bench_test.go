package foundry

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkStreamParse measures Stream parsing of recorded SSE, from bytes
// to app events, without network: "turn" is the recorded code interpreter
// turn, "long" the same turn with 5,000 extra text deltas (a long answer).
// Reports SSE events per second; run with
//
//	go test ./foundry -run '^$' -bench StreamParse -benchmem
func BenchmarkStreamParse(b *testing.B) {
	turn := readTestdata(b, "sse/turn_code_interpreter.sse")
	b.Run("turn", func(b *testing.B) { benchParse(b, turn) })
	b.Run("long", func(b *testing.B) { benchParse(b, longTurn(turn, 5000)) })
}

func benchParse(b *testing.B, data []byte) {
	frames := bytes.Count(data, []byte("\n\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		s := newStream(io.NopCloser(bytes.NewReader(data)), "")
		n := 0
		for s.Next() {
			n++
		}
		if s.Err() != nil || n == 0 {
			b.Fatalf("parse: %d events, %v", n, s.Err())
		}
	}
	b.ReportMetric(float64(frames*b.N)/b.Elapsed().Seconds(), "sse-events/s")
}

// longTurn inserts n text deltas before the completion of a recorded turn.
func longTurn(turn []byte, n int) []byte {
	i := bytes.Index(turn, []byte("event: response.completed"))
	var buf bytes.Buffer
	buf.Write(turn[:i])
	for k := range n {
		fmt.Fprintf(&buf, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"sequence_number\":%d,"+
			"\"item_id\":\"msg_01\",\"output_index\":1,\"content_index\":0,\"delta\":\"word%d \",\"logprobs\":[]}\n\n", 100+k, k)
	}
	buf.Write(turn[i:])
	return buf.Bytes()
}
