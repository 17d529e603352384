package files

import (
	"strings"
	"testing"
)

func TestParseNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want numShape
	}{
		{"0", numShape{ok: true, integer: true}},
		{"-42", numShape{ok: true, integer: true}},
		{"+7", numShape{ok: true, integer: true}},
		{"3.14", numShape{ok: true, decimal: '.'}},
		{".5", numShape{ok: true, decimal: '.'}},
		{"3,14", numShape{ok: true, decimal: ','}},
		{"0,123", numShape{ok: true, decimal: ','}},
		{"1.234", numShape{ok: true, decimal: '.'}},
		{"1,234", numShape{ok: true, ambiguous: true}},
		{"1,234,567", numShape{ok: true, integer: true, thousands: ','}},
		{"1.234.567", numShape{ok: true, integer: true, thousands: '.'}},
		{"1 234 567", numShape{ok: true, integer: true, thousands: ' '}},
		{"1'234'567", numShape{ok: true, integer: true, thousands: '\''}},
		{"-1,234.56", numShape{ok: true, thousands: ',', decimal: '.'}},
		{"1.234.567,89", numShape{ok: true, thousands: '.', decimal: ','}},
		{"1 234,5", numShape{ok: true, thousands: ' ', decimal: ','}},
		{"6.02e23", numShape{ok: true, decimal: '.'}},
		{"1E-3", numShape{ok: true, decimal: '.'}},
		{"", numShape{}},
		{"-", numShape{}},
		{"12,34.5", numShape{}},
		{"1.2.3", numShape{}},
		{"192.168.1.1", numShape{}},
		{"555 1234", numShape{}},
		{"1,", numShape{}},
		{"1,,2", numShape{}},
		{"NaN", numShape{}},
		{"Inf", numShape{}},
		{"0x1F", numShape{}},
		{"1e", numShape{}},
		{"12abc", numShape{}},
		{"$5", numShape{}},
	}
	for _, tt := range tests {
		if got := parseNumber(tt.in); got != tt.want {
			t.Errorf("parseNumber(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func TestParseDate(t *testing.T) {
	dates := []string{
		"2024-01-31", "2024-1-5", "2024/01/31", "31/01/2024", "01/31/2024", "1/5/24", "31.01.2024",
		"5.1.2024", "31-01-2024", "01-31-24", "31 Jan 2024", "31-Jan-2024", "Jan 31, 2024", "January 31, 2024",
		"2024-01-31T13:45:00Z", "2024-01-31T13:45:00.123+01:00", "2024-01-31 13:45:00", "2024-01-31 13:45",
		"1/31/2024 1:45 PM", "31.01.2024 13:45", "Wed, 31 Jan 2024", "Mon, 02 Jan 2006 15:04:05 -0700",
		"Mar-24", "March 2024", "2024-03",
	}
	for _, d := range dates {
		if parseDate(d, "") == "" {
			t.Errorf("parseDate(%q) found no layout", d)
		}
	}
	notDates := []string{"", "2024", "13/13/2024", "hello world", "12:30", "1.5", "2024-13-01", "A-1234", "31 Foo 2024"}
	for _, s := range notDates {
		if l := parseDate(s, ""); l != "" {
			t.Errorf("parseDate(%q) = %q, want no layout", s, l)
		}
	}
}

func TestColumnKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		values   []string
		wantType string
		wantThou byte
		wantDec  byte
	}{
		{"integers", []string{"1", "2", "-3"}, TypeInteger, 0, 0},
		{"comma groups", []string{"1,234", "12,345,678", "5"}, TypeInteger, ',', 0},
		{"lone comma groups", []string{"1,234", "2,500"}, TypeInteger, ',', 0},
		{"decimal commas settle the ambiguity", []string{"1,234", "3,5"}, TypeNumber, 0, ','},
		{"decimals", []string{"1.5", "2", "1,234.50"}, TypeNumber, ',', '.'},
		{"european", []string{"1.234,56", "7,5"}, TypeNumber, '.', ','},
		{"booleans", []string{"true", "FALSE", "Yes", "no"}, TypeBoolean, 0, 0},
		{"dates", []string{"2024-01-02", "03/04/2024", "5 Jan 2024"}, TypeDate, 0, 0},
		{"text", []string{"a", "b"}, TypeText, 0, 0},
		{"numbers and dates mixed", []string{"1", "2024-01-02"}, TypeText, 0, 0},
		{"nothing", nil, TypeEmpty, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &colStats{name: "c"}
			for _, v := range tt.values {
				c.observe(v)
			}
			thou, dec := c.separators()
			if got := c.kind(); got != tt.wantType || thou != tt.wantThou || dec != tt.wantDec {
				t.Errorf("kind = %s, separators %q %q; want %s, %q %q", got, thou, dec, tt.wantType, tt.wantThou, tt.wantDec)
			}
		})
	}
}

func TestColumnHint(t *testing.T) {
	c := &colStats{name: "price"}
	for i := 0; i < 30; i++ {
		c.observe("12.5")
	}
	c.observe("n.a.")
	if c.kind() != TypeText {
		t.Errorf("kind = %s, want text", c.kind())
	}
	if h := c.hint(); h == "" {
		t.Error("no hint for a numeric column with one text value")
	} else {
		checkSentences(t, h)
	}
}

func TestIsMissing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{"", true}, {"  ", true}, {"NA", true}, {" NA ", true}, {"n/a", true}, {"null", true}, {"NULL", true},
		{"NaN", true}, {"#N/A", true}, {"#N/A N/A", true}, {"<NA>", true}, {"-nan", true}, {"1.#IND", true},
		{"None", true}, {"\tnan\r", true},
		{"0", false}, {"-", false}, {"none", false}, {"Nancy", false}, {"1", false}, {"N", false}, {"#N/A N/A!", false},
	}
	for _, tt := range tests {
		if got := isMissing([]byte(tt.in)); got != tt.want {
			t.Errorf("isMissing(%q) = %v, want %v", tt.in, got, tt.want)
		}
		if got := naValues[strings.TrimSpace(tt.in)]; got != tt.want {
			t.Errorf("naValues[%q] = %v, disagrees with isMissing", tt.in, got)
		}
	}
}
