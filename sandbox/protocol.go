package sandbox

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"io"
)

// Frame kinds of the worker protocol (see worker.py): a kind byte, a 4-byte
// big-endian length, then the body.
const (
	frameJSON  = 'J'
	frameBlob  = 'B' // a chunk of bytes; an empty one ends a stream
	frameAbort = 'X' // abandons an upload stream
)

// firstRead is the most a frame's buffer starts with; it grows as bytes
// arrive, so a length prefix (the worker's word) never sizes an allocation.
const firstRead = 64 << 10

// bound is the most a frame may hold and the limit to name when a frame
// announces more. A bound without a limit names a protocol violation.
type bound struct {
	max   int64
	limit Limit
}

// refuse returns the error for a frame that announced n bytes.
func (b bound) refuse(n int64) error {
	if b.limit == "" {
		return protocolError("a frame of %d bytes, at most %d allowed", n, b.max)
	}
	return &LimitError{Limit: b.limit, Got: n, Max: b.max}
}

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

// request is every message the host sends the worker: the op names what
// worker.py does, and an op's fields are the only ones on the wire (the
// others are left out), so the JSON is what worker.py has always read.
type request struct {
	Op          string `json:"op"` // exec, put, get, list, delete, snapshot, restore or limit_memory
	*execFields        // exec
	Name        string `json:"name,omitzero"`      // put, get, delete: relative to /mnt/data
	MtimeNS     *int64 `json:"mtime_ns,omitempty"` // put: the time a restored file keeps
	Max         int64  `json:"max,omitzero"`       // get: the most bytes the file may have
	MaxBytes    int64  `json:"max_bytes,omitzero"` // snapshot: the most the snapshot may take
	Bytes       int64  `json:"bytes,omitzero"`     // limit_memory: the kernel's new address-space limit
}

// write writes one request without flushing it: frames that belong to it
// may follow.
func (c *conn) write(req request) error {
	b, err := json.Marshal(req)
	if err != nil {
		return err
	}
	return c.writeFrame(frameJSON, b)
}

// send writes one request and flushes it.
func (c *conn) send(req request) error {
	if err := c.write(req); err != nil {
		return err
	}
	return c.flush()
}

// readFrameMax reads a frame of at most limit bytes; a longer one is a
// protocol error.
func (c *conn) readFrameMax(limit uint32) (byte, []byte, error) {
	return c.readFrame(bound{max: int64(limit)})
}

// readFrame reads one frame of at most b.max bytes. A longer frame is
// refused before its body is read.
func (c *conn) readFrame(b bound) (byte, []byte, error) {
	var head [5]byte
	if _, err := io.ReadFull(c.r, head[:]); err != nil {
		return 0, nil, err
	}
	n := int64(binary.BigEndian.Uint32(head[1:]))
	if n > b.max {
		return head[0], nil, b.refuse(n)
	}
	body, err := readBody(c.r, n)
	if err != nil {
		return 0, nil, err
	}
	return head[0], body, nil
}

// readBody reads n bytes into a buffer that starts at firstRead at most and
// at most doubles as bytes arrive, never past n: a body that never comes
// costs nothing, one that does at most twice its size.
func readBody(r io.Reader, n int64) ([]byte, error) {
	buf := make([]byte, 0, min(n, firstRead))
	for int64(len(buf)) < n {
		if len(buf) == cap(buf) {
			grown := make([]byte, len(buf), min(n, 2*int64(cap(buf))))
			copy(grown, buf)
			buf = grown
		}
		m, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return nil, io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// recvWithin reads one JSON frame of at most b.max bytes into v.
func (c *conn) recvWithin(v any, b bound) error {
	body, err := c.readJSON(b)
	if err != nil {
		return err
	}
	return decodeReply(body, v)
}

// readJSON reads one frame of at most b.max bytes, which must be JSON.
func (c *conn) readJSON(b bound) ([]byte, error) {
	kind, body, err := c.readFrame(b)
	if err != nil {
		return nil, err
	}
	if kind != frameJSON {
		return nil, protocolError("got frame %q, want JSON", kind)
	}
	return body, nil
}

// recvBlobWithin reads one binary frame of at most b.max bytes.
func (c *conn) recvBlobWithin(b bound) ([]byte, error) {
	kind, body, err := c.readFrame(b)
	if err != nil {
		return nil, err
	}
	if kind != frameBlob {
		return nil, protocolError("got frame %q, want a blob", kind)
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
		Text  string `json:"text"`
		HTML  string `json:"html"`
		Table string `json:"table"`
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
		Files          wireFiles       `json:"files"`
		Size           int64           `json:"size"`
		DataBytes      int64           `json:"data_bytes"` // bytes under /mnt/data, in the session's memory
		Reports        []Report        `json:"reports"`
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
