package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
)

// OutputFunc receives what a running cell printed since the last call
// (stdout and stderr, in the order written). It is called on the goroutine
// of Exec, at most about ten times a second, and must not block for long:
// the cell's reply waits behind it.
type OutputFunc func(text string)

type outputKey struct{}

// WithOutput returns a context whose Exec calls stream the cell's output to
// fn while it runs, as WithWaitTrace does for waits. The Result still
// carries the whole output; streamed text is never more than the output
// cap (Config.MaxOutputBytes) of one cell.
func WithOutput(ctx context.Context, fn OutputFunc) context.Context {
	return context.WithValue(ctx, outputKey{}, fn)
}

func outputFrom(ctx context.Context) OutputFunc {
	fn, _ := ctx.Value(outputKey{}).(OutputFunc)
	return fn
}

// partialPrefix starts the partial output frames worker.py writes before a
// cell's reply; checking it spares decoding the reply twice.
var partialPrefix = []byte(`{"partial": true`)

// partialFrame is one piece of a running cell's output.
type partialFrame struct {
	Text string `json:"text"`
}

// outputStream forwards the partial frames of one cell, within the cap.
type outputStream struct {
	fn   OutputFunc
	room int // bytes the cell may still stream
}

// recvExecReply reads an exec's reply of at most b into reply, as
// conn.recvWithin does, forwarding the partial output frames that come
// before it. A partial frame is bounded like the reply; what it forwards
// is bounded by the output cap (forward).
func (s *Session) recvExecReply(reply *wireReply, out *outputStream, b bound) error {
	for {
		kind, body, err := s.w.conn.readFrame(b)
		if err != nil {
			return err
		}
		if kind != frameJSON {
			return protocolError("got frame %q, want JSON", kind)
		}
		if !bytes.HasPrefix(body, partialPrefix) {
			return decodeReply(body, reply)
		}
		var p partialFrame
		if err := json.Unmarshal(body, &p); err != nil {
			return protocolError("bad partial output: %v", err)
		}
		out.forward(p.Text)
	}
}

// decodeReply decodes a reply's JSON: a limit the decoding met (a listing
// too long) is returned as it is, anything else is the protocol broken.
func decodeReply(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		var limit *LimitError
		if errors.As(err, &limit) {
			return limit
		}
		return protocolError("bad JSON: %v", err)
	}
	return nil
}

// forward passes text on, cut to the room left under the cap; past it the
// rest waits for the reply, which says the output was truncated.
func (o *outputStream) forward(text string) {
	if o == nil || o.fn == nil || o.room <= 0 || text == "" {
		return
	}
	if len(text) > o.room {
		text, _ = capBytes(text, o.room)
	}
	o.room -= len(text)
	if text != "" {
		o.fn(text)
	}
}
