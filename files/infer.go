package files

import (
	"bytes"
	"strings"
	"time"
	"unicode/utf8"
)

// Column types a profile reports.
const (
	TypeInteger = "integer"
	TypeNumber  = "number"
	TypeDate    = "date"
	TypeBoolean = "boolean"
	TypeText    = "text"
	TypeEmpty   = "empty" // every sampled value is missing
)

// naValues are the strings pandas.read_csv reads as missing by default; the
// profile counts the same cells the agent's code will see as NaN.
var naValues = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "None": true, "n/a": true, "nan": true, "null": true,
}

// isMissing reports whether a cell counts as missing. It takes bytes so that
// the streaming pass over every row allocates nothing.
func isMissing(b []byte) bool {
	if n := len(b); n > 0 && (b[0] <= ' ' || b[n-1] <= ' ') {
		b = bytes.TrimSpace(b)
	}
	if len(b) == 0 {
		return true
	}
	if len(b) > len("#N/A N/A") {
		return false
	}
	// Every NA string starts with one of these; the map is the slow part.
	switch b[0] {
	case '#', '-', '1', '<', 'N', 'n':
		return naValues[string(b)]
	}
	return false
}

// dateLayouts are the date and date-time spellings recognised, day-first and
// month-first alike: for the type it does not matter which one reads
// "01/02/2024". time.Parse takes one or two digits for "1" and "2", and any
// fractional seconds after "05".
var dateLayouts = []string{
	"2006-1-2", "2006/1/2", "2006.1.2",
	"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04",
	"2006-01-02 15:04:05Z07:00", "2006-01-02 15:04:05 -0700", "2006-01-02 15:04:05", "2006-01-02 15:04",
	"1/2/2006", "2/1/2006", "1/2/06", "2/1/06", "1/2/2006 15:04", "1/2/2006 15:04:05",
	"2/1/2006 15:04", "2/1/2006 15:04:05", "1/2/2006 3:04 PM", "1/2/2006 3:04:05 PM",
	"2.1.2006", "2.1.06", "2.1.2006 15:04", "2.1.2006 15:04:05",
	"2-1-2006", "1-2-2006", "1-2-06", "2-1-06",
	"2 Jan 2006", "2-Jan-2006", "2-Jan-06", "Jan 2, 2006", "Jan 2 2006", "January 2, 2006",
	"2 January 2006", "Mon, 2 Jan 2006", "Mon, 02 Jan 2006 15:04:05 -0700", "Monday, January 2, 2006",
	// Months, as Excel shows whole months ("mmm-yy") and as reports label them.
	"Jan-06", "Jan-2006", "Jan 2006", "January 2006", "2006-01",
}

// parseDate returns the layout that reads s as a date, trying hint first (the
// layout the column's previous date matched), or "".
func parseDate(s, hint string) string {
	if len(s) < 6 || len(s) > 40 || !strings.ContainsAny(s, "0123456789") || !startsAlnum(s) {
		return ""
	}
	if hint != "" {
		if _, err := time.Parse(hint, s); err == nil {
			return hint
		}
	}
	for _, l := range dateLayouts {
		if _, err := time.Parse(l, s); err == nil {
			return l
		}
	}
	return ""
}

func startsAlnum(s string) bool {
	c := s[0]
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isBool(s string) bool {
	for _, b := range []string{"true", "false", "yes", "no"} {
		if strings.EqualFold(s, b) {
			return true
		}
	}
	return false
}

// truncate shortens s to at most n runes for display, marking the cut.
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}
