package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language/internal/wntable"
)

// pointer is one relation of a data line, kept until every synset has an id.
type pointer struct {
	from     uint32 // synset id
	symbol   string
	to       synsetKey
	src, dst int // word numbers for lexical pointers, 0 for semantic ones
}

// readData assigns ids to the synsets of one data file and resolves their pointers. Pointers
// may point to synsets of other files that are not read yet, so every file's pointers are
// resolved against ids computed up front from the offsets alone.
func (b *builder) readData(path string, bit uint8) error {
	var ptrs []pointer
	err := eachLine(path, func(f []string) error {
		// offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] ...
		off, err := strconv.Atoi(f[0])
		if err != nil {
			return err
		}
		id := b.synset(synsetKey{bit, off})
		wcnt, err := strconv.ParseInt(f[3], 16, 32)
		if err != nil {
			return err
		}
		members := make([]uint32, wcnt)
		for i := range members {
			members[i] = b.lemmaID[lemmaForm(f[4+2*i])]
		}
		b.words[id] = members
		at := 4 + 2*int(wcnt)
		pcnt, err := strconv.Atoi(f[at])
		if err != nil {
			return err
		}
		for i := range pcnt {
			p := f[at+1+4*i : at+5+4*i]
			o, err := strconv.Atoi(p[1])
			if err != nil {
				return err
			}
			sd, _ := strconv.ParseUint(p[3], 16, 16)
			ptrs = append(ptrs, pointer{from: id, symbol: p[0], to: synsetKey{posBit(p[2]), o}, src: int(sd >> 8), dst: int(sd & 0xff)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	return b.keep(ptrs)
}

// synset returns the id of a synset, creating it on first sight.
func (b *builder) synset(k synsetKey) uint32 {
	if id, ok := b.synsetID[k]; ok {
		return id
	}
	id := uint32(len(b.t.SynsetPOS))
	b.synsetID[k] = id
	b.t.SynsetPOS = append(b.t.SynsetPOS, k.bit)
	b.t.Hypernyms = append(b.t.Hypernyms, nil)
	b.words = append(b.words, nil)
	return id
}

func posBit(p string) uint8 {
	switch p {
	case "n":
		return wntable.Noun
	case "v":
		return wntable.Verb
	case "a", "s":
		return wntable.Adj
	}
	return wntable.Adv
}

// keep stores the pointers the lexicon answers with: hypernyms, derivations, attributes.
func (b *builder) keep(ptrs []pointer) error {
	// ids of targets in files not read yet are assigned here; readData keeps them.
	for _, p := range ptrs {
		to := b.synset(p.to)
		switch p.symbol {
		case "@", "@i":
			b.t.Hypernyms[p.from] = append(b.t.Hypernyms[p.from], to)
		case "+":
			// Lexical: word src of this synset is derived from word dst of the target. The target
			// may be in a file not read yet; resolve its words later.
			b.pending = append(b.pending, p)
		case "=":
			b.pendingAttr = append(b.pendingAttr, p)
		}
	}
	return nil
}

// resolveLexical links lemmas once every synset's members are known.
func (b *builder) resolveLexical() {
	for _, p := range b.pending {
		to := b.synsetID[p.to]
		if p.src < 1 || p.src > len(b.words[p.from]) || p.dst < 1 || p.dst > len(b.words[to]) {
			continue
		}
		a, c := b.words[p.from][p.src-1], b.words[to][p.dst-1]
		b.t.Derivations[a] = append(b.t.Derivations[a], c)
	}
	for _, p := range b.pendingAttr {
		to := b.synsetID[p.to]
		for _, a := range b.words[p.from] {
			b.t.Attributes[a] = append(b.t.Attributes[a], b.words[to]...)
		}
	}
}

// readExceptions reads a morphological exception list: inflected base [base...].
func readExceptions(path string) (map[string][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m := map[string][]string{}
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		k := lemmaForm(f[0])
		for _, base := range f[1:] {
			m[k] = append(m[k], lemmaForm(base))
		}
	}
	return m, nil
}
