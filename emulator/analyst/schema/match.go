package schema

import (
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// Reason says why a candidate was proposed; it decides the score's ceiling.
type Reason string

// The reasons, strongest first.
const (
	Exact        Reason = "exact"        // the column's name as written
	Normalised   Reason = "normalised"   // the same words up to case, separators, camelCase, plural
	Lemma        Reason = "lemma"        // the same dictionary forms
	Abbreviation Reason = "abbreviation" // temp → temperature, qty → quantity, tmax → maximum temperature
	Synonym      Reason = "synonym"      // WordNet synonyms: horsepower → hp
	Derivation   Reason = "derivation"   // survivors → Survived
	Attribute    Reason = "attribute"    // older → age
	Partial      Reason = "partial"      // some of the column's words: worth → finalWorth
	Unit         Reason = "unit"         // a currency amount → a money column
	Value        Reason = "value"        // a categorical value: female → Sex
	Entity       Reason = "entity"       // the noun that names a row
)

// reasonRank orders reasons from strong to weak, so a span's reason is its weakest word's.
var reasonRank = map[Reason]int{Exact: 0, Normalised: 1, Lemma: 2, Abbreviation: 3, Synonym: 4, Derivation: 5, Attribute: 6, Partial: 7}

// qword is a question token prepared for matching.
type qword struct {
	word
	derivations []string
	// pos is the part of speech the tagger gave the word, or 0 when it may be any: a synonym
	// counts only in senses of that part of speech.
	pos language.PartOfSpeech
}

// matchWord scores how well a question word names a column word.
func (ix *Index) matchWord(q qword, c columnWord) (float64, Reason) {
	if q.acronym && q.low == c.low {
		return 0.85, Abbreviation // "blood pressure" spelled as BP
	}
	if q.low == c.low {
		return 1, Exact
	}
	if shareForm(q.forms, c.forms) {
		return 0.95, Lemma
	}
	if len(q.low) >= 5 && american(q.low) == american(c.low) {
		return 0.95, Lemma // favourites, favorites
	}
	if s := ix.abbreviationScore(q.low, c.low); s > 0 {
		return s, Abbreviation
	}
	for _, f := range q.forms {
		if p := c.synonyms[f]; p != 0 && (q.pos == 0 || p&q.pos != 0) {
			return 0.8, Synonym
		}
	}
	for _, f := range q.forms {
		if c.derivations[f] {
			return 0.75, Derivation
		}
	}
	if shareForm(q.derivations, c.forms) {
		return 0.75, Derivation
	}
	for _, f := range q.forms {
		if c.attributes[f] {
			return 0.7, Attribute
		}
	}
	return 0, ""
}

// britishSpellings are the regular differences of British from American spelling, inside a
// word: colour, centre, analyse, organisation, travelled.
var britishSpellings = strings.NewReplacer("our", "or", "isation", "ization", "ise", "ize", "yse", "yze", "tre", "ter", "lled", "led", "lling", "ling", "ogue", "og")

// american spells a word the American way, so that both spellings compare equal. A word that
// starts with one of the endings (hour, our) keeps it: only letters after the first change.
func american(w string) string {
	if len(w) < 2 {
		return w
	}
	return w[:1] + britishSpellings.Replace(w[1:])
}

func shareForm(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// abbreviationScore recognises a short form of one word in the other: a prefix (temp,
// temperature; max, maximum), a shorter word made of the longer one's letters in order and
// starting alike (qty, quantity; pct, percent), or a longer word ending a column's single word
// (class, Pclass). A short form that is an English word of its own is trusted only as a prefix
// of a word at least twice as long: "age" does not abbreviate "average" or "agency", and
// never as the first word of a compound: "song" does not abbreviate "songwriters".
func (ix *Index) abbreviationScore(q, c string) float64 {
	short, long := q, c
	if len(short) > len(long) {
		short, long = long, short
	}
	isWord := ix.lx.POS(short) != 0
	switch {
	case isWord && ix.compound(short, long):
		return 0 // "song" is not short for "songwriters": the rest is a word of its own
	case len(short) >= 3 && strings.HasPrefix(long, short) && (!isWord || len(long) > 2*len(short)):
		return 0.85
	case len(short) == 2 && !isWord && strings.HasPrefix(long, short):
		return 0.7 // "sp" of sp_attack: special
	case len(short) >= 3 && !isWord && short[0] == long[0] && isSubsequence(short, long):
		return 0.75
	case len(q) >= 4 && len(c) > len(q) && strings.HasSuffix(c, q) && !derivedBy(strings.TrimSuffix(c, q)):
		return 0.8
	}
	return 0
}

// derivationalPrefixes make a new word of the one they precede: a "retweet" is no tweet.
var derivationalPrefixes = []string{"re", "un", "in", "im", "dis", "non", "pre", "sub", "co", "de", "ex", "mis", "over", "under", "out", "anti", "multi", "semi"}

// derivedBy reports a derivational prefix.
func derivedBy(prefix string) bool { return slices.Contains(derivationalPrefixes, prefix) }

// compound reports a long word that is the short one followed by another English word:
// songwriters (song + writers), bookstore.
func (ix *Index) compound(short, long string) bool {
	rest, ok := strings.CutPrefix(long, short)
	return ok && len(rest) >= 3 && (ix.lx.POS(rest) != 0 || ix.lx.POS(strings.TrimSuffix(rest, "s")) != 0)
}

func isSubsequence(short, long string) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}

// matchSpan scores question words against a column's content words. Every question word must
// name a different column word; a column word left unnamed lowers the score ("worth" names half
// of finalWorth).
func (ix *Index) matchSpan(qs []qword, ic *indexedColumn) (float64, Reason) {
	if len(qs) > 1 && len(ic.words) == 1 && compoundAbbreviation(qs, ic.words[0].low) {
		return 0.75, Abbreviation // "maximum temperature" → TMAX
	}
	qs = ix.mergeCompounds(qs, ic.words)
	if len(qs) == 0 || len(ic.words) == 0 || len(qs) > len(ic.words) {
		return 0, ""
	}
	used := make([]bool, len(ic.words))
	total, weakest := 0.0, Exact
	for _, q := range qs {
		best, bestAt, why := 0.0, -1, Reason("")
		for k, c := range ic.words {
			if used[k] {
				continue
			}
			if s, r := ix.matchWord(q, c); s > best {
				best, bestAt, why = s, k, r
			}
		}
		if bestAt < 0 {
			return 0, ""
		}
		used[bestAt] = true
		total += best
		if reasonRank[why] > reasonRank[weakest] {
			weakest = why
		}
	}
	score := total / float64(len(qs))
	if len(qs) < len(ic.words) && !onlyAsideLeft(used, ic.words) {
		score *= 0.3 + 0.6*weightedCoverage(used, ic.head)
		weakest = Partial
	}
	return score, weakest
}

// onlyAsideLeft reports a column name whose words the question named all but those aside
// (a unit, a gloss, the id of "DO Location ID"): "drop-off location" names DOLocationID.
func onlyAsideLeft(used []bool, words []columnWord) bool {
	for k, u := range used {
		if !u && !words[k].aside {
			return false
		}
	}
	return true
}

// weightedCoverage is the share of a column name the question named, its head word weighing
// most: English puts the head of a compound last, so "distance" names trip_distance better than
// "trip" does, and "trips" are more likely the rows than that column.
func weightedCoverage(used []bool, head int) float64 {
	if len(used) == 1 {
		return 1
	}
	const headWeight = 0.55
	cov := 0.0
	for k, u := range used {
		switch {
		case !u:
		case k == head:
			cov += headWeight
		default:
			cov += (1 - headWeight) / float64(len(used)-1)
		}
	}
	return cov
}

// mergeCompounds joins adjacent question words that a column writes as one word: "rate
// codes" → RatecodeID, "G-force" → Gforce_clean.
func (ix *Index) mergeCompounds(qs []qword, cols []columnWord) []qword {
	if len(qs) < 2 {
		return qs
	}
	for i := 0; i+1 < len(qs); i++ {
		for _, c := range cols {
			if joined, ok := joinsInto(qs[i], qs[i+1], c); ok {
				merged := append(append([]qword{}, qs[:i]...), joined)
				return append(merged, qs[i+2:]...)
			}
			if !c.acronym {
				continue
			}
			for n := 1; n <= len(c.low) && i+n <= len(qs); n++ {
				if ix.initials(qs[i:i+n]) == c.low {
					merged := append(append([]qword{}, qs[:i]...), qword{word: word{low: c.low, lemma: c.low, forms: []string{c.low}, acronym: true}})
					return append(merged, qs[i+n:]...)
				}
			}
		}
	}
	return qs
}

// initials returns the first letters of words and of the parts of compound words, in order:
// "blood pressure" → bp, "drop-off" → do, "pickup" → pu; "" for a single simple word, which
// spells no acronym.
func (ix *Index) initials(qs []qword) string {
	var b strings.Builder
	parts := 0
	for _, q := range qs {
		for _, p := range ix.compoundParts(q.low) {
			b.WriteByte(p[0])
			parts++
		}
	}
	if parts < 2 {
		return ""
	}
	return b.String()
}

// compoundParts splits a word at its hyphens, or, unhyphenated, into two English words of at
// least two letters when WordNet knows both and not the whole as a simpler word: "pickup" →
// pick, up.
func (ix *Index) compoundParts(w string) []string {
	if strings.Contains(w, "-") {
		return slices.DeleteFunc(strings.Split(w, "-"), func(p string) bool { return p == "" })
	}
	for k := 2; k+2 <= len(w); k++ {
		if ix.lx.POS(w[:k]) != 0 && ix.lx.POS(w[k:]) != 0 && len(w[:k]) >= 4 {
			return []string{w[:k], w[k:]}
		}
	}
	return []string{w}
}

// joinsInto reports whether a and b written together are column word c, b in any of its forms.
func joinsInto(a, b qword, c columnWord) (qword, bool) {
	for _, f := range b.forms {
		if a.low+f == c.low {
			return qword{word: word{low: c.low, lemma: c.low, forms: []string{c.low}}}, true
		}
	}
	return qword{}, false
}

// compoundAbbreviation reports whether a single column word is made of prefixes of the
// question words, in some order: "tmax" = t(emperature) + max(imum).
func compoundAbbreviation(qs []qword, c string) bool {
	if len(qs) > 3 || len(c) < 3 {
		return false
	}
	used := make([]bool, len(qs))
	var cover func(rest string, left int) bool
	cover = func(rest string, left int) bool {
		if rest == "" {
			return left == 0
		}
		for i, q := range qs {
			if used[i] {
				continue
			}
			for n := min(len(q.low), len(rest)); n >= 1; n-- {
				if q.low[:n] == rest[:n] {
					used[i] = true
					ok := cover(rest[n:], left-1)
					used[i] = false
					if ok {
						return true
					}
				}
			}
		}
		return false
	}
	return cover(c, len(qs))
}
