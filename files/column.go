package files

import (
	"fmt"
	"math"
)

// Column describes one column of a tabular file.
type Column struct {
	Name string
	// Type is TypeInteger, TypeNumber, TypeDate, TypeBoolean, TypeText or
	// TypeEmpty, inferred from the sampled rows.
	Type string
	// Missing counts empty cells and pandas' default NA strings ("NA", "null"
	// ...) over every row read; MissingPct is the same as a percentage.
	Missing    int64
	MissingPct float64
	// Example is the first value that is not missing, shortened for display.
	Example string
}

// colStats gathers the evidence for one column's type from sampled values.
type colStats struct {
	name    string
	missing int64
	example string

	seen, ints, decimals, ambiguous, bools, dates, texts int
	thousands, decimal                                   byte
	dateHint, textExample                                string
}

// observe classifies v, a value that is not missing.
func (c *colStats) observe(v string) {
	c.seen++
	if c.example == "" {
		c.example = truncate(v, maxCellRunes)
	}
	if c.texts > 10 && c.texts*10 > c.seen {
		c.texts++ // clearly text: skip the costly parsing
		return
	}
	if isBool(v) {
		c.bools++
		return
	}
	if n := parseNumber(v); n.ok {
		c.number(n)
		return
	}
	if l := parseDate(v, c.dateHint); l != "" {
		c.dates++
		c.dateHint = l
		return
	}
	if c.texts == 0 {
		c.textExample = truncate(v, maxCellRunes)
	}
	c.texts++
}

func (c *colStats) number(n numShape) {
	switch {
	case n.ambiguous:
		c.ambiguous++
	case n.integer:
		c.ints++
	default:
		c.decimals++
		if c.decimal == 0 || n.decimal == ',' {
			c.decimal = n.decimal
		}
	}
	if c.thousands == 0 {
		c.thousands = n.thousands
	}
}

// kind decides the column's type from the evidence. A column mixing kinds is
// text, as pandas would read it.
func (c *colStats) kind() string {
	numeric := c.ints + c.decimals + c.ambiguous
	switch {
	case c.seen == 0:
		return TypeEmpty
	case c.bools == c.seen:
		return TypeBoolean
	case c.dates == c.seen:
		return TypeDate
	case numeric != c.seen:
		return TypeText
	case c.decimals > 0 || c.ambiguous > 0 && c.decimal == ',':
		return TypeNumber
	}
	return TypeInteger
}

// separators returns the thousands separator and decimal mark the column's
// numbers use; "1,234" alone counts as a comma group unless the column also
// has decimal commas.
func (c *colStats) separators() (thousands, decimal byte) {
	thousands, decimal = c.thousands, c.decimal
	if c.ambiguous > 0 && decimal != ',' && thousands == 0 {
		thousands = ','
	}
	return thousands, decimal
}

// hint returns a problem sentence for a numeric column spoiled by a few text
// values, which pandas would read as text, or "".
func (c *colStats) hint() string {
	numeric := c.ints + c.decimals + c.ambiguous
	if c.texts == 0 || numeric*10 < c.seen*9 {
		return ""
	}
	return fmt.Sprintf("Column “%s” holds numbers except for %d value(s) such as “%s”, so it reads as text. "+
		"Clean or remove those values before calculating with it.", c.name, c.texts, c.textExample)
}

func (c *colStats) column(rows int64) Column {
	col := Column{Name: c.name, Type: c.kind(), Missing: c.missing, Example: c.example}
	if rows > 0 {
		col.MissingPct = math.Round(float64(c.missing)*1000/float64(rows)) / 10
	}
	return col
}
