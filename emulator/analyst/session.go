package analyst

import (
	"strings"
)

// derivedDtype marks a column of the profile that a question derived, so that a later
// question may define it again (the same words asked twice) while a file's own column is
// never redefined.
const derivedDtype = " (derived)"

// readSession finds the columns the conversation derived, oldest first, and this question's
// refinements, and returns the profile with those columns in it: the planner keeps no state,
// so a derived column lives on by being read again from the history on every call.
func readSession(question string, history []Message, p *Profile) (*Profile, []derivation, refinements) {
	var all []derivation
	proper := map[string]string{}
	refs := map[string]refinements{}
	for _, m := range recent(history) {
		if m.Role != "user" || len(FencedBlocks(m.Text)) > 0 {
			continue
		}
		text, ref := readRefinements(m.Text, p)
		proper[m.Text], refs[m.Text] = text, ref
		if len(ref.Derived) > 0 {
			all = append(all, ref.Derived...)
			p = withDerived(p, ref.Derived)
		}
	}
	text, cur := readRefinements(question, p)
	proper[question], refs[question] = text, cur
	all = append(all, cur.Derived...)
	p = withEncodings(withDerived(p, cur.Derived), cur.Encodes)
	p.proper, p.refs = proper, refs
	return p, all, cur
}

// questionProper returns the question as readSession rewrote it, and its refinements; a
// question it did not see (a profile made without it) is read now.
func (p *Profile) questionProper(question string) (string, refinements) {
	if text, ok := p.proper[question]; ok {
		return text, p.refs[question]
	}
	return readRefinements(question, p)
}

// withEncodings returns the profile as the encodings leave it: a label-encoded column is a
// number, a one-hot encoded one becomes a 0/1 column per value.
func withEncodings(p *Profile, encs []encodeSpec) *Profile {
	if len(encs) == 0 {
		return p
	}
	out := *p
	out.Frames = append([]Frame{}, p.Frames...)
	for _, e := range encs {
		_, fi := columnInfo(&out, e.Col)
		if fi < 0 {
			continue
		}
		f := &out.Frames[fi]
		var cols []Column
		for _, c := range f.Columns {
			switch {
			case c.Name != e.Col:
				cols = append(cols, c)
			case e.How == "label":
				c.Kind, c.Dtype, c.Values = "num", "int64", nil
				cols = append(cols, c)
			default:
				for _, v := range c.Values {
					cols = append(cols, Column{Name: c.Name + "_" + v, Kind: "num", Dtype: "uint8", Unique: 2})
				}
			}
		}
		f.Columns = cols
	}
	return &out
}

// unreadReply declines a question with a clause the rules recognised but could not read, and
// offers the readings they can run, as questions to click.
func unreadReply(question string, ref refinements) string {
	var readings []string
	for _, h := range ref.UnreadHint {
		if ref.HintAlone {
			readings = append(readings, h)
		} else if i := strings.Index(question, ref.Unread); i >= 0 && !strings.Contains(h, "<") {
			readings = append(readings, strings.TrimSpace(question[:i]+h+question[i+len(ref.Unread):]))
		}
	}
	reply := "I did not run anything: I could not read “" + ref.Unread + "” in your question, and an answer " +
		"without it would answer a different question. I can derive columns from sums, differences, products " +
		"and ratios of columns, bins (a number of equal-width or equal-count groups, edges or ranges given), " +
		"date parts, text lengths and splits; and prepare the data by dropping or filling missing values " +
		"(mean, median, mode or a constant), removing duplicates, min-max or z scaling and encoding categories."
	if len(readings) > 0 {
		reply += " Perhaps one of these:" + suggestionList(readings[:min(len(readings), maxSuggestions)])
	}
	return reply
}
