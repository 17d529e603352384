package analyst

import (
	"sort"
	"strings"
	"unicode"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// colRef names one column of one frame of the profile.
type colRef struct {
	frame, col int
}

// colIndex holds the words of every column, ready for matching against questions.
type colIndex struct {
	p     *Profile
	words [][][]string // [frame][col] -> singular lowercase words
}

func newColIndex(p *Profile) *colIndex {
	ix := &colIndex{p: p, words: make([][][]string, len(p.Frames))}
	for fi, f := range p.Frames {
		ix.words[fi] = make([][]string, len(f.Columns))
		for ci, c := range f.Columns {
			ix.words[fi][ci] = nameWords(c.Name)
		}
	}
	return ix
}

func (ix *colIndex) column(r colRef) *Column { return &ix.p.Frames[r.frame].Columns[r.col] }

// nameWords splits a column name on separators and camelCase into singular lowercase words,
// dropping one-letter leftovers such as the C of "(°C)".
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if w := strings.ToLower(string(cur)); len(w) > 1 || len(w) == 1 && len(name) == 1 {
			words = append(words, singular(w))
		}
		cur = cur[:0]
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if i > 0 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	if len(words) == 0 && name != "" {
		words = []string{strings.ToLower(name)} // "pH" splits into single letters; it is one word
	}
	return words
}

// mention is a column named in the question: the tokens [start,end) matched cols, which are
// several when the words fit more than one column equally well.
type mention struct {
	start, end int
	cols       []colRef
	score      float64
}

// wordMatch scores how well question token t names column word w: 1 exact, 0.9 an
// abbreviation, 0.8 a prefix, 0.7 a typo; 0 not at all. Keywords match only exactly, so "order"
// (sort) or "count" name a column only when a column is called that.
func wordMatch(t token, w string) float64 {
	if t.low == w || singular(t.low) == w {
		return 1
	}
	if t.num || stopwords[t.low] {
		return 0
	}
	for _, e := range abbreviations[t.low] {
		if e == w || singular(e) == w { // column words are singular: "Kurs" is kur
			return 0.9
		}
	}
	for _, e := range abbreviations[singular(t.low)] {
		if e == w {
			return 0.9
		}
	}
	if t.kw {
		return 0
	}
	if len(t.low) >= 3 && strings.HasPrefix(w, t.low) || len(t.low) >= 4 && strings.HasSuffix(w, t.low) {
		return 0.8 // "temp" of temperature; "class" of Pclass
	}
	if len(w) >= 3 && strings.HasPrefix(t.low, w) && (len(t.low) > 2*len(w) || !englishWord(w)) && !englishCompound(w, t.low) {
		return 0.8 // "direction" of wind_dir, "quantity" of qty_sold: the column's word is the short form
	}
	if b := fuzzyBudget(min(len(t.low), len(w))); b > 0 && (t.low[0] == w[0]) && editDistance(singular(t.low), w, b) <= b {
		return 0.7
	}
	return 0
}

