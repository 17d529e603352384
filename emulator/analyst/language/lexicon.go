package language

import (
	"bytes"
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/analyst-workbench/workbench/emulator/analyst/language/internal/wntable"
)

//go:generate go run ./internal/wngen -dict /usr/share/wordnet -out wordnet.gz

// wordnetTable is WordNet 3.0 in the compact form of internal/wntable (see WORDNET_LICENSE).
//
//go:embed wordnet.gz
var wordnetTable []byte

// PartOfSpeech is a set of WordNet's parts of speech.
type PartOfSpeech uint8

// The parts of speech WordNet knows; a lemma may have several.
const (
	Noun      = PartOfSpeech(wntable.Noun)
	Verb      = PartOfSpeech(wntable.Verb)
	Adjective = PartOfSpeech(wntable.Adj)
	Adverb    = PartOfSpeech(wntable.Adv)
)

// Has reports whether p includes every part of speech of q.
func (p PartOfSpeech) Has(q PartOfSpeech) bool { return q != 0 && p&q == q }

// slot is the index of a single part of speech in the table's exception lists.
func (p PartOfSpeech) slot() int {
	switch p {
	case Verb:
		return 1
	case Adjective:
		return 2
	case Adverb:
		return 3
	}
	return 0
}

// Lexicon answers questions about English words from WordNet 3.0. Use WordNet to get the one
// shared instance; it is safe for concurrent use.
type Lexicon struct {
	t       *wntable.Table
	members [][]uint32 // synset → lemma ids, the inverse of t.Senses
	// LoadTime is how long decoding the embedded table took.
	LoadTime time.Duration
}

var (
	lexiconOnce sync.Once
	lexicon     *Lexicon
)

// WordNet returns the lexicon, decoding the embedded table on first use (tens of
// milliseconds, once per process).
func WordNet() *Lexicon {
	lexiconOnce.Do(func() {
		start := time.Now()
		t, err := wntable.Decode(bytes.NewReader(wordnetTable))
		if err != nil {
			panic("language: the embedded WordNet table is corrupt: " + err.Error())
		}
		lx := &Lexicon{t: t, members: invertSenses(t.Senses, len(t.SynsetPOS))}
		lx.LoadTime = time.Since(start)
		lexicon = lx
	})
	return lexicon
}

// invertSenses lists each synset's member lemmas, in one backing array: a slice per synset
// grown by append would cost 117,000 small allocations at load.
func invertSenses(senses [][]uint32, synsets int) [][]uint32 {
	counts := make([]int, synsets+1)
	total := 0
	for _, ss := range senses {
		for _, s := range ss {
			counts[s+1]++
			total++
		}
	}
	for i := 1; i <= synsets; i++ {
		counts[i] += counts[i-1] // counts[s] is now where synset s's members start
	}
	backing := make([]uint32, total)
	fill := slices.Clone(counts)
	for id, ss := range senses {
		for _, s := range ss {
			backing[fill[s]] = uint32(id)
			fill[s]++
		}
	}
	members := make([][]uint32, synsets)
	for s := range members {
		members[s] = backing[counts[s]:counts[s+1]:counts[s+1]]
	}
	return members
}

// id finds a lemma by binary search: the table is sorted, and a search costs less than
// building a map of 147,000 entries at load.
func (lx *Lexicon) id(lemma string) (int, bool) {
	i := sort.SearchStrings(lx.t.Lemmas, lemma)
	return i, i < len(lx.t.Lemmas) && lx.t.Lemmas[i] == lemma
}

// POS returns the parts of speech WordNet gives a lemma (lowercase, spaces between the words
// of a collocation: "net worth"); 0 if WordNet does not know it.
func (lx *Lexicon) POS(lemma string) PartOfSpeech {
	if i, ok := lx.id(lemma); ok {
		return PartOfSpeech(lx.t.POS[i])
	}
	return 0
}

