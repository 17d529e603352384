package language

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// scan splits a question into tokens: vocabulary names first, then quoted strings, dates,
// numbers, operator symbols, words (with clitics split off) and punctuation. Tags and lemmas
// come later.
func scan(s string, v *Vocabulary) []Token {
	var toks []Token
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += w
			continue
		}
		atWordStart := i == 0 || !isWordRune(lastRune(s[:i]))
		var t Token
		var ok bool
		if atWordStart {
			if e, end := v.match(s, i); end > i {
				t, ok = Token{Text: s[i:end], Kind: Name, Entry: e, Start: i, End: end}, true
			}
		}
		if !ok {
			t, ok = scanQuoted(s, i, atWordStart)
		}
		if !ok {
			t, ok = scanDate(s, i)
		}
		if !ok {
			t, ok = scanNumber(s, i, atWordStart)
		}
		if !ok {
			t, ok = scanSymbolOperator(s, i)
		}
		if !ok {
			t, ok = scanWord(s, i)
		}
		if !ok {
			t = Token{Text: s[i : i+w], Kind: Punct, Start: i, End: i + w}
		}
		toks = append(toks, t)
		i = t.End
	}
	for k := range toks {
		toks[k].Lower = strings.ToLower(toks[k].Text)
	}
	return toks
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// quotePairs maps each opening quote to its closing one.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '‘': '’', '\'': '\'', '`': '`', '«': '»'}

// scanQuoted reads a quoted string. A straight single quote opens one only at a word start and
// closes only before a non-letter, so that apostrophes ("don't", "passengers'") are not quotes.
func scanQuoted(s string, i int, atWordStart bool) (Token, bool) {
	r, w := utf8.DecodeRuneInString(s[i:])
	closing, ok := quotePairs[r]
	if !ok || r == '\'' && !atWordStart {
		return Token{}, false
	}
	for j := i + w; j < len(s); {
		c, cw := utf8.DecodeRuneInString(s[j:])
		if c == closing && j > i+w {
			after := j + cw
			if r == '\'' && after < len(s) && isWordRune(firstRune(s[after:])) {
				j += cw
				continue
			}
			return Token{Text: s[i+w : j], Kind: Quoted, Start: i, End: after}, true
		}
		j += cw
	}
	return Token{}, false
}

func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// digitsAt returns how many ASCII digits start s[i:].
func digitsAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' {
		n++
	}
	return n
}

// scanDate reads 2011-05-01, 2011-05, 05/01/2011 or 5/1/11.
func scanDate(s string, i int) (Token, bool) {
	end, year := 0, 0
	if n := digitsAt(s, i); n == 4 && i+5 < len(s) && s[i+4] == '-' {
		m := digitsAt(s, i+5)
		if m < 1 || m > 2 {
			return Token{}, false
		}
		end = i + 5 + m
		if end+1 < len(s) && s[end] == '-' {
			if d := digitsAt(s, end+1); d >= 1 && d <= 2 {
				end += 1 + d
			}
		}
		year, _ = strconv.Atoi(s[i : i+4])
	} else if n >= 1 && n <= 2 && i+n < len(s) && s[i+n] == '/' {
		m := digitsAt(s, i+n+1)
		if m < 1 || m > 2 || i+n+1+m >= len(s) || s[i+n+1+m] != '/' {
			return Token{}, false
		}
		at := i + n + 1 + m + 1
		y := digitsAt(s, at)
		if y != 2 && y != 4 {
			return Token{}, false
		}
		end = at + y
		year, _ = strconv.Atoi(s[at:end])
	} else {
		return Token{}, false
	}
	if end < len(s) && isWordRune(firstRune(s[end:])) {
		return Token{}, false
	}
	return Token{Text: s[i:end], Kind: Date, Start: i, End: end, Value: float64(year)}, true
}

