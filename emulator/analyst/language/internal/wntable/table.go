// Package wntable is the compact form of the parts of WordNet 3.0 that the language package
// uses. The generator (internal/wngen) writes it from WordNet's files; the lexicon reads it. Both
// sides share this one definition of the format so that they cannot drift apart.
package wntable

// Part-of-speech bits, as stored in Table.POS and Table.SynsetPOS.
const (
	Noun uint8 = 1 << iota
	Verb
	Adj
	Adv
)

// Table holds WordNet's lemmas and the relations the lexicon answers questions with. Lemma ids
// index Lemmas; synset ids index SynsetPOS and Hypernyms.
type Table struct {
	// Lemmas are lowercase, sorted bytewise, with spaces where WordNet writes underscores.
	Lemmas []string
	// POS is the set of parts of speech (bits above) each lemma has.
	POS []uint8
	// Senses lists each lemma's synsets, in WordNet's sense order (most frequent first) within
	// each part of speech, nouns first, then verbs, adjectives, adverbs.
	Senses [][]uint32
	// SynsetPOS is the part of speech of each synset (adjective satellites count as Adj).
	SynsetPOS []uint8
	// Hypernyms lists each synset's hypernyms and instance hypernyms (nouns and verbs).
	Hypernyms [][]uint32
	// Derivations lists, for each lemma, the lemmas WordNet links to it by a derivationally
	// related form ("survivor" ↔ "survive").
	Derivations [][]uint32
	// Attributes links adjectives to the nouns they are values of ("old" → "age"), both ways.
	Attributes [][]uint32
	// Exceptions maps an irregular inflected form to its base forms, per part of speech
	// (indexed by the bit position of Noun, Verb, Adj, Adv).
	Exceptions [4]map[string][]string
}
