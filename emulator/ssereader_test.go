package emulator

import (
	"bufio"
	"bytes"
	"io"
)

// sseReader is the plain SSE reader a test client needs: event name and data lines.
type sseReader struct {
	scn *bufio.Scanner
}

func newSSEReader(r io.Reader) *sseReader {
	scn := bufio.NewScanner(r)
	scn.Buffer(nil, 32<<20)
	return &sseReader{scn: scn}
}

// next returns the next event, io.EOF at a clean end, or the read error of a cut stream.
func (s *sseReader) next() (name string, data []byte, err error) {
	for s.scn.Scan() {
		line := s.scn.Bytes()
		switch {
		case len(line) == 0:
			if data != nil {
				return name, data, nil
			}
		case bytes.HasPrefix(line, []byte("event: ")):
			name = string(line[len("event: "):])
		case bytes.HasPrefix(line, []byte("data: ")):
			data = append(data, line[len("data: "):]...)
		}
	}
	if err := s.scn.Err(); err != nil {
		return "", nil, err
	}
	if data != nil {
		return "", nil, io.ErrUnexpectedEOF
	}
	return "", nil, io.EOF
}
