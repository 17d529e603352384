package wntable

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"io"
	"sort"
	"strings"
)

// magic starts every encoded table, so that a stale or foreign file fails loudly.
const magic = "wntable1"

// Encode writes t gzip-compressed. Lemmas are one newline-separated block (they compress well as
// text); every list is a count followed by uvarints.
func Encode(w io.Writer, t *Table) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	e := &encoder{w: bw}
	e.str(magic)
	e.str(strings.Join(t.Lemmas, "\n"))
	e.bytes(t.POS)
	e.lists(t.Senses)
	e.bytes(t.SynsetPOS)
	e.lists(t.Hypernyms)
	e.lists(t.Derivations)
	e.lists(t.Attributes)
	for _, m := range t.Exceptions {
		e.exceptions(m)
	}
	if e.err != nil {
		return e.err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

type encoder struct {
	w   *bufio.Writer
	buf [binary.MaxVarintLen64]byte
	err error
}

func (e *encoder) uint(v uint64) {
	n := binary.PutUvarint(e.buf[:], v)
	if _, err := e.w.Write(e.buf[:n]); err != nil && e.err == nil {
		e.err = err
	}
}

func (e *encoder) str(s string) {
	e.uint(uint64(len(s)))
	if _, err := e.w.WriteString(s); err != nil && e.err == nil {
		e.err = err
	}
}

func (e *encoder) bytes(b []byte) { e.str(string(b)) }

func (e *encoder) lists(ls [][]uint32) {
	e.uint(uint64(len(ls)))
	total := 0
	for _, l := range ls {
		total += len(l)
	}
	e.uint(uint64(total)) // lets the decoder allocate one exact backing array
	for _, l := range ls {
		e.uint(uint64(len(l)))
		for _, v := range l {
			e.uint(uint64(v))
		}
	}
}

func (e *encoder) exceptions(m map[string][]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // a stable file: regenerating gives the same bytes
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k + "\t" + strings.Join(m[k], "\t") // tabs: forms may contain spaces
	}
	e.str(strings.Join(lines, "\n"))
}

// Decode reads a table written by Encode.
func Decode(r io.Reader) (*Table, error) {
	packed, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(packed))
	if err != nil {
		return nil, err
	}
	// gzip's trailer holds the unpacked size: reading into a buffer of that size avoids the
	// repeated growing and clearing that io.ReadAll does, a third of the load time.
	data := make([]byte, binary.LittleEndian.Uint32(packed[len(packed)-4:]))
	if _, err := io.ReadFull(zr, data); err != nil {
		return nil, err
	}
	d := &decoder{b: data}
	if d.str() != magic {
		return nil, errors.New("wntable: not a WordNet table")
	}
	t := &Table{}
	t.Lemmas = strings.Split(d.str(), "\n")
	t.POS = []byte(d.str())
	t.Senses = d.lists()
	t.SynsetPOS = []byte(d.str())
	t.Hypernyms = d.lists()
	t.Derivations = d.lists()
	t.Attributes = d.lists()
	for i := range t.Exceptions {
		t.Exceptions[i] = parseExceptions(d.str())
	}
	if d.err != nil {
		return nil, d.err
	}
	return t, nil
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		if d.err == nil {
			d.err = errors.New("wntable: truncated table")
		}
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) str() string {
	n := d.uint()
	if n > uint64(len(d.b)) {
		if d.err == nil {
			d.err = errors.New("wntable: truncated table")
		}
		return ""
	}
	s := string(d.b[:n])
	d.b = d.b[n:]
	return s
}

// lists decodes all lists into one backing array: one allocation instead of one per lemma.
func (d *decoder) lists() [][]uint32 {
	n, total := d.uint(), d.uint()
	if n > uint64(len(d.b)) || total > uint64(len(d.b)) {
		d.err = errors.New("wntable: truncated table")
		return nil
	}
	out := make([][]uint32, n)
	backing := make([]uint32, 0, total)
	for i := range out {
		k := int(d.uint())
		start := len(backing)
		for range k {
			backing = append(backing, uint32(d.uint()))
		}
		out[i] = backing[start:len(backing):len(backing)]
	}
	return out
}

func parseExceptions(s string) map[string][]string {
	m := map[string][]string{}
	if s == "" {
		return m
	}
	for line := range strings.SplitSeq(s, "\n") {
		f := strings.Split(line, "\t")
		if len(f) >= 2 {
			m[f[0]] = f[1:]
		}
	}
	return m
}
