package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Bounds of the worker's replies. Each mirrors a cap worker.py applies, with
// room for the worst an honest worker can send.
const (
	// maxListedFiles is the most files one listing names (worker.py's MAX_LISTED).
	maxListedFiles = 10000
	// maxListedChars is the most characters of names one listing carries
	// (worker.py's MAX_LISTED_CHARS).
	maxListedChars = 1 << 20
	// jsonEscape is the most bytes one character takes in the worker's JSON:
	// a control character becomes \u00XX.
	jsonEscape = 6
	// listedEntryBytes bounds the JSON of one listed file besides its name.
	listedEntryBytes = 96
	// textFields are the text fields of an exec reply that worker.py caps at
	// Config.MaxOutputBytes characters each: the output (stdout and stderr
	// share one cap), the value's text, HTML and table form, the error's
	// value and its traceback.
	textFields = 6
	// replySlack covers the rest of a reply: flags, counts, figure sizes and
	// an error's name.
	replySlack = 64 << 10
	// smallReply bounds the replies of put, get and delete, and the worker's
	// first message.
	smallReply = 256 << 10
	// errorNameBytes is the most of an exception's class name kept.
	errorNameBytes = 256
)

// listingBound bounds a reply that lists files.
var listingBound = bound{
	max:   maxListedFiles*listedEntryBytes + jsonEscape*maxListedChars + replySlack,
	limit: LimitReplyBytes,
}

// smallBound bounds the replies that carry no output or listing.
var smallBound = bound{max: smallReply, limit: LimitReplyBytes}

// execBound bounds the JSON of an exec reply: its text fields and the
// files the cell changed. Its figures follow as frames of their own, at most
// Config.MaxFigures of Config.MaxFigureBytes each, so one reply is at most
// execBound(c).max + MaxFigures*MaxFigureBytes bytes in all.
func execBound(c Config) bound {
	return bound{max: jsonEscape*textFields*int64(c.MaxOutputBytes) + listingBound.max, limit: LimitReplyBytes}
}

// wireFiles is a listing in a reply, counted as it is decoded: a listing of
// more than maxListedFiles files is refused.
type wireFiles []wireFile

// UnmarshalJSON decodes at most maxListedFiles entries and counts the rest.
func (f *wireFiles) UnmarshalJSON(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil || tok == nil {
		*f = nil
		return err
	}
	if tok != json.Delim('[') {
		return fmt.Errorf("sandbox: protocol: files is %v, want a list", tok)
	}
	var list []wireFile
	n := 0
	for ; dec.More(); n++ {
		if n >= maxListedFiles {
			var skip struct{}
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		var w wireFile
		if err := dec.Decode(&w); err != nil {
			return err
		}
		list = append(list, w)
	}
	if n > maxListedFiles {
		return &LimitError{Limit: LimitFiles, Got: int64(n), Max: maxListedFiles}
	}
	*f = list
	_, err = dec.Token()
	return err
}

// readExecReply reads an exec reply and its figures within the host's
// limits: the figure count and sizes are checked against Config before any
// figure is read, and each figure frame again as it arrives. Partial output
// frames before the reply go to out (stream.go).
func (s *Session) readExecReply(out *outputStream) (*wireReply, [][]byte, error) {
	var reply wireReply
	if err := s.recvExecReply(&reply, out, execBound(s.cfg)); err != nil {
		return nil, nil, err
	}
	if n := len(reply.Figures); n > s.cfg.MaxFigures {
		return nil, nil, &LimitError{Limit: LimitFigures, Got: int64(n), Max: int64(s.cfg.MaxFigures)}
	}
	figure := s.figureBound()
	for _, size := range reply.Figures { // every size, before any figure is read
		if int64(size) > figure.max {
			return nil, nil, figure.refuse(int64(size))
		}
	}
	figs := make([][]byte, 0, len(reply.Figures))
	for i, size := range reply.Figures {
		b, err := s.recvFigure(size, fmt.Sprintf("figure %d", i+1))
		if err != nil {
			return nil, nil, err
		}
		figs = append(figs, b)
	}
	return &reply, figs, nil
}

// figureBound bounds one figure's frame.
func (s *Session) figureBound() bound {
	return bound{max: int64(s.cfg.MaxFigureBytes), limit: LimitFigureBytes}
}

// recvFigure reads a figure the worker announced as size bytes, within the
// figure cap; what names it in a protocol error.
func (s *Session) recvFigure(size int, what string) ([]byte, error) {
	figure := s.figureBound()
	if int64(size) > figure.max {
		return nil, figure.refuse(int64(size))
	}
	b, err := s.w.conn.recvBlobWithin(figure)
	if err != nil {
		return nil, err
	}
	if len(b) != size {
		return nil, protocolError("%s is %d bytes, announced %d", what, len(b), size)
	}
	return b, nil
}

// result turns a reply into a Result, enforcing the output cap in bytes
// (the worker counts characters) on every text field and marking anything
// that was cut.
func (s *Session) result(r *wireReply, figs [][]byte) *Result {
	max := s.cfg.MaxOutputBytes
	stdout, cutOut := capBytes(r.Stdout, max)
	stderr, cutErr := capBytes(r.Stderr, max-len(stdout))
	res := &Result{Error: r.execError(), Files: fileInfos(r.Files), Reports: r.Reports}
	if r.Truncated || cutOut || cutErr {
		res.Truncated = true
		stdout += truncatedMarker
	}
	if r.FiguresDropped > 0 {
		res.Truncated = true
		stderr += fmt.Sprintf("\n[sandbox: %d figure(s) dropped: over %d per cell or %d bytes each]\n",
			r.FiguresDropped, s.cfg.MaxFigures, s.cfg.MaxFigureBytes)
	}
	if r.Value != nil {
		res.Value = &Value{Text: r.Value.Text, HTML: r.Value.HTML, Table: r.Value.Table}
	}
	if capValue(res.Value, max) || capError(res.Error, max) {
		res.Truncated = true
		stderr += valueCutMarker
	}
	res.Stdout, res.Stderr = stdout, stderr
	for _, b := range figs {
		res.Figures = append(res.Figures, newFigure(b))
	}
	return res
}

// valueCutMarker is added to stderr when the value or the error was cut.
const valueCutMarker = "\n[sandbox: the cell's value or error was cut at the per-cell limit]\n"

// capValue cuts the value's text to max bytes and drops HTML over max
// bytes, since cut HTML would not render; it reports whether it cut.
func capValue(v *Value, max int) bool {
	if v == nil {
		return false
	}
	var cut bool
	v.Text, cut = capBytes(v.Text, max)
	if len(v.HTML) > max {
		v.HTML, cut = "", true
	}
	if len(v.Table) > max { // cut JSON would not parse
		v.Table, cut = "", true
	}
	return cut
}

// capError cuts the exception's name, value and traceback (max bytes over
// all its lines); it reports whether it cut.
func capError(e *ExecError, max int) bool {
	if e == nil {
		return false
	}
	var cutName, cutValue bool
	e.Name, cutName = capBytes(e.Name, errorNameBytes)
	e.Value, cutValue = capBytes(e.Value, max)
	left := max
	for i, line := range e.Traceback {
		kept, cut := capBytes(line, left)
		left -= len(kept)
		if cut {
			e.Traceback = append(e.Traceback[:i], kept)
			return true
		}
	}
	return cutName || cutValue
}
