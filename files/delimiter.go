package files

import "bytes"

// delimiters are the field separators recognised, in order of preference
// when two fit equally well.
var delimiters = []byte{',', ';', '\t', '|'}

// sniffDelimiter picks the separator that splits the first lines of text
// into the same number of fields most consistently, the header included. The
// header matters: it keeps a decimal comma in the data of a semicolon file
// from looking like the separator. prefer wins ties (a tab for .tsv).
func sniffDelimiter(text []byte, prefer byte) byte {
	lines := bytes.Split(text, []byte{'\n'})
	if len(lines) > 1 {
		lines = lines[:len(lines)-1] // the last line may be cut short
	}
	lines = lines[:min(len(lines), 50)]
	best, bestShare, bestFields := prefer, 0.0, 0
	for _, d := range append([]byte{prefer}, delimiters...) {
		fields, share := consistency(lines, d)
		if fields > 1 && (share > bestShare || share == bestShare && fields > bestFields) {
			best, bestShare, bestFields = d, share, fields
		}
	}
	return best
}

// consistency returns the most common number of fields d splits the lines
// into, and the share of lines that have that number.
func consistency(lines [][]byte, d byte) (fields int, share float64) {
	counts := map[int]int{}
	n := 0
	for _, l := range lines {
		if len(bytes.TrimSpace(l)) == 0 || isComment(l, true) {
			continue
		}
		counts[fieldsOutsideQuotes(l, d)]++
		n++
	}
	most := 0
	for f, c := range counts {
		if c > most || c == most && f > fields {
			fields, most = f, c
		}
	}
	if n == 0 {
		return 0, 0
	}
	return fields, float64(most) / float64(n)
}

func fieldsOutsideQuotes(line []byte, d byte) int {
	fields, quoted := 1, false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == d && !quoted:
			fields++
		}
	}
	return fields
}
