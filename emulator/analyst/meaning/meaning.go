// Package meaning turns a question read by package language and linked by package schema into
// one typed meaning: which rows (filters), in what order and how many (a ranking of rows, or of
// groups by their size or by an aggregate), what is taken from them (a column or the rows) and
// how it is summed up (an aggregate), and, for a yes/no question, what the result is checked
// against. It is built from the parse by composable rules, one per construction (a value
// phrase is a filter, a comparison is a filter on the column it follows, a superlative is an
// order, "how many" is a count, "is there" is an existence check), not by matching phrasings.
//
// Read decides on meaning, not on words: every word that carries content must be accounted for
// by a link, a construction or an operation, or Read returns a Gap naming the phrase it could
// not place, and the caller asks back or falls back. Words with no analytic role (light verbs,
// the row entity, politeness, "the dataset") never block.
package meaning

import (
	"fmt"
	"strings"
)

// Form is the kind of answer a question asks for.
type Form uint8

// The answer forms.
const (
	Value   Form = iota // one value: a number, a category, an entity
	List                // several values: "list the top 3 countries"
	Verdict             // yes or no
)

var formNames = [...]string{"value", "list", "verdict"}

// String returns the form's name.
func (f Form) String() string { return formNames[f] }

// Agg is how the selected values are summed up.
type Agg uint8

// The aggregates.
const (
	NoAgg    Agg = iota
	Count        // how many rows
	Distinct     // how many different values
	Sum
	Mean
	Median
	Max
	Min
)

var aggNames = [...]string{"", "count", "distinct", "sum", "mean", "median", "max", "min"}

// String returns the aggregate's name as pandas spells it ("nunique" is "distinct" here).
func (a Agg) String() string { return aggNames[a] }

// Condition is one test on a column's values: a filter on the rows, or the check of a verdict.
type Condition struct {
	Column string
	// Op is ==, !=, >, >=, <, <=, in or not in; notna: the column has a value; isna: it has
	// none (missing, or blank text); same: see Same;
	// after and before: see Ref.
	Op    string
	Value string // as the table writes it ("female", "True"), or a number
	// Values are the values of in and not in: "clay or hard".
	Values []string
	// Both is set on in when the values were named with "and" ("male and female employees"):
	// an average over them is one per value (see eachValue).
	Both bool
	// Numeric is set when Value is a number to compare as one.
	Numeric bool
	// Items tests the items of a cell of a column of lists: how many there are, compared with
	// a number ("more than 10 keywords"), or whether Value is one of them ("Boris" among the
	// mentions).
	Items bool
	// Than is the other column of the same row a comparison is with, instead of Value: "more
	// replies than retweets" is replies > retweets.
	Than string
	// Pick is set on a top or bottom check that compares two rows: the selected row's Pick
	// against the Pick of the row at Column's extreme ("is the artist of the song with the
	// highest rank the same as the artist of the song with the lowest rank"). Empty, the check
	// compares the selected row's Column with its extreme.
	Pick string
	// Same is set for "same" (Op): the rows whose Column equals that of the rows Same keeps,
	// those rows left out: "the same length as Topeng" is Length same as (Title == Topeng).
	Same *Condition
	// Ref is set for after and before (Op): the rows that follow, or precede, in the file's
	// order the first row passing every condition of Ref: "the round after round 3" is after
	// (Round == 3). Column is empty.
	Ref []Condition
	// Part is a strftime pattern that takes part of a date column's values before they are
	// compared: "%m" for "in February" (Value "02"), "%m-%d" for "on September 17th".
	Part string
	// Phrase is the question's words for the condition, to say which rows were used.
	Phrase string
	at     int // the condition's first token, to tell the subject's from the predicate's
	// borrowed marks a comparison that names no column: it took the nearest one before it
	// ("the oldest passenger above 50"), which a yes/no predicate may override.
	borrowed bool
}

// Order ranks rows, or groups of rows, and keeps the first N.
type Order struct {
	// Column orders the rows by its values; with Group set, the groups by Agg of it.
	Column string
	// Size orders the groups by their number of rows ("the most billionaires", "most common").
	Size bool
	Agg  Agg // with Group and Column: the aggregate the groups are ordered by
	Desc bool
	N    int // how many to keep; at least 1
	// Unique keeps each value once: "the 3 lowest unique complaint keys".
	Unique bool
	// Length orders a column of text by how long each value is: "the longest lyrics".
	Length bool
	// Said is set when the question gave N ("the top 3"); a superlative alone keeps 1.
	Said bool
	// Each is set when the groups are the values a question named with "and" ("the average
	// salary of male and female employees"): every one is kept, and the order only lists them.
	Each bool
	// Position ranks the rows in the file's order, with no column: "the last opponent" is
	// the last row's. Desc counts from the end.
	Position bool
	// Phrase is the question's words for the order: "the youngest billionaire".
	Phrase string
	// Ties says how rows or groups equal on the order are put in order, as a sentence after the
	// question asks ("if there is a tie, use alphabetical order"); by default a tie at the top
	// is named as one.
	Ties Ties
}

