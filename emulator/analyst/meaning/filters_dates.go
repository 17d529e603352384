package meaning

import (
	"fmt"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"

	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// monthDays reads a month, or a day of a month, named with no year as a condition on the
// table's one date column: "the episodes aired in February" keeps February's dates of every
// year, "the attendance for September 17th" the dates of that day.
func (rd *reader) monthDays() {
	col := rd.onlyDates()
	if col == "" || rd.eventsRanked() {
		return
	}
	for _, md := range rd.s.MonthDays() {
		if rd.anyUsed(md.Span) {
			continue
		}
		for k := md.Start; k < md.End; k++ {
			rd.used[k] = true
		}
		c := Condition{Column: col, Op: "==", Value: fmt.Sprintf("%02d", md.Month), Part: "%m",
			Phrase: rd.text(md.Span), at: md.Start}
		if md.Day > 0 {
			c.Value, c.Part = fmt.Sprintf("%02d-%02d", md.Month, md.Day), "%m-%d"
		}
		rd.m.Filters = append(rd.m.Filters, c)
	}
}

// eventsRanked reports a ranking over rows that carry dates: such rows are events, and "which
// station had the most visitors in 2022" sums each station's, which is the keyword rules'
// reading (by groups); the meaning's would rank single rows.
func (rd *reader) eventsRanked() bool {
	return rd.m.Order != nil
}

// onlyDates returns the table's one column of dates, "" when it has none or several.
func (rd *reader) onlyDates() string {
	return rd.onlyColumn(func(c schema.Column) bool { return c.Type == schema.Date })
}

// anyUsed reports a token of sp that a rule has placed already.
func (rd *reader) anyUsed(sp language.Span) bool {
	for k := sp.Start; k < sp.End; k++ {
		if rd.used[k] {
			return true
		}
	}
	return false
}
