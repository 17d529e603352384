package analyst

import (
	"regexp"
	"strings"
)

// ordinalRef matches a column named by its position: "the first numeric column", "the last
// column", "2nd date field".
var ordinalRef = regexp.MustCompile(`(?i)\b(first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)\s+(?:(numeric|number|date|text|category|categorical)\s+)?(?:column|field|col)\b`)

var ordinalIndex = map[string]int{"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2,
	"fourth": 3, "4th": 3, "fifth": 4, "5th": 4, "last": -1}

var ordinalKind = map[string]string{"numeric": "num", "number": "num", "date": "date", "text": "cat",
	"category": "cat", "categorical": "cat"}

// resolveOrdinals replaces positional column references with the names of the columns of the
// first table, so that the rest of the parser sees "describe Volume" for "describe the last
// column". A reference past the end is left as typed.
// The notes say each reading, since the user did not name the column.
func resolveOrdinals(question string, p *Profile) (string, []string) {
	if len(p.Frames) == 0 || !ordinalRef.MatchString(question) {
		return question, nil
	}
	f := &p.Frames[0]
	var notes []string
	out := ordinalRef.ReplaceAllStringFunc(question, func(m string) string {
		sub := ordinalRef.FindStringSubmatch(m)
		var cands []string
		for _, c := range f.Columns {
			if k := ordinalKind[strings.ToLower(sub[2])]; k == "" || c.Kind == k {
				cands = append(cands, c.Name)
			}
		}
		i := ordinalIndex[strings.ToLower(sub[1])]
		if i < 0 {
			i = len(cands) - 1
		}
		if i < 0 || i >= len(cands) {
			return m
		}
		notes = append(notes, "I read *"+m+"* as `"+cands[i]+"`.")
		return cands[i]
	})
	return out, notes
}