// Synonyms returns the other members of the lemma's synsets of the given parts of speech, most
// frequent sense first, without repeats.
func (lx *Lexicon) Synonyms(lemma string, pos PartOfSpeech) []string {
	i, ok := lx.id(lemma)
	if !ok {
		return nil
	}
	var out []string
	for _, s := range lx.t.Senses[i] {
		if PartOfSpeech(lx.t.SynsetPOS[s])&pos == 0 {
			continue
		}
		for _, m := range lx.members[s] {
			if w := lx.t.Lemmas[m]; int(m) != i && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// Derivations returns the lemmas WordNet relates to this one by derivation, in any part of
// speech: "survivor" → "survive", "employee" → "employ", "female" → "femaleness".
func (lx *Lexicon) Derivations(lemma string) []string {
	return lx.related(lemma, lx.t.Derivations)
}

// Attributes returns the nouns an adjective is a value of, and the adjectives that are values
// of a noun: "old" → "age", "age" → "old", "young".
func (lx *Lexicon) Attributes(lemma string) []string {
	return lx.related(lemma, lx.t.Attributes)
}

func (lx *Lexicon) related(lemma string, links [][]uint32) []string {
	i, ok := lx.id(lemma)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(links[i]))
	for _, d := range links[i] {
		out = append(out, lx.t.Lemmas[d])
	}
	return out
}

// IsA reports whether some noun sense of lemma has some noun sense of class among its
// hypernyms (or is one): IsA("passenger", "person"), IsA("city", "location"),
// IsA("decade", "time period"). Underscores in class are read as spaces.
func (lx *Lexicon) IsA(lemma, class string) bool {
	return lx.IsAWithin(lemma, class, 0)
}

// AdverbOf reports an adverb made of an adjective by "-ly": remotely of remote, daily of
// day never (the base must be an adjective the lexicon knows, the word an adverb).
func (lx *Lexicon) AdverbOf(adverb, adjective string) bool {
	base, ok := strings.CutSuffix(strings.ToLower(adverb), "ly")
	adjective = strings.ToLower(adjective)
	if !ok || base != adjective && base+"e" != adjective {
		return false
	}
	return lx.POS(adverb).Has(Adverb) && lx.POS(adjective).Has(Adjective)
}

// IsAWithin is IsA restricted to the lemma's first senses noun senses (0: all of them). Rare
// senses make IsA generous ("bank" has a sense that is a person's action); a caller that needs
// the usual meaning looks at the first one or two.
func (lx *Lexicon) IsAWithin(lemma, class string, senses int) bool {
	i, ok := lx.id(lemma)
	c, okc := lx.id(strings.ReplaceAll(class, "_", " "))
	if !ok || !okc {
		return false
	}
	targets := lx.nounSenses(c, 0)
	if len(targets) == 0 {
		return false
	}
	seen := map[uint32]bool{}
	stack := lx.nounSenses(i, senses)
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] {
			continue
		}
		seen[s] = true
		if slices.Contains(targets, s) {
			return true
		}
		stack = append(stack, lx.t.Hypernyms[s]...)
	}
	return false
}

// nounSenses returns the first n noun synsets of lemma id i (all when n is 0).
func (lx *Lexicon) nounSenses(i, n int) []uint32 {
	var out []uint32
	for _, s := range lx.t.Senses[i] {
		if PartOfSpeech(lx.t.SynsetPOS[s]) == Noun {
			out = append(out, s)
			if len(out) == n {
				break
			}
		}
	}
	return out
}

// Senses returns how many senses WordNet gives the lemma in the given parts of speech: a rough
// measure of how ambiguous it is.
func (lx *Lexicon) Senses(lemma string, pos PartOfSpeech) int {
	i, ok := lx.id(lemma)
	if !ok {
		return 0
	}
	n := 0
	for _, s := range lx.t.Senses[i] {
		if PartOfSpeech(lx.t.SynsetPOS[s])&pos != 0 {
			n++
		}
	}
	return n
}