// Ties is how equal rows or groups are ordered.
type Ties uint8

// The ways of breaking ties.
const (
	TiesNamed        Ties = iota // a tie at the top is said to be one
	TiesAlphabetical             // by the answer's values, A to Z
	TiesReverse                  // by the answer's values, Z to A
	TiesFileOrder                // as the rows come in the file
)

// Meaning is what one question asks, in terms of one table.
type Meaning struct {
	Form    Form
	Filters []Condition
	// Group is the column whose values the answer names when groups are ranked ("which
	// country has the most billionaires") or counted.
	Group string
	// GroupPart is a strftime pattern that takes a period of Group's dates to group by: "%B" for
	// "which month has the most tornadoes", "%A" for "which day of the week".
	GroupPart string
	Order     *Order
	// Target is the column the answer takes its values from; "" takes the rows themselves
	// (named by Identifier when the question asks which rows).
	Target string
	Agg    Agg
	// Identifier names the rows when the answer is rows ("who", "which billionaire").
	Identifier string
	// Check is what a verdict compares the result with: the selected entity's value, an
	// aggregate, the most common value.
	Check *Condition
	// Exists asks whether any row passes the filters ("is there any …", "did any …"); with
	// None, whether no row does ("there were no days when …").
	Exists, None bool
	// Within applies the filters to the ranked rows rather than ranking the filtered ones: "is
	// there a non-self-made billionaire in the top 5 ranks".
	Within bool
	// Unique asks whether Target's values are all different ("is every name unique").
	Unique bool
	// All asks whether every selected row passes Check ("are all products recommended", "do
	// all customers have phone service"); with Majority, whether more than half do ("do the
	// majority of respondents have a height greater than 170 cm", "do most passengers …").
	All, Majority bool
	// Alike asks whether Target has one value in every selected row ("are all properties in
	// the same neighbourhood").
	Alike bool
}

// String renders the meaning compactly, for logs and tests: "value | order age asc 1 |
// target age".
func (m *Meaning) String() string {
	parts := []string{m.Form.String()}
	for _, c := range m.Filters {
		parts = append(parts, "where "+c.String())
	}
	if m.Group != "" {
		g := "group " + m.Group
		if m.GroupPart != "" {
			g += " by " + m.GroupPart
		}
		parts = append(parts, g)
	}
	if o := m.Order; o != nil {
		by := o.Column
		switch {
		case o.Position:
			by = "position"
		case o.Size:
			by = "size"
		case o.Agg != NoAgg:
			by = o.Agg.String() + "(" + o.Column + ")"
		case o.Length:
			by = "len(" + o.Column + ")"
		}
		dir := "asc"
		if o.Desc {
			dir = "desc"
		}
		s := fmt.Sprintf("order %s %s %d", by, dir, o.N)
		if o.Unique {
			s += " unique"
		}
		parts = append(parts, s)
	}
	if m.Target != "" {
		parts = append(parts, "target "+m.Target)
	}
	if m.Agg != NoAgg {
		parts = append(parts, "agg "+m.Agg.String())
	}
	if m.Identifier != "" {
		parts = append(parts, "named by "+m.Identifier)
	}
	for _, flag := range []struct {
		on   bool
		name string
	}{{m.Exists, "exists"}, {m.None, "none"}, {m.Within, "within"}, {m.Unique, "unique"}, {m.Alike, "alike"}, {m.All, "all"}, {m.Majority, "majority"}} {
		if flag.on {
			parts = append(parts, flag.name)
		}
	}
	if m.Check != nil {
		parts = append(parts, "check "+m.Check.String())
	}
	return strings.Join(parts, " | ")
}

// String renders a condition: "Sex == female", "Surface not in Clay,Hard".
func (c Condition) String() string {
	v := c.Value
	if len(c.Values) > 0 {
		v = strings.Join(c.Values, ",")
	}
	if c.Same != nil {
		return c.Column + " same as (" + c.Same.String() + ")"
	}
	if c.Ref != nil {
		var ref []string
		for _, r := range c.Ref {
			ref = append(ref, r.String())
		}
		return c.Op + " (" + strings.Join(ref, " & ") + ")"
	}
	if c.Than != "" {
		v = c.Than
	}
	if c.Pick != "" {
		return c.Pick + " at " + c.Column + " " + c.Op
	}
	column := c.Column
	if c.Part != "" {
		column += "[" + c.Part + "]"
	}
	return strings.TrimSpace(column + " " + c.Op + " " + v)
}
