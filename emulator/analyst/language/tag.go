package language

import (
	"strconv"
	"strings"
	"sync"

	"github.com/jdkato/prose/v2"
)

var (
	taggerOnce  sync.Once
	taggerModel *prose.Model
)

// tagger returns prose's averaged-perceptron model, loaded once: prose would otherwise decode
// it again for every document.
func tagger() *prose.Model {
	taggerOnce.Do(func() {
		doc, err := prose.NewDocument("", prose.WithSegmentation(false), prose.WithExtraction(false))
		if err != nil {
			panic("language: cannot load the part-of-speech model: " + err.Error())
		}
		taggerModel = doc.Model
	})
	return taggerModel
}

// surrogate is what the tagger sees for a token. prose tokenizes text itself, so tokens it must
// not split (names, quoted strings, dates, operator symbols) stand in as one ordinary word of
// the same role; the tags of the neighbours then come out as they would for a plain noun or
// number.
func surrogate(t Token) string {
	switch t.Kind {
	case Name:
		if isPlainWord(t.Text) {
			return t.Text
		}
		return "item"
	case Quoted:
		return "item"
	case Date:
		if t.Value > 0 {
			return strconv.Itoa(int(t.Value))
		}
		return "2020"
	case Operator:
		if t.Op == "<" || t.Op == "<=" {
			return "under"
		}
		if isPlainWord(strings.ReplaceAll(t.Text, " ", "")) {
			return t.Text
		}
		return "over"
	}
	return t.Text
}

func isPlainWord(s string) bool {
	for _, r := range s {
		if !isWordRune(r) || r == '_' {
			return false
		}
	}
	return s != ""
}

// isClitic reports a token that prose expects glued to the previous word ("do" + "n't").
func isClitic(t Token) bool {
	for _, c := range clitics {
		if t.Lower == c {
			return true
		}
	}
	return false
}

// tagTokens sets each token's Penn tag from prose's tagger, run over the tokens' surrogates. The
// tagger's own tokens are aligned back by their offsets in the surrogate text; a token covered
// by several takes the last one's tag ("$5" → "$" "5" → CD).
func tagTokens(toks []Token) {
	var b strings.Builder
	spans := make([][2]int, len(toks))
	for i, t := range toks {
		if i > 0 && !isClitic(t) {
			b.WriteByte(' ')
		}
		spans[i][0] = b.Len()
		b.WriteString(surrogate(t))
		spans[i][1] = b.Len()
	}
	text := b.String()
	doc, err := prose.NewDocument(text, prose.UsingModel(tagger()), prose.WithSegmentation(false), prose.WithExtraction(false))
	if err != nil {
		return
	}
	cursor, k := 0, 0
	for _, pt := range doc.Tokens() {
		at := strings.Index(text[cursor:], pt.Text)
		if at < 0 {
			continue // prose rewrote a curly quote; the punctuation keeps no tag
		}
		start, end := cursor+at, cursor+at+len(pt.Text)
		cursor = end
		for k < len(toks) && spans[k][1] <= start {
			k++
		}
		for j := k; j < len(toks) && spans[j][0] < end; j++ {
			toks[j].POS = pt.Tag
		}
	}
	for i := range toks {
		fixKindTag(&toks[i])
	}
}

// fixKindTag gives the recognised kinds the tag of their role, whatever the tagger guessed.
func fixKindTag(t *Token) {
	switch t.Kind {
	case Number:
		t.POS = "CD"
		if t.Ordinal {
			t.POS = "JJ"
		}
	case Date:
		t.POS = "CD"
	case Quoted:
		t.POS = "NNP"
	case Name:
		t.POS = "NN"
	case Operator:
		t.POS = "IN"
	case Punct:
		if t.POS == "" {
			t.POS = t.Text
		}
	}
}
