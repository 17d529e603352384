package files

import (
	"strconv"
	"strings"
)

// numShape describes how a value is written as a number.
type numShape struct {
	ok        bool
	integer   bool // no decimal part
	thousands byte // group separator used, 0 if none
	decimal   byte // '.' or ',' when there is a decimal part
	ambiguous bool // "1,234": 1234 with a comma group, or 1.234 with a decimal comma
}

// parseNumber recognises integers and decimals as spreadsheets and locales
// write them: "1234", "-1,234,567", "1.234.567,89", "1 234,5", "3,14",
// "6.02e23". A lone dot is always a decimal point ("1.234" is 1.234), as
// pandas reads it; a lone comma before exactly three digits is ambiguous and
// settled by the rest of the column.
func parseNumber(s string) numShape {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return numShape{}
	}
	if strings.ContainsAny(s, "eE") {
		return parseScientific(s)
	}
	groups, seps, ok := splitDigits(s)
	if !ok {
		return numShape{}
	}
	if len(seps) == 0 {
		return numShape{ok: true, integer: true}
	}
	if s[0] == '0' {
		groups[0] = 0 // "0,123" cannot be grouped thousands
	}
	last := seps[len(seps)-1]
	if strings.Count(seps, string(last)) == len(seps) {
		return sameSeparator(groups, last)
	}
	// Two separators: the last, used once, is the decimal mark; the rest group.
	thou := seps[0]
	if strings.Count(seps, string(thou)) != len(seps)-1 || last == ' ' || last == '\'' || !grouped(groups[:len(groups)-1]) {
		return numShape{}
	}
	return numShape{ok: true, thousands: thou, decimal: last}
}

// parseScientific accepts only digits, one dot and an exponent, so that
// ParseFloat's "Inf", "NaN" and hex forms are not taken for numbers.
func parseScientific(s string) numShape {
	if strings.Trim(s, "0123456789.eE+-") != "" || strings.Count(s, ".") > 1 {
		return numShape{}
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return numShape{}
	}
	return numShape{ok: true, decimal: '.'}
}

// splitDigits splits s into runs of digits and the single separators between
// them. A leading separator is allowed (".5"), a trailing one is not.
func splitDigits(s string) (groups []int, seps string, ok bool) {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			run++
		case c == ',' || c == '.' || c == ' ' || c == '\'':
			if run == 0 && i > 0 {
				return nil, "", false
			}
			groups = append(groups, run)
			seps += string(c)
			run = 0
		default:
			return nil, "", false
		}
	}
	if run == 0 {
		return nil, "", false
	}
	return append(groups, run), seps, true
}

func sameSeparator(groups []int, sep byte) numShape {
	grouping := grouped(groups)
	switch {
	case len(groups) > 2 || sep == ' ' || sep == '\'':
		if !grouping {
			return numShape{}
		}
		return numShape{ok: true, integer: true, thousands: sep}
	case sep == '.':
		return numShape{ok: true, decimal: '.'}
	case grouping:
		return numShape{ok: true, ambiguous: true}
	}
	return numShape{ok: true, decimal: ','}
}

// grouped reports whether digit runs form thousands groups: 1 to 3 digits,
// then runs of exactly 3.
func grouped(groups []int) bool {
	if len(groups) < 2 || groups[0] < 1 || groups[0] > 3 {
		return false
	}
	for _, g := range groups[1:] {
		if g != 3 {
			return false
		}
	}
	return true
}
