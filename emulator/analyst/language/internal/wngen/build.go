package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language/internal/wntable"
)

// part is one of WordNet's four files pairs, in the order senses are stored.
type part struct {
	file string // index.<file>, data.<file>, <file>.exc
	bit  uint8
	slot int // index into Table.Exceptions
}

var parts = []part{
	{"noun", wntable.Noun, 0},
	{"verb", wntable.Verb, 1},
	{"adj", wntable.Adj, 2},
	{"adv", wntable.Adv, 3},
}

// synsetKey names a synset as WordNet does: its file and byte offset.
type synsetKey struct {
	bit    uint8
	offset int
}

// builder accumulates the table while the files are read.
type builder struct {
	lemmaID  map[string]uint32
	synsetID map[synsetKey]uint32
	t        *wntable.Table
	// words lists each synset's member lemmas in data-file order, to resolve the word numbers of
	// lexical pointers (derivations).
	words [][]uint32
	// pending and pendingAttr wait for every synset's members: derivations and attributes.
	pending, pendingAttr []pointer
}

func build(dir string) (*wntable.Table, error) {
	b := &builder{lemmaID: map[string]uint32{}, synsetID: map[synsetKey]uint32{}, t: &wntable.Table{}}
	// Lemmas first, so that ids follow sorted order.
	var all []string
	for _, p := range parts {
		lemmas, err := indexLemmas(filepath.Join(dir, "index."+p.file))
		if err != nil {
			return nil, err
		}
		all = append(all, lemmas...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	for i, l := range all {
		b.lemmaID[l] = uint32(i)
	}
	b.t.Lemmas = all
	b.t.POS = make([]uint8, len(all))
	b.t.Senses = make([][]uint32, len(all))
	b.t.Derivations = make([][]uint32, len(all))
	b.t.Attributes = make([][]uint32, len(all))
	for _, p := range parts {
		if err := b.readData(filepath.Join(dir, "data."+p.file), p.bit); err != nil {
			return nil, err
		}
	}
	b.resolveLexical()
	for _, p := range parts {
		if err := b.readIndex(filepath.Join(dir, "index."+p.file), p.bit); err != nil {
			return nil, err
		}
		exc, err := readExceptions(filepath.Join(dir, p.file+".exc"))
		if err != nil {
			return nil, err
		}
		b.t.Exceptions[p.slot] = exc
	}
	for i := range b.t.Derivations {
		slices.Sort(b.t.Derivations[i])
		b.t.Derivations[i] = slices.Compact(b.t.Derivations[i])
		slices.Sort(b.t.Attributes[i])
		b.t.Attributes[i] = slices.Compact(b.t.Attributes[i])
	}
	return b.t, nil
}

// lemmaForm turns WordNet's spelling into the table's: lowercase, spaces, no adjective marker.
func lemmaForm(w string) string {
	if i := strings.IndexByte(w, '('); i > 0 {
		w = w[:i] // "old(a)": the marker says where the adjective may stand
	}
	return strings.ReplaceAll(strings.ToLower(w), "_", " ")
}

// eachLine calls fn with the fields of every line that is not part of the licence header.
func eachLine(path string, fn func(f []string) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") { // the licence at the head of index and data files
			continue
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	return sc.Err()
}

func indexLemmas(path string) ([]string, error) {
	var out []string
	err := eachLine(path, func(f []string) error {
		if len(f) > 0 {
			out = append(out, lemmaForm(f[0]))
		}
		return nil
	})
	return out, err
}

// readIndex records each lemma's part of speech and its senses in WordNet's order:
// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
func (b *builder) readIndex(path string, bit uint8) error {
	return eachLine(path, func(f []string) error {
		if len(f) < 4 {
			return nil
		}
		id := b.lemmaID[lemmaForm(f[0])]
		pcnt, err := strconv.Atoi(f[3])
		if err != nil {
			return err
		}
		b.t.POS[id] |= bit
		for _, off := range f[4+pcnt+2:] {
			o, err := strconv.Atoi(off)
			if err != nil {
				return err
			}
			s, ok := b.synsetID[synsetKey{bit, o}]
			if !ok {
				return fmt.Errorf("lemma %s: unknown synset %d", f[0], o)
			}
			b.t.Senses[id] = append(b.t.Senses[id], s)
		}
		return nil
	})
}
