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

// FigureFunc receives a figure a running cell showed (plt.show()) or saved
// as PNG under /mnt/data; name is the saved file's name relative to
// /mnt/data, or "" for a shown figure. It is called on the goroutine of
// Exec and must not block for long. The Result still carries the figures
// open at the cell's end, and Files the saved ones.
type FigureFunc func(f Figure, name string)

type figureKey struct{}

// WithFigures returns a context whose Exec calls, when they also stream
// output (WithOutput), send each figure to fn as soon as the cell shows or
// saves it: at most Config.MaxFigures per cell, each at most
// Config.MaxFigureBytes, as for the figures of a Result.
func WithFigures(ctx context.Context, fn FigureFunc) context.Context {
	return context.WithValue(ctx, figureKey{}, fn)
}

func figuresFrom(ctx context.Context) FigureFunc {
	fn, _ := ctx.Value(figureKey{}).(FigureFunc)
	return fn
}

// partialPrefix starts the partial output frames worker.py writes before a
// cell's reply; checking it spares decoding the reply twice.
var partialPrefix = []byte(`{"partial": true`)

// partialFrame is one piece of a running cell's output, or announces a
// figure of Figure bytes that follows as a blob frame.
type partialFrame struct {
	Text   string `json:"text"`
	Figure int    `json:"figure"`
	Name   string `json:"name"`
}

// outputStream forwards the partial frames of one cell, within the caps.
type outputStream struct {
	fn   OutputFunc
	room int // bytes the cell may still stream
	// figures receives live figures; figuresLeft counts those the cell may
	// still send.
	figures     FigureFunc
	figuresLeft int
}

// recvExecReply reads an exec's reply of at most b into reply, as
// conn.recvWithin does, forwarding the partial output frames that come
// before it. A partial frame is bounded like the reply; what it forwards
// is bounded by the output cap (forward).
func (s *Session) recvExecReply(reply *wireReply, out *outputStream, b bound) error {
	for {
		body, err := s.w.conn.readJSON(b)
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(body, partialPrefix) {
			return decodeReply(body, reply)
		}
		var p partialFrame
		if err := json.Unmarshal(body, &p); err != nil {
			return protocolError("bad partial output: %v", err)
		}
		if p.Figure > 0 {
			if err := s.recvLiveFigure(out, p); err != nil {
				return err
			}
			continue
		}
		out.forward(p.Text)
	}
}

// recvLiveFigure reads the figure a partial frame announced, held to the
// same caps as the figures of a reply: a worker that sends more, or one it
// was not asked for, breaks the protocol.
func (s *Session) recvLiveFigure(out *outputStream, p partialFrame) error {
	if out == nil || out.figures == nil || out.figuresLeft <= 0 {
		return &LimitError{Limit: LimitFigures, Got: int64(s.cfg.MaxFigures + 1), Max: int64(s.cfg.MaxFigures)}
	}
	b, err := s.recvFigure(p.Figure, "live figure")
	if err != nil {
		return err
	}
	out.figuresLeft--
	out.figures(newFigure(b), p.Name)
	return nil
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