// mentions finds the columns the tokens name, longest and best matches first, without overlaps.
func (ix *colIndex) mentions(toks []token) []mention {
	var cands []mention
	for fi := range ix.words {
		for ci, words := range ix.words[fi] {
			cands = append(cands, ix.matchColumn(toks, colRef{fi, ci}, words)...)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.end-a.start != b.end-b.start {
			return a.end-a.start > b.end-b.start
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return a.start < b.start
	})
	return mergeMentions(cands, len(toks))
}

// matchColumn returns every run of tokens that names words of one column.
func (ix *colIndex) matchColumn(toks []token, ref colRef, words []string) []mention {
	var out []mention
	joined := strings.Join(words, "")
	for i := 0; i < len(toks); i++ {
		if len(words) > 1 && (toks[i].low == joined || singular(toks[i].low) == joined) {
			// "unitprice" or "UnitPrice" typed as one word names unit_price whole.
			out = append(out, mention{start: i, end: i + 1, cols: []colRef{ref}, score: 1})
			continue
		}
		used := make([]bool, len(words))
		total, j, last, inOrder := 0.0, i, -1, true
		for ; j < len(toks) && j-i < len(words); j++ {
			best, at := 0.0, -1
			for k, w := range words {
				if s := wordMatch(toks[j], w); !used[k] && s > best {
					best, at = s, k
				}
			}
			if at < 0 {
				break
			}
			used[at], total = true, total+best
			inOrder, last = inOrder && at > last, at
		}
		if j > i {
			score := total / float64(len(words))
			if !inOrder {
				// "price unit" names unit_price, but less surely than words in the name's
				// order: "math score reading score" is math_score then reading_score
				score *= 0.95
			}
			out = append(out, mention{start: i, end: j, cols: []colRef{ref}, score: score})
			// no skip past the run: "score reading score" holds reading_score at its second word
		}
	}
	return out
}

// mergeMentions keeps the best non-overlapping candidates; equal candidates on the same span
// stay together as one ambiguous mention.
func mergeMentions(cands []mention, n int) []mention {
	taken := make([]bool, n)
	var out []mention
	for _, c := range cands {
		if k := len(out) - 1; k >= 0 && out[k].start == c.start && out[k].end == c.end && out[k].score == c.score {
			out[k].cols = append(out[k].cols, c.cols...)
			continue
		}
		free := true
		for i := c.start; i < c.end; i++ {
			free = free && !taken[i]
		}
		if !free || c.score < 0.34 {
			continue
		}
		for i := c.start; i < c.end; i++ {
			taken[i] = true
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// valueMention is a category value named in the question, such as a ticker or a region.
type valueMention struct {
	at    int // the first token of the value
	n     int // how many tokens it spans
	col   colRef
	value string
}

// valueGate lists the words after which an ordinary word is read as a value ("in Sales").
var valueGate = setOf("in", "for", "from", "of", "only", "=", "==", "is", "equal", "equals", "where", "just", "not", "!=", "and", "with")

// values finds category values named in the question. A word that is also a keyword or a
// column word counts only after a gate word or when typed in capitals like a ticker.
func (ix *colIndex) values(toks []token, colTaken func(int) bool) []valueMention {
	var out []valueMention
	for fi, f := range ix.p.Frames {
		for ci, c := range f.Columns {
			for _, v := range c.Values {
				if at, n := findValue(toks, v); at >= 0 && !colTaken(at) && valueAllowed(toks, at, n, v) {
					out = append(out, valueMention{at: at, n: n, col: colRef{fi, ci}, value: v})
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

// valueSynonyms are words people use for common category values.
var valueSynonyms = map[string]string{"women": "female", "woman": "female", "females": "female",
	"men": "male", "man": "male", "males": "male", "ladies": "female", "guys": "male"}

func findValue(toks []token, v string) (int, int) {
	parts := strings.Fields(strings.ToLower(v))
	if len(parts) == 1 {
		for i, t := range toks {
			if valueSynonyms[t.low] == parts[0] || language.WordNet().AdverbOf(t.low, parts[0]) {
				return i, 1 // "women" of female, "remotely" of Remote
			}
		}
	}
	if len(parts) == 0 {
		return -1, 0
	}
	for i := 0; i+len(parts) <= len(toks); i++ {
		ok := true
		for k, p := range parts {
			ok = ok && toks[i+k].low == p
		}
		if ok {
			return i, len(parts)
		}
	}
	return -1, 0
}

func valueAllowed(toks []token, at, n int, v string) bool {
	t := toks[at]
	if t.num && len(v) < 3 {
		return false
	}
	if !t.kw && !stopwords[t.low] {
		return true
	}
	if n == 1 && len(t.raw) >= 2 && strings.ToUpper(t.raw) == t.raw && t.raw == v {
		return true
	}
	return at > 0 && valueGate[toks[at-1].low]
}
