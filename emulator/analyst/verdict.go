package analyst

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// A yes/no question gets its verdict first (issue 37): "Were there any passengers who paid a
// fare of more than $500?" → Yes, with the rows that say so; "Is the average age of the
// respondents above 30?" → Yes, with the average. The rules give a verdict where the question's
// structure is one they read whole:
//   - any: some rows meet the conditions ("Is there …", "Are there any …", "Did any …");
//   - aggregate: a statistic of one column compared with a number ("Is the average X above N?").
// Other yes/no questions are answered as before or declined, never with a nearby statistic in
// place of the verdict.

// verdictKind is the shape of a yes/no question.
type verdictKind int

const (
	verdictAny       verdictKind = iota + 1 // some row meets the filters
	verdictAggregate                        // Agg(measure) Op Value
)

// verdict is what a yes/no question checks.
type verdict struct {
	kind  verdictKind
	op    string // for verdictAggregate: >, >=, <, <=
	value string // the number compared with
}

// aggregates are the statistics a verdict compares.
var verdictAggs = setOf("mean", "median", "sum", "min", "max", "std")

// readVerdict reads the verdict a yes/no question asks for from its parse, its links and its
// query; ok is false when the question is not yes/no or its structure is not one the rules
// check whole. complete reports whether the query needed nothing more (complete returned no
// reply): an aggregate verdict sets its own measure, an existential one needs the query's.
func readVerdict(s *language.Sentence, q *Query, f *Frame, completed bool) (verdict, bool) {
	if s.Form().Kind != language.YesNo || len(s.Parts) != 1 || len(s.Superlatives) > 0 || q.Code != "" {
		return verdict{}, false
	}
	switch q.Intent {
	case intentStat, intentFilter, intentSize, intentCounts, intentAmbig:
	default:
		return verdict{}, false
	}
	if len(q.By) > 0 || q.JoinWith >= 0 || q.Via >= 0 || q.stat.test != "" || q.stat.outlier != "" || q.stat.model != "" || q.stat.decline != "" {
		return verdict{}, false
	}
	r := schema.NewIndex(schemaTable(f)).Link(s)
	if v, ok := aggregateVerdict(s, r, q, f); ok {
		return v, true
	}
	if completed && q.Intent != intentAmbig && len(q.Filters) > 0 && asksForAny(s) && len(s.Comparisons) <= 1 {
		return verdict{kind: verdictAny}, true
	}
	return verdict{}, false
}

// aggregateLemmas are the statistics a verdict compares, by the lemma that names them.
var aggregateLemmas = map[string]string{"average": "mean", "mean": "mean", "median": "median", "total": "sum",
	"sum": "sum", "maximum": "max", "minimum": "min"}

// aggregateVerdict reads "Is the average age of the respondents above 30?" from the parse and
// its links: a statistic's word, then the one numeric column it is of, then a comparison with a
// number; the other phrases may only name the rows or a value that keeps rows ("female"). It
// sets the query's measure, statistic and filters from what it read.
func aggregateVerdict(s *language.Sentence, r *schema.Result, q *Query, f *Frame) (verdict, bool) {
	if len(s.Comparisons) != 1 {
		return verdict{}, false
	}
	c := s.Comparisons[0]
	if c.Op == "between" || c.Op == "=" || c.Op == "!=" || c.Value.Len() != 1 {
		return verdict{}, false
	}
	if n := s.Tokens[c.Value.Start]; n.Kind != language.Number || n.Percent {
		return verdict{}, false
	}
	agg, at := "", -1
	for i, t := range s.Tokens[:c.Start] {
		if a, ok := aggregateLemmas[t.Lemma]; ok && agg == "" {
			agg, at = a, i
		}
	}
	if agg == "" {
		return verdict{}, false
	}
	var measure string
	var filters []Filter
	for _, l := range r.Links {
		b := l.Best()
		inside := l.Span.Start > at && l.Span.End <= c.Start
		switch {
		case b.Kind == schema.ColumnLink && inside && measure == "" && b.Score >= schema.UseScore:
			if col := f.column(b.Column); col != nil && col.Kind == "num" {
				measure = b.Column
				continue
			}
			return verdict{}, false
		case b.Kind == schema.RowsLink:
		case b.Kind == schema.ValueLink && b.Score >= schema.UseScore:
			filters = append(filters, valueFilter(f, b))
		case l.Span.Start >= c.Start && l.Span.End <= c.End:
			// the comparison's own words ("older than"): read with it
		default:
			return verdict{}, false // a phrase the verdict would leave unread
		}
	}
	if measure == "" {
		return verdict{}, false
	}
	q.Measures, q.Agg, q.Filters, q.By = []string{measure}, agg, filters, nil
	return verdict{kind: verdictAggregate, op: c.Op, value: strconv.FormatFloat(s.Tokens[c.Value.Start].Value, 'g', -1, 64)}, true
}

