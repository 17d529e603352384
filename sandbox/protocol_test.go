package sandbox

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

func TestReadFrame_NeverAllocatesFromThePrefix(t *testing.T) {
	var in bytes.Buffer
	in.WriteByte(frameJSON)
	binary.Write(&in, binary.BigEndian, uint32(30<<20))
	in.WriteString(`{"ok": true}`) // and then the worker stops
	c := newConn(&in, io.Discard)
	var err error
	alloc := hostAlloc(func() { _, _, err = c.readFrame(bound{max: 32 << 20, limit: LimitReplyBytes}) })
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("readFrame = %v, want io.ErrUnexpectedEOF", err)
	}
	if alloc > 1<<20 {
		t.Fatalf("allocated %d bytes for a frame of 12", alloc)
	}
}

func TestReadFrame_RefusesBeforeReading(t *testing.T) {
	in := bytes.NewReader([]byte{frameBlob, 0xff, 0xff, 0xff, 0xff, 'x'})
	c := newConn(in, io.Discard)
	_, _, err := c.readFrame(bound{max: 5 << 20, limit: LimitFigureBytes})
	var le *LimitError
	if !errors.As(err, &le) || le.Got != 1<<32-1 || le.Max != 5<<20 || le.Limit != LimitFigureBytes {
		t.Fatalf("readFrame = %v", err)
	}
}

func TestWireFiles_CountsAsItDecodes(t *testing.T) {
	listing := func(n int) []byte {
		var b strings.Builder
		b.WriteString(`{"ok": true, "files": [`)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"name": "f%d", "size": 1, "mtime_ns": 2}`, i)
		}
		b.WriteString("]}")
		return []byte(b.String())
	}
	tests := []struct {
		n       int
		wantErr bool
	}{{0, false}, {3, false}, {maxListedFiles, false}, {maxListedFiles + 1, true}}
	for _, tt := range tests {
		var r wireReply
		err := decodeJSON(listing(tt.n), &r)
		var le *LimitError
		switch {
		case tt.wantErr && (!errors.As(err, &le) || le.Limit != LimitFiles || le.Got != int64(tt.n)):
			t.Errorf("%d files: err = %v, want a LimitError for files", tt.n, err)
		case !tt.wantErr && (err != nil || len(r.Files) != tt.n):
			t.Errorf("%d files: got %d, %v", tt.n, len(r.Files), err)
		}
	}
}

// decodeJSON decodes a body as recvWithin does.
func decodeJSON(body []byte, v any) error {
	var in bytes.Buffer
	in.WriteByte(frameJSON)
	binary.Write(&in, binary.BigEndian, uint32(len(body)))
	in.Write(body)
	return newConn(&in, io.Discard).recvWithin(v, listingBound)
}

// execReplyFrames is a typical exec reply on the wire: its JSON and one
// figure of 30 KB.
func execReplyFrames() []byte {
	var in bytes.Buffer
	c := &conn{w: bufio.NewWriter(&in)}
	c.writeFrame(frameJSON, []byte(`{"ok": true, "stdout": "   a  b\n0  1  2\n", "stderr": "", "truncated": false, "error": null, `+
		`"value": {"text": "42"}, "figures": [30000], "figures_dropped": 0, "files": [{"name": "out.csv", "size": 120, "mtime_ns": 1}], `+
		`"seconds": 0.01, "data_bytes": 120}`))
	c.writeFrame(frameBlob, bytes.Repeat([]byte{'p'}, 30000))
	c.flush()
	return in.Bytes()
}

// BenchmarkConnExecReply is the host's side of reading one exec reply: the
// frames, the bounds and the decoding, without a sandbox.
func BenchmarkConnExecReply(b *testing.B) {
	wire := execReplyFrames()
	cfg := Config{}.withDefaults()
	b.ReportAllocs()
	for b.Loop() {
		c := newConn(bytes.NewReader(wire), io.Discard)
		var r wireReply
		if err := c.recvWithin(&r, execBound(cfg)); err != nil {
			b.Fatal(err)
		}
		if _, err := c.recvBlobWithin(bound{max: int64(cfg.MaxFigureBytes), limit: LimitFigureBytes}); err != nil {
			b.Fatal(err)
		}
	}
}
