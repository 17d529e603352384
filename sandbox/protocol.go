package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// Frame kinds of the worker protocol (see worker.py): a kind byte, a 4-byte
// big-endian length, then the body.
const (
	frameJSON  = 'J'
	frameBlob  = 'B' // a chunk of bytes; an empty one ends a stream
	frameAbort = 'X' // abandons an upload stream
)

// maxFrame bounds a single frame so a confused or hostile worker cannot make
// the host allocate without limit. Chunks are 1 MiB; JSON carries at most the
// output cap twice over plus file listings.
const maxFrame = 64 << 20

// conn is the Go end of the worker protocol. It is not safe for concurrent
// use; a Session serialises calls.
type conn struct {
	r *bufio.Reader
	w *bufio.Writer
}

func newConn(r io.Reader, w io.Writer) *conn {
	return &conn{r: bufio.NewReaderSize(r, 64<<10), w: bufio.NewWriterSize(w, 64<<10)}
}

func (c *conn) writeFrame(kind byte, body []byte) error {
	var head [5]byte
	head[0] = kind
	binary.BigEndian.PutUint32(head[1:], uint32(len(body)))
	if _, err := c.w.Write(head[:]); err != nil {
		return err
	}
	_, err := c.w.Write(body)
	return err
}

func (c *conn) flush() error { return c.w.Flush() }

// send writes one JSON request and flushes it.
func (c *conn) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := c.writeFrame(frameJSON, b); err != nil {
		return err
	}
	return c.flush()
}

func (c *conn) readFrame() (byte, []byte, error) { return c.readFrameMax(maxFrame) }

// readFrameMax reads a frame of at most limit bytes; the length is checked
// before anything is allocated.
func (c *conn) readFrameMax(limit uint32) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return 0, nil, err
	}
	n := binary.BigEndian.Uint32(head[1:])
	if n > limit {
		return 0, nil, fmt.Errorf("sandbox: protocol: frame of %d bytes exceeds %d", n, limit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return 0, nil, err
	}
	return head[0], body, nil
}

// recv reads one JSON frame into v.
func (c *conn) recv(v any) error {
	kind, body, err := c.readFrame()
	if err != nil {
		return err
	}
	if kind != frameJSON {
		return fmt.Errorf("sandbox: protocol: got frame %q, want JSON", kind)
	}
	return json.Unmarshal(body, v)
}

// recvBlob reads one binary frame.
func (c *conn) recvBlob() ([]byte, error) {
	kind, body, err := c.readFrame()
	if err != nil {
		return nil, err
	}
	if kind != frameBlob {
		return nil, fmt.Errorf("sandbox: protocol: got frame %q, want blob", kind)
	}
	return body, nil
}

// Messages of the protocol, as worker.py writes them.
type (
	wireError struct {
		Name      string   `json:"name"`
		Value     string   `json:"value"`
		Traceback []string `json:"traceback"`
	}
	wireValue struct {
		Text string `json:"text"`
		HTML string `json:"html"`
	}
	wireFile struct {
		Name    string `json:"name"`
		Size    int64  `json:"size"`
		MtimeNS int64  `json:"mtime_ns"`
	}
	wireReply struct {
		Op             string          `json:"op"`
		OK             bool            `json:"ok"`
		Error          json.RawMessage `json:"error"` // a string for file ops, an object for exec
		Stdout         string          `json:"stdout"`
		Stderr         string          `json:"stderr"`
		Truncated      bool            `json:"truncated"`
		Value          *wireValue      `json:"value"`
		Figures        []int           `json:"figures"`
		FiguresDropped int             `json:"figures_dropped"`
		Files          []wireFile      `json:"files"`
		Size           int64           `json:"size"`
		DataBytes      int64           `json:"data_bytes"` // bytes under /mnt/data, in the session's memory
	}
)

// errorText returns the error of a file operation's reply, or "".
func (r *wireReply) errorText() string {
	var s string
	if len(r.Error) == 0 || json.Unmarshal(r.Error, &s) != nil {
		return ""
	}
	return s
}

// execError returns the Python exception of an exec reply, or nil.
func (r *wireReply) execError() *ExecError {
	var e wireError
	if len(r.Error) == 0 || json.Unmarshal(r.Error, &e) != nil || e.Name == "" {
		return nil
	}
	return &ExecError{Name: e.Name, Value: e.Value, Traceback: e.Traceback}
}
