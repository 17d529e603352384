package chat

import (
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/cellext"
)

// Up to version 4 the stored events did not say which lines of the
// analyst's code report to the engine, nor what its loader cell loaded:
// the page found the _emit statements in the code, and read the loader's
// "Loaded a.csv: 524 rows x 11 columns" lines from its logs. Today the
// engine says both in typed fields (cellext.Call.Hidden, cellext.Logs.Loaded)
// and nothing the code prints is read. fromPrinted reads such an event
// into today's shape, so that conversations recorded then still show as
// they did; it is the only reader of those lines, and it reads only events
// stored then.
func fromPrinted(e Event) Event {
	switch e.Type {
	case EventCellDone:
		if e.Analyst && !e.Loader {
			e.Hidden = cellext.ReportLines(e.Text)
		}
	case EventLogs:
		e.Loaded = printedLoads(e.Text)
	}
	return e
}

// printedLoads reads the lines a loader cell printed of what it loaded.
func printedLoads(logs string) []cellext.Load {
	var out []cellext.Load
	for line := range strings.SplitSeq(logs, "\n") {
		if rest, ok := strings.CutPrefix(line, "Could not load "); ok {
			name, why, _ := strings.Cut(rest, ": ")
			out = append(out, cellext.Load{Name: name, Error: why})
		} else if l, ok := printedShape(line); ok {
			out = append(out, l)
		}
	}
	return out
}

// printedShape reads "Loaded NAME: 1,234 rows x 11 columns".
func printedShape(line string) (cellext.Load, bool) {
	rest, ok := strings.CutPrefix(line, "Loaded ")
	shape, ok2 := strings.CutSuffix(rest, " columns")
	at := strings.LastIndex(shape, ": ")
	if !ok || !ok2 || at < 0 {
		return cellext.Load{}, false
	}
	rows, cols, ok := strings.Cut(shape[at+2:], " rows x ")
	r, err1 := strconv.Atoi(strings.ReplaceAll(rows, ",", ""))
	c, err2 := strconv.Atoi(cols)
	if !ok || err1 != nil || err2 != nil {
		return cellext.Load{}, false
	}
	return cellext.Load{Name: shape[:at], Rows: r, Columns: c}, true
}
