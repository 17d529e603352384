package meaning

import (
	"cmp"
	"slices"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// neighbour reads a row placed by the rows around it, in the file's order: "what region is
// listed before the midwest", "the round after round 3", "who finished directly after
// papulova". The reference is the filters read inside the placement's object; the filters
// outside it select among the rows that follow or precede ("the next prime minister from the
// republican turkish party after ferdi sabit soyer"). A question for one value takes the
// nearest such row; "how many … before X" counts them (or their different values). A yes/no question, a second ranking
// ("the tallest building after …"), another summary or an object that names no row leaves a
// gap: answered without the placement, the question would be a nearby one.
func (rd *reader) neighbour() error {
	p, ok := rd.s.RowPlacement()
	if !ok {
		return nil
	}
	gap := &Gap{Phrase: rd.text(p.Span), Why: "a row placed by the rows around it"}
	if rd.s.Form().Kind == language.YesNo || rd.m.Order != nil || rd.m.Agg > Distinct {
		return gap
	}
	var ref, rest []Condition
	for _, c := range rd.m.Filters {
		if p.Object.Contains(c.at) || c.at == p.Object.End && rd.s.Tokens[c.at].Kind == language.Number {
			ref = append(ref, c)
		} else {
			rest = append(rest, c)
		}
	}
	if p.Weak && (len(ref) != 1 || ref[0].Op != "==" || ref[0].Numeric) {
		return nil // "above average" compares
	}
	if len(ref) == 0 || slices.ContainsFunc(ref, func(c Condition) bool { return c.Ref != nil || c.Same != nil }) {
		return gap
	}
	op := "before"
	if p.After {
		op = "after"
	}
	for _, k := range p.Marks {
		if rd.s.Tokens[k].IsVerb() && rd.scaleOfVerb(k) {
			return gap // "the next team to end after …" orders by Year ended, not by the file
		}
	}
	rd.m.Filters = append(rest, Condition{Op: op, Ref: ref, Phrase: rd.text(p.Span), at: p.Start})
	for _, k := range p.Marks {
		rd.used[k] = true
	}
	if rd.m.Agg == NoAgg {
		rd.m.Order = &Order{Position: true, Desc: !p.After, N: 1, Phrase: rd.text(p.Span)}
	}
	return nil
}

// neighbourDiffers makes a placement that asks for the value it names take the next different
// one: "what competition came after the inter-cities fairs cup" skips the rows of that cup.
func (rd *reader) neighbourDiffers() error {
	answer := cmp.Or(rd.m.Target, rd.m.Identifier)
	for _, c := range rd.m.Filters {
		if c.Ref == nil || answer == "" || rd.m.Order == nil {
			continue
		}
		for _, r := range c.Ref {
			if r.Column == answer && (r.Op == "==" || r.Op == "in") {
				rd.m.Filters = append(rd.m.Filters, Condition{Column: r.Column, Op: map[string]string{"==": "!=", "in": "not in"}[r.Op], Value: r.Value, Values: r.Values, Numeric: r.Numeric, Phrase: r.Phrase, at: c.at})
			}
		}
	}
	return nil
}

// scaleOfVerb reports a verb that names a column of numbers or dates, by which rows are
// ordered ("ended" → Year ended, "picked" → Pick); "listed" naming Name is no scale.
func (rd *reader) scaleOfVerb(k int) bool {
	c, ok := rd.best(k)
	if !ok || c.Kind != schema.ColumnLink {
		return false
	}
	col := rd.ix.Column(c.Column)
	return col != nil && (col.Type == schema.Number || col.Type == schema.Date)
}