// scanNumber reads 20, -3.5, 1,000, .5, $5, 20%, 3rd. A minus sign counts only at a word start.
func scanNumber(s string, i int, atWordStart bool) (Token, bool) {
	j := i
	if c := firstRune(s[j:]); c == '$' || c == '€' || c == '£' {
		j += utf8.RuneLen(c)
	}
	if j < len(s) && s[j] == '-' && atWordStart {
		j++
	}
	start := j
	for j < len(s) {
		switch c := s[j]; {
		case c >= '0' && c <= '9':
			j++
		case (c == ',' || c == '.') && j > start && digitsAt(s, j+1) > 0 && (c == '.' || digitsAt(s, j+1) == 3):
			j++ // a decimal point, or a thousands separator followed by three digits
		case c == '.' && j == start && digitsAt(s, j+1) > 0:
			j++ // ".5"
		default:
			goto done
		}
	}
done:
	if digitsAt(s, start) == 0 && !(start < len(s) && s[start] == '.') || j == start {
		return Token{}, false
	}
	t := Token{Kind: Number, Start: i}
	t.Value, _ = strconv.ParseFloat(strings.ReplaceAll(s[start:j], ",", ""), 64)
	if strings.HasPrefix(s[i:], "-") || start > i && s[start-1] == '-' {
		t.Value = -t.Value
	}
	if j < len(s) && s[j] == '%' {
		t.Percent = true
		j++
	} else if suf := strings.ToLower(s[j:min(j+2, len(s))]); isOrdinalSuffix(suf) && (j+2 == len(s) || !isWordRune(firstRune(s[j+2:]))) {
		t.Ordinal = true
		j += 2
	}
	if j < len(s) && unicode.IsLetter(firstRune(s[j:])) {
		return Token{}, false // "Q3", "2B", "3D": a word with digits
	}
	t.Text, t.End = s[i:j], j
	return t, true
}

func isOrdinalSuffix(s string) bool { return s == "st" || s == "nd" || s == "rd" || s == "th" }

// symbolOperators are the comparison symbols, longest first.
var symbolOperators = []struct{ sym, op string }{
	{">=", ">="}, {"<=", "<="}, {"!=", "!="}, {"==", "="}, {"<>", "!="}, {"=>", ">="}, {"=<", "<="},
	{"≥", ">="}, {"≤", "<="}, {"≠", "!="}, {">", ">"}, {"<", "<"}, {"=", "="},
}

func scanSymbolOperator(s string, i int) (Token, bool) {
	for _, o := range symbolOperators {
		if strings.HasPrefix(s[i:], o.sym) {
			return Token{Text: o.sym, Kind: Operator, Op: o.op, Start: i, End: i + len(o.sym)}, true
		}
	}
	return Token{}, false
}

// clitics split off a word, as the treebank does: "don't" → do n't, "what's" → what 's.
var clitics = []string{"n't", "'s", "'re", "'ll", "'ve", "'d", "'m", "’s", "n’t", "’re", "’ll", "’ve", "’d", "’m"}

// scanWord reads a word: letters and digits, joined by inner hyphens, underscores, apostrophes
// and dots between single letters ("U.S.", "e.g."). A clitic is left for the next token.
func scanWord(s string, i int) (Token, bool) {
	j := i
	for j < len(s) {
		r, w := utf8.DecodeRuneInString(s[j:])
		if isWordRune(r) {
			j += w
			continue
		}
		if (r == '-' || r == '\'' || r == '’' || r == '.' || r == '&') && j > i && j+w < len(s) && isWordRune(firstRune(s[j+w:])) {
			if r == '.' && !singleLetterBefore(s, i, j) {
				break
			}
			j += w
			continue
		}
		if r == '.' && singleLetterBefore(s, i, j) && strings.Contains(s[i:j], ".") {
			j += w // the final dot of "U.S."
		}
		break
	}
	if j == i {
		// A clitic standing alone after a split ("n't", "'s"), or a possessive apostrophe.
		for _, c := range clitics {
			if strings.HasPrefix(strings.ToLower(s[i:]), c) && (i+len(c) == len(s) || !isWordRune(firstRune(s[i+len(c):]))) {
				return Token{Text: s[i : i+len(c)], Kind: Word, Start: i, End: i + len(c)}, true
			}
		}
		return Token{}, false
	}
	low := strings.ToLower(s[i:j])
	for _, c := range clitics {
		if strings.HasSuffix(low, c) && len(low) > len(c) {
			j -= len(c)
			break
		}
	}
	return Token{Text: s[i:j], Kind: Word, Start: i, End: j}, true
}

// singleLetterBefore reports whether s[i:j] ends in a single letter preceded by a dot or the
// word start: the shape of abbreviations like "U.S" or "e.g".
func singleLetterBefore(s string, i, j int) bool {
	r, w := utf8.DecodeLastRuneInString(s[i:j])
	if !unicode.IsLetter(r) {
		return false
	}
	k := j - w
	return k == i || s[k-1] == '.'
}