// valueFilter keeps the rows whose column holds a linked value; a boolean column's value is
// compared as the boolean it is.
func valueFilter(f *Frame, c schema.Candidate) Filter {
	if col := f.column(c.Column); col != nil && col.Kind == "bool" {
		return Filter{Col: c.Column, Op: "==", Value: c.Value, Kind: "num"}
	}
	return Filter{Col: c.Column, Op: "==", Value: c.Value, Kind: "cat"}
}

// asksForAny reports an existential question: "Is there …", "Are there any …", "Did any …",
// "Was any …", "Has anyone …".
func asksForAny(s *language.Sentence) bool {
	for _, t := range s.Tokens[:min(len(s.Tokens), 4)] {
		if t.Is("there", "any", "anyone", "anybody", "anything", "some", "someone") {
			return true
		}
	}
	return false
}

// verdictCell writes the cell of a verdict: the conditions as a mask (no error when no row
// meets them: that is the answer "No"), then the check, reported as a "verdict" result.
func (g *gen) verdictCell(v verdict) {
	g.line("df = frames[%s]", py(g.f.Key))
	g.prepare()
	mask := "pd.Series(True, index=df.index)"
	if len(g.q.Filters) > 0 {
		var conds []string
		for _, f := range g.q.Filters {
			conds = append(conds, "("+filterExpr(f)+")")
		}
		mask = strings.Join(conds, " & ")
	}
	g.line("_mask = %s", mask)
	where := describeFilters(g.q.Filters)
	switch v.kind {
	case verdictAny:
		g.line("_n = int(_mask.sum())")
		g.line("_emit(\"verdict\", shape=\"any\", yes=bool(_n > 0), n=_n, of=len(df), where=%s)", py(where))
		g.line("df[_mask].head(10)")
	case verdictAggregate:
		m := g.q.Measures[0]
		g.line("_v = float(pd.to_numeric(df[_mask][%s], errors=\"coerce\").%s())", py(m), g.q.Agg)
		g.line("_emit(\"verdict\", shape=\"aggregate\", yes=bool(_v %s %s), value=_v, agg=%s, col=%s, op=%s, than=%s, where=%s)",
			v.op, v.value, py(g.q.Agg), py(m), py(v.op), v.value, py(where))
	}
}

// verdictSentence writes a verdict's reply: Yes or No first, then the evidence.
func verdictSentence(m marker) string {
	yes, _ := m["yes"].(bool)
	word := "No"
	if yes {
		word = "Yes"
	}
	switch m.str("shape") {
	case "any":
		n, _ := m.num("n")
		if n == 0 {
			return fmt.Sprintf("**%s**: none of the %s rows has %s.", word, m.str("of"), m.str("where"))
		}
		return fmt.Sprintf("**%s**: %s of %s rows have %s; the table above shows the first of them.", word, m.str("n"), m.str("of"), m.str("where"))
	case "aggregate":
		ops := map[string]string{">": "above", ">=": "at least", "<": "below", "<=": "at most"}
		s := fmt.Sprintf("**%s**: the %s of `%s` is %s, %s %s.", word, aggWord[m.str("agg")], m.str("col"), m.str("value"),
			map[bool]string{true: "", false: "not "}[yes]+ops[m.str("op")], m.str("than"))
		if w := m.str("where"); w != "" {
			s += " (rows where " + w + ")"
		}
		return s
	}
	return "**" + word + "**."
}

// verdictPlan plans a yes/no question as a verdict when readVerdict reads it whole. The row
// nouns of a yes/no question ("Were there any passengers …") are read as the rows here, where
// the verdict, not a nearby statistic, answers.
func verdictPlan(question string, history []Message, p *Profile, ref refinements, derived []derivation) (plan, bool) {
	s := language.Read(question, nil)
	if s.Form().Kind != language.YesNo {
		return plan{}, false
	}
	ix := newColIndex(p)
	ix.yesNoRows = true
	q := resolveTurn(question, history, ix)
	q.refine, q.derived = ref, derived
	if len(q.unknown) > 0 {
		return plan{}, false
	}
	f := queryFrame(p, &q)
	v, ok := readVerdict(s, &q, f, false)
	if !ok {
		if complete(&q, p) != "" {
			return plan{}, false
		}
		if v, ok = readVerdict(s, &q, f, true); !ok {
			return plan{}, false
		}
	}
	g := newGen(&q, p)
	g.verdictCell(v)
	return plan{Query: q, Cells: []string{strings.TrimRight(g.b.String(), "\n")}}, true
}
