package meaning

import (
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// order reads the superlatives into one Order. "top N" and "bottom N" give the count and the
// end; a superlative adjective gives what is ordered: a column's own scale ("the highest
// fare"), an attribute ("the youngest" → age), money ("the richest"), or the size of groups
// ("the most billionaires", "the most common gender", "the highest number of survivors").
func (rd *reader) order() error {
	var bounds []language.Superlative // top, bottom
	var scales []language.Superlative
	for _, sp := range rd.s.Superlatives {
		if rd.majorityWord(sp) {
			continue // "are most athletes older than 25": more than half of them, no ranking
		}
		rd.used[sp.Word] = true
		if sp.Lemma == "" {
			bounds = append(bounds, sp)
		} else {
			scales = append(scales, sp)
		}
	}
	if len(scales) == 2 && len(bounds) == 0 {
		if c := rd.alsoExtreme(scales[0], scales[1]); c != nil {
			rd.also, scales = c, scales[:1] // "does the oldest borrower also have the highest loan amount"
		}
	}
	if len(scales) > 1 || len(bounds) > 1 {
		return &Gap{Phrase: rd.text(rd.s.Superlatives[1].Span), Why: "a second ranking in one question"}
	}
	if len(scales) == 1 && len(bounds) == 1 && rd.placesRows(scales[0]) {
		// "the top song produced in the earliest year": the year is a ranking of its own
		return &Gap{Phrase: rd.text(scales[0].Span), Why: "a second ranking in one question"}
	}
	var o *Order
	var err error
	switch {
	case len(scales) == 1:
		o, err = rd.scaleOrder(scales[0])
	case len(bounds) == 1:
		o, err = rd.boundOrder(bounds[0])
	default:
		rd.m.Order = rd.positionOrder()
		return nil
	}
	if err != nil {
		return err
	}
	if len(bounds) == 1 {
		b := bounds[0]
		if b.Phrase >= 0 {
			for _, i := range rd.s.Phrases[b.Phrase].Numbers {
				rd.used[i] = true
			}
		}
		o.N, o.Said = max(b.N, 1), b.N > 0
		if b.Least {
			o.Desc = !o.Desc
		}
		if len(scales) == 1 && scales[0].N > 0 {
			o.N, o.Said = scales[0].N, true
		}
	}
	rd.focusCount(o) // "the 4 categories with the fewest billionaires"
	if len(scales) == 1 && !o.Said {
		rd.rankedCount(o, scales[0]) // "the G-force values of the 2 roller coasters with the highest G-force"
	}

	rd.m.Order = o
	return nil
}

// alsoExtreme reads the second of two superlatives in a yes/no question as a check on the row
// the first selects, when "also" comes between them: "is the URL with the lowest ranking also
// the one with the highest monthly searches", "does the song with the longest duration also
// have the highest energy"; or, with "the same … as" between them, as a comparison of the two
// rows by the column asked about: "is the artist of the song with the highest rank the same as
// the artist of the song with the lowest rank". The second must rank a numeric column by its
// own scale.
func (rd *reader) alsoExtreme(first, second language.Superlative) *Condition {
	between := rd.s.Tokens[first.Span.End:second.Span.Start]
	also := slices.ContainsFunc(between, func(t language.Token) bool { return t.Is("also") })
	same := slices.IndexFunc(between, func(t language.Token) bool { return t.Is("same") })
	if rd.s.Form().Kind != language.YesNo || !also && same < 0 {
		return nil
	}
	if rd.sizeOrder(second) {
		return nil
	}
	col, at := rd.scaleColumn(second)
	if col == "" || !rd.numeric(col) {
		return nil
	}
	pick := ""
	if !also {
		if pick = rd.sameColumn(first.Span.End + same); pick == "" {
			return nil
		}
	}
	rd.useLink(at)
	rd.used[second.Word] = true
	if second.Adjective >= 0 {
		rd.used[second.Adjective] = true
	}
	high := rd.lowEnd(second.Lemma) == second.Least
	if rankColumns[lemmaOfColumn(col)] && degreeLemmas[second.Lemma] {
		high = !high // the highest rank is number 1, the lowest the last
	}
	op := "top"
	if !high {
		op = "bottom"
	}
	return &Condition{Column: col, Op: op, Pick: pick, Phrase: rd.text(second.Span), at: second.Span.Start}
}

// sameColumn returns the column that "the same … as" compares: the one the yes/no question asks
// about, named again (or as "the one") right after "as". The "same" is at token i.
func (rd *reader) sameColumn(i int) string {
	toks := rd.s.Tokens
	if i+1 >= len(toks) || !toks[i+1].Is("as") {
		return ""
	}
	focus := rd.s.Form().Focus
	if focus < 0 {
		return ""
	}
	col, at := rd.phraseColumn(focus)
	k := rd.phraseOf(i + 2)
	if col == "" || k < 0 {
		return ""
	}
	if again, atAgain := rd.phraseColumn(k); again == col {
		rd.useLink(atAgain)
	} else if !toks[rd.s.Phrases[k].Head].Is("one") {
		return ""
	}
	rd.useLink(at)
	rd.used[i], rd.used[i+1] = true, true
	return col
}

// majorityWord reports "most" right after a yes/no question's auxiliary, before the rows:
// "are most athletes …", "do most passengers …".
func (rd *reader) majorityWord(sp language.Superlative) bool {
	f := rd.s.Form()
	return f.Kind == language.YesNo && sp.Word == f.Word+1 && rd.s.Tokens[sp.Word].Is("most") && sp.Lemma == "many"
}

// focusCount takes the count of the phrase asked about when the superlative gives none.
func (rd *reader) focusCount(o *Order) {
	f := rd.s.Form().Focus
	if f < 0 {
		return
	}
	for _, i := range rd.s.Phrases[f].Numbers {
		t := rd.s.Tokens[i]
		if t.Kind != language.Number || t.Ordinal || t.Value < 1 || t.Value != float64(int(t.Value)) {
			continue
		}
		if !o.Said || o.N == int(t.Value) { // "the 4 cities where the four youngest … live"
			o.N, o.Said = int(t.Value), true
			rd.used[i] = true
		}
		return
	}
}

// rankedCount takes the count of the phrase whose rows the superlative ranks through "with":
// "the 2 individuals with the highest insulin levels".
func (rd *reader) rankedCount(o *Order, sp language.Superlative) {
	for _, np := range rd.s.Phrases {
		if !slices.ContainsFunc(np.Attachments, func(a language.Attachment) bool {
			return a.Object == sp.Phrase && rd.s.Tokens[a.Prep].Is("with")
		}) {
			continue
		}
		for _, i := range np.Numbers {
			if t := rd.s.Tokens[i]; !rd.used[i] && t.Kind == language.Number && !t.Ordinal && t.Value >= 1 && t.Value == float64(int(t.Value)) {
				o.N, o.Said = int(t.Value), true
				rd.used[i] = true
				return
			}
		}
	}
}

// placesRows reports a superlative in a phrase after "in", "on", "during", "from" or "at":
// "in the earliest year" says where the rows are, a ranking apart from "the top song".
func (rd *reader) placesRows(sp language.Superlative) bool {
	if sp.Phrase < 0 || amountLemmas[sp.Lemma] || countNouns[rd.s.Tokens[rd.s.Phrases[sp.Phrase].Head].Lemma] {
		return false // "who participated in the most games" ranks by how many
	}
	start := rd.s.Phrases[sp.Phrase].Start
	return start > 0 && rd.s.Tokens[start-1].Is("in", "on", "during", "from", "at")
}

// scaleOrder orders by a superlative adjective.
func (rd *reader) scaleOrder(sp language.Superlative) (*Order, error) {
	if sp.Adjective >= 0 {
		rd.used[sp.Adjective] = true
	}
	o := &Order{N: max(sp.N, 1), Said: sp.N > 0, Phrase: rd.text(sp.Span)}
	if sp.Phrase >= 0 {
		rd.orderSpan = rd.s.Phrases[sp.Phrase].Span
		o.Phrase = rd.phraseText(sp.Phrase)
		for _, i := range rd.s.Phrases[sp.Phrase].Numbers {
			rd.used[i] = true
		}
	}
	low := rd.lowEnd(sp.Lemma) != sp.Least // "least common": the low end of commonness
	o.Desc = !low
	if sp.Lemma == "many" || sp.Lemma == "few" {
		o.Desc = !sp.Least && sp.Lemma == "many"
	}
	if rd.sizeOrder(sp) {
		o.Size = true
		err := rd.groupOf(sp)
		if rd.distinctOf != "" {
			// "which region has the most countries": by how many different countries
			o.Size, o.Agg, o.Column = false, Distinct, rd.distinctOf
		}
		return o, err
	}
	col, at := rd.scaleColumn(sp)
	if col == "" {
		return nil, &Gap{Phrase: rd.text(sp.Span), Why: "no column to rank by for"}
	}
	rd.useLink(at)
	o.Column = col
	if timeLemmas[sp.Lemma] && rd.temporal(col) {
		o.Desc = earlyLemmas[sp.Lemma] == sp.Least // the oldest is the earliest date, the most recent the latest
	}
	if rd.wordsColumn(col) {
		if sp.Lemma != "long" && sp.Lemma != "short" {
			return nil, &Gap{Phrase: rd.text(sp.Span), Why: "a ranking of text by no length"}
		}
		o.Length = true // "the song with the longest lyrics": by how long each text is
	}
	if rankColumns[lemmaOfColumn(col)] && degreeLemmas[sp.Lemma] {
		o.Desc = !o.Desc // the highest rank is number 1, the lowest the last
	}
	return o, nil
}

// wordsColumn reports a column of text: typed as text, or a category whose known values are
// not all numbers (DataBench files small counts, "Number of Projects", as categories).
func (rd *reader) wordsColumn(col string) bool {
	c := rd.ix.Column(col)
	if c == nil || c.Type != schema.Text && c.Type != schema.Category {
		return false
	}
	if c.Type == schema.Text {
		return true
	}
	return slices.ContainsFunc(c.Values, func(v string) bool {
		_, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		return err != nil
	})
}

// boundOrder orders by "top N" or "bottom N" alone: a numeric column by its values (ranks
// ascending), a category by how often each value occurs ("the top 5 civil statuses").
func (rd *reader) boundOrder(sp language.Superlative) (*Order, error) {
	o := &Order{N: max(sp.N, 1), Said: sp.N > 0, Desc: true, Phrase: rd.text(sp.Span)}
	col, at := rd.verbColumn(sp.Span.End), -1 // "the top placed country" ranks by Place
	if col == "" {
		col, at = rd.phraseColumn(sp.Phrase)
	}
	if col == "" {
		col, at = rd.attachedColumn(sp.Phrase) // "the top 3 number of injuries"
	}
	if col == "" {
		col, at = rd.byColumn()
		rd.byOrder = col != ""
	}
	if col == "" {
		return nil, &Gap{Phrase: rd.text(sp.Span), Why: "no column to rank by for"}
	}
	rd.useLink(at)
	if sp.Phrase >= 0 {
		o.Phrase = rd.phraseText(sp.Phrase)
		for _, i := range rd.s.Phrases[sp.Phrase].Numbers {
			rd.used[i] = true
		}
	}
	c := rd.ix.Column(col)
	if c != nil && !rd.byOrder {
		// "the top 2 genders by average fare", "the top 3 passenger classes by survival rate"
		if by, at := rd.byColumn(); by != "" && by != col && (rd.numeric(by) || rd.isRate(at)) {
			rd.useLink(at) // "the top 2 genders by average fare": groups ranked by an aggregate
			rd.m.Group, o.Column, rd.byOrder = col, by, true
			return o, nil
		}
	}
	if cue := rd.frequencyCue(); c != nil && c.Type != schema.Number || cue {
		o.Size = true
		rd.m.Group = col
		return o, nil
	}
	o.Column = col
	if rankColumns[lemmaOfColumn(col)] {
		o.Desc = false
	}
	return o, nil
}

// frequencyCue finds "by frequency", "based on frequency", "in terms of count": a ranking
// by how often values occur, whatever the column's type. It marks the cue's words as used.
func (rd *reader) frequencyCue() bool {
	for i, t := range rd.s.Tokens {
		if rd.used[i] || !countNouns[t.Lemma] || i == 0 || t.Lemma == "total" {
			continue
		}
		j := i - 1 // the preposition, after the rows' own noun if it comes between: "entry count"
		if rowNoun := j > 0 && rd.countedRows(j); rowNoun {
			j--
		}
		switch p := rd.s.Tokens[j]; {
		case p.Is("by"):
		case p.Is("on") && j >= 1 && rd.s.Tokens[j-1].Is("based"):
			rd.used[j-1] = true
		case p.Is("of") && j >= 1 && rd.s.Tokens[j-1].Is("terms"):
			rd.used[j-1] = true
		default:
			continue
		}
		for k := j + 1; k <= i; k++ {
			rd.used[k] = true
		}
		return true
	}
	return false
}

// countedRows reports a noun before "count" that names the rows counted: the table's word for
// a row ("entry count") or its row entity ("tweet count", "review count").
func (rd *reader) countedRows(j int) bool {
	t := rd.s.Tokens[j]
	if !t.IsNoun() {
		return false
	}
	if tableWords[t.Lemma] || rd.isRowsToken(j) {
		return true
	}
	c, ok := rd.best(j)
	return (!ok || rd.weakLink(j, c)) && rd.entityNoun(j)
}

// byColumn returns the column of a "by <column>" phrase: "the top 3 classes by survival rate".
func (rd *reader) byColumn() (string, int) {
	for _, np := range rd.s.Phrases {
		by := np.Start > 0 && rd.s.Tokens[np.Start-1].Lower == "by"
		// "in terms of Agreeableness" says the same.
		terms := np.Start > 2 && rd.s.Tokens[np.Start-1].Lower == "of" && rd.s.Tokens[np.Start-2].Lower == "terms"
		if terms {
			rd.used[np.Start-2] = true
		}
		if by || terms {
			if c, ok := rd.best(np.Head); ok && c.Kind == schema.ColumnLink {
				return c.Column, np.Head
			}
			if col, at := rd.rateOf(np); col != "" {
				return col, at // "by survival rate"
			}
		}
	}
	return "", -1
}

// sizeOrder reports a superlative that ranks groups by their size: "most", "fewest", "most
// common", or a degree of a count noun ("the highest number of survivors").
func (rd *reader) sizeOrder(sp language.Superlative) bool {
	if amountLemmas[sp.Lemma] {
		if col, at := rd.phraseColumn(sp.Phrase); col != "" && rd.numeric(col) && !idColumns[lemmaOfColumn(col)] && rd.namesColumn(at) {
			return false // "the most votes": the Votes column's own scale
		}
	}
	if sp.Phrase >= 0 && countNouns[rd.s.Tokens[rd.s.Phrases[sp.Phrase].Head].Lemma] && rd.measures(sp.Phrase) {
		rd.used[rd.s.Phrases[sp.Phrase].Head] = true
		return false // "the least number of people in attendance" is Attendance's own scale
	}
	if sizeLemmas[sp.Lemma] || sizeLemmas[strings.TrimSuffix(sp.Lemma, "ly")] {
		return true // "most common", "most commonly", "least frequently"
	}
	if sp.Adjective >= 0 && rd.s.Tokens[sp.Word].Is("most", "least", "fewest") {
		if a := rd.s.Tokens[sp.Adjective]; a.POS == "VBN" || a.POS == "VBD" {
			if c, ok := rd.best(sp.Adjective); ok && c.Kind == schema.ColumnLink && rd.numeric(c.Column) {
				return false // "the most favorited post": by its count of favorites
			}
			return true // "the most reviewed", "the least used": by how many rows
		}
	}
	if sp.Phrase < 0 || !degreeLemmas[sp.Lemma] {
		return false
	}
	np := rd.s.Phrases[sp.Phrase]
	head := rd.s.Tokens[np.Head]
	if !countNouns[head.Lemma] {
		return false
	}
	rd.used[np.Head] = true
	return true
}

// measures reports a phrase whose attachments name a measured column (measuredColumnAt).
func (rd *reader) measures(k int) bool {
	col, _ := rd.measuredColumnAt(k, 2)
	return col != ""
}

// measuredColumnAt returns a numeric column, not an id, named by the phrases attached to
// phrase k, up to depth attachments deep, and its token: "inversions" of "the highest number of
// inversions", "attendance" of "the least number of people in attendance".
func (rd *reader) measuredColumnAt(k, depth int) (string, int) {
	for _, a := range rd.s.Phrases[k].Attachments {
		if col, at := rd.phraseColumn(a.Object); col != "" && rd.numeric(col) && !idColumns[lemmaOfColumn(col)] {
			return col, at
		}
		if depth > 1 {
			if col, at := rd.measuredColumnAt(a.Object, depth-1); col != "" {
				return col, at
			}
		}
	}
	return "", -1
}

// numeric reports a numeric column.
func (rd *reader) numeric(col string) bool {
	c := rd.ix.Column(col)
	return c != nil && c.Type == schema.Number
}

// groupOf finds the column whose groups a size superlative ranks: the superlative's own phrase
// when it names a column ("the most common gender"), else the phrase asked about ("which
// country has the most billionaires", "the 4 categories with the fewest billionaires").
func (rd *reader) groupOf(sp language.Superlative) error {
	if k := sp.Phrase; k >= 0 && rd.s.Tokens[rd.s.Phrases[k].Head].Is("times") {
		rd.used[rd.s.Phrases[k].Head] = true // "the most times" is how often: the groups' rows
	} else if col, at := rd.phraseColumn(sp.Phrase); col != "" && !rd.countedThing(sp.Phrase) {
		rd.useLink(at)
		rd.m.Group = col
		if f := rd.s.Form().Focus; f >= 0 && f != sp.Phrase && !rd.attachedElsewhere(sp.Phrase, f) && !rd.numeric(col) && rd.s.Tokens[rd.s.Phrases[sp.Phrase].Head].IsPlural() {
			if g, gat := rd.phraseColumn(f); g != "" && g != col && !rd.numeric(g) {
				// "which region has the most countries": the regions, by how many different countries
				rd.useLink(gat)
				rd.m.Group, rd.distinctOf = g, col
			}
		}
		return nil
	} else if col, at := rd.namedEntityColumn(sp.Phrase); col != "" && !amountLemmas[sp.Lemma] {
		rd.useLink(at) // "the 2 most common weekdays": weekday_name's values
		rd.m.Group = col
		return nil
	}
	f := rd.s.Form().Focus
	if f >= 0 && rd.periodWord(rd.s.Phrases[f].Head) {
		if col, part := rd.datePeriod(f); col != "" {
			rd.m.Group, rd.m.GroupPart = col, part // "which day of the week has the most entries"
			return nil
		}
		return &Gap{Phrase: rd.phraseText(f), Why: "a period of the dates"} // "which quarter had the most …"
	}
	if col, at := rd.phraseColumn(f); col != "" && f != sp.Phrase {
		rd.useLink(at)
		rd.m.Group = col
		return nil
	}
	if col, at := rd.namedEntityColumn(f); col != "" && f != sp.Phrase && !rd.attachedElsewhere(sp.Phrase, f) {
		rd.useLink(at) // "which vendor has the most trips": VendorID's groups
		rd.m.Group = col
		return nil
	}
	if col, at := rd.whoseColumn(sp.Phrase); col != "" {
		rd.useLink(at)
		rd.m.Group = col
		return nil
	}
	for _, k := range []int{sp.Phrase, f} {
		if col, at := rd.kindOfColumn(k); col != "" {
			rd.useLink(at) // "the 2 most common types of contract": Contract's values
			rd.m.Group = col
			return nil
		}
	}
	return &Gap{Phrase: rd.text(sp.Span), Why: "no groups to rank for"}
}

// periodParts are the strftime patterns of the periods a question may group dates by.
var periodParts = map[string]string{"year": "%Y", "month": "%B", "weekday": "%A", "hour": "%H", "day": "%Y-%m-%d", "date": "%Y-%m-%d"}

// datePeriod returns the table's one column of dates and the pattern of the period phrase k
// names ("which month", "which day of the week"), placing its words; "" when the table has
// several or no such columns, or the period is one strftime cannot take (a quarter, a season).
func (rd *reader) datePeriod(k int) (string, string) {
	np := rd.s.Phrases[k]
	part := periodParts[rd.s.Tokens[np.Head].Lemma]
	if part == "" {
		return "", ""
	}
	if a, ok := rd.weekOf(k); ok {
		part = "%A" // "day of the week"
		for i := a.Prep; i < rd.s.Phrases[a.Object].End; i++ {
			rd.used[i] = true
		}
	}
	if named := rd.periodColumn(part); named != "" {
		rd.used[np.Head] = true
		return named, "" // weekday_name holds the weekdays already
	}
	col := rd.onlyColumn(func(c schema.Column) bool { return c.Type == schema.Date })
	if col == "" {
		return "", ""
	}
	rd.used[np.Head] = true
	return col, part
}

// PeriodName names the period a strftime pattern of GroupPart takes: "%B" → month; "" for
// any other pattern.
func PeriodName(part string) string {
	return map[string]string{"%Y": "year", "%B": "month", "%A": "weekday", "%H": "hour", "%Y-%m-%d": "day"}[part]
}

// periodColumn returns the one column of text named for the period of pattern part
// (weekday_name, month_name), or "". Years and days are numbers and dates, never such names.
func (rd *reader) periodColumn(part string) string {
	word := PeriodName(part)
	if word == "" || word == "year" || word == "day" {
		return ""
	}
	return rd.onlyColumn(func(c schema.Column) bool {
		return c.Type != schema.Number && c.Type != schema.Date && slices.Contains(columnWords(c.Name), word)
	})
}

// namedEntityColumn returns the id or name column of what phrase k names, and its token, when
// the linker took the phrase for rows of that column's entity: "vendor" for VendorID,
// "department" for "Department Name". Ranked by a size, each value is a group of rows.
func (rd *reader) namedEntityColumn(k int) (string, int) {
	if k < 0 {
		return "", -1
	}
	h := rd.s.Phrases[k].Head
	c, ok := rd.best(h)
	if !ok || c.Kind != schema.RowsLink || c.Column == "" || rd.ix.EntityOf(c.Column) != rd.s.Tokens[h].Lemma {
		return "", -1
	}
	return c.Column, h
}

// attachedElsewhere reports a phrase attached to some phrase other than f: "the post with the
// most words" ranks posts, whatever "the author of" the post asks.
func (rd *reader) attachedElsewhere(k, f int) bool {
	for p, np := range rd.s.Phrases {
		if p != f && slices.ContainsFunc(np.Attachments, func(a language.Attachment) bool { return a.Object == k }) {
			return true
		}
	}
	return false
}

// countedThing reports a phrase whose column is what is counted, not grouped: "the highest
// number of survivors" names Survived as a filter.
func (rd *reader) countedThing(k int) bool {
	if k < 0 {
		return false
	}
	c, ok := rd.best(rd.s.Phrases[k].Head)
	return ok && c.Kind != schema.ColumnLink
}

// scaleColumn finds what a superlative adjective orders by.
func (rd *reader) scaleColumn(sp language.Superlative) (string, int) {
	if degreeLemmas[sp.Lemma] || amountLemmas[sp.Lemma] || sp.Lemma == "good" || sp.Lemma == "bad" {
		if col, at := rd.phraseColumn(sp.Phrase); col != "" {
			return col, at
		}
		// "the highest number of inversions" hangs the column on the phrase after; "the least
		// number of people in attendance", on the phrase after that.
		if col, at := rd.attachedColumn(sp.Phrase); col != "" {
			return col, at
		}
		if sp.Phrase >= 0 && countNouns[rd.s.Tokens[rd.s.Phrases[sp.Phrase].Head].Lemma] {
			return rd.measuredColumnAt(sp.Phrase, 2)
		}
		if sp.Adjective < 0 || sp.Lemma != "long" && sp.Lemma != "short" {
			return "", -1
		}
		// "the longest song": no column named, so the one its length is measured in (duration)
	}
	if c, ok := rd.best(sp.Adjective); ok && c.Kind == schema.ColumnLink {
		return c.Column, sp.Adjective
	}
	if timeLemmas[sp.Lemma] {
		if col, at := rd.phraseColumn(sp.Phrase); col != "" && rd.temporal(col) {
			return col, at // "the earliest year", "the 4 latest release years"
		}
	}
	if moneyAdjectives[sp.Lemma] {
		// "the most expensive property" is by its price, or by nothing the table has: never
		// by another scale WordNet relates the word to
		if cols := rd.ix.MoneyColumns(); len(cols) == 1 {
			return cols[0], -1
		}
		return "", -1
	}
	if col := rd.attributeColumn(rd.s.Tokens[sp.Adjective].Lemma); col != "" {
		return col, -1
	}
	if col, at := rd.byColumn(); col != "" {
		return col, at // "the most destructive tornado (by injuries)"
	}
	if timeLemmas[sp.Lemma] && (sp.N > 0 || sp.Phrase >= 0 && !rd.s.Tokens[rd.s.Phrases[sp.Phrase].Head].IsPlural()) {
		// "the oldest roller coaster", "the 4 oldest coasters": by the table's one column of
		// years or dates ("the latest orders" says no how many: the rows sorted, elsewhere)
		if col := rd.onlyTemporal(); col != "" {
			return col, -1
		}
	}
	return "", -1
}

// timeLemmas are the superlatives of age and time, which a column of years or dates ranks when
// no age is at hand; earlyLemmas are those whose top is the earliest time.
var (
	timeLemmas  = set("old", "new", "young", "early", "late", "recent")
	earlyLemmas = set("old", "early")
)

// attachedColumn returns the column of a phrase attached to phrase k by "of": "the highest
// number of inversions", "the top 3 number of injuries".
func (rd *reader) attachedColumn(k int) (string, int) {
	if k < 0 {
		return "", -1
	}
	for _, a := range rd.s.Phrases[k].Attachments {
		if !rd.s.Tokens[a.Prep].Is("of") {
			continue
		}
		if col, at := rd.phraseColumn(a.Object); col != "" && rd.numeric(col) {
			if countNouns[rd.s.Tokens[rd.s.Phrases[k].Head].Lemma] {
				rd.used[rd.s.Phrases[k].Head] = true
			}
			return col, at
		}
	}
	return "", -1
}

// attributeColumn returns the one numeric column an adjective is a value of in WordNet
// ("old" → age, "tall" → height).
func (rd *reader) attributeColumn(lemma string) string {
	attrs := rd.ix.Lexicon().Attributes(lemma)
	var found string
	for _, c := range rd.ix.Table().Columns {
		if c.Type == schema.Number && slices.ContainsFunc(columnWords(c.Name), func(w string) bool { return slices.Contains(attrs, w) }) {
			if found != "" {
				return ""
			}
			found = c.Name
		}
	}
	return found
}
