package files

import (
	"bufio"
	"bytes"
)

// nonFinite reads JSON text with the non-finite numbers that Python's json
// and pandas write (NaN, Infinity, -Infinity) as null, outside strings, so
// that such a file is profiled as the analyst's loader reads it (a missing
// value) instead of being refused as invalid JSON.
type nonFinite struct {
	r        *bufio.Reader
	inString bool
	escaped  bool
	pending  []byte // the rest of a "null" that did not fit the last read
}

// nonFiniteWords are the words read as null, each after its first byte.
var nonFiniteWords = map[byte][]string{'N': {"aN"}, 'I': {"nfinity"}, '-': {"Infinity"}}

func (nf *nonFinite) Read(p []byte) (int, error) {
	n := copy(p, nf.pending)
	nf.pending = nf.pending[n:]
	for n < len(p) {
		c, err := nf.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if rest := nf.word(c); !nf.inString && rest > 0 {
			_, _ = nf.r.Discard(rest)
			k := copy(p[n:], "null")
			nf.pending = []byte("null")[k:]
			n += k
			continue
		}
		nf.track(c)
		p[n] = c
		n++
	}
	return n, nil
}

// word returns how many bytes after c complete a non-finite number, or 0.
func (nf *nonFinite) word(c byte) int {
	for _, w := range nonFiniteWords[c] {
		if next, _ := nf.r.Peek(len(w)); bytes.Equal(next, []byte(w)) {
			return len(w)
		}
	}
	return 0
}

// track follows whether the text read so far is inside a string.
func (nf *nonFinite) track(c byte) {
	switch {
	case nf.escaped:
		nf.escaped = false
	case nf.inString && c == '\\':
		nf.escaped = true
	case c == '"':
		nf.inString = !nf.inString
	}
}
