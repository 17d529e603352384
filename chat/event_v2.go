package chat

import (
	"encoding/json"
	"strings"
)

// Versions 1 and 2 of the stored events come from when the local engine
// spoke in band, in lines of the logs: "@@wb-table {…}" before a result's
// text form, "@@wb-session {…}" for a restored session, and the built-in
// analyst's "@@wb {…}" and "@@wb-profile {…}" result lines; its loader cell
// was known by "@@wb-profile" in its code. Today the engine says all that
// beside the output, in typed fields (package cellext), and nothing in the
// logs is read. fromInBand turns such a stored event into today's shape,
// so that conversations recorded then still show as they did; it is the
// only reader of those lines, and it reads only events stored then.

// legacyMarker starts every line the engine once printed for itself.
const legacyMarker = "@@wb"

// fromInBand reads an event stored by versions 1 and 2.
func fromInBand(e Event) Event {
	switch e.Type {
	case EventLogs:
		e.Text, e.Table = splitInBand(e.Text)
	case EventLogsDelta:
		e.Text, _ = splitInBand(e.Text)
	case EventCellDone:
		e.Loader = strings.Contains(e.Text, legacyMarker+"-profile")
	}
	return e
}

// splitInBand drops the engine's lines from logs and returns the rest with
// the result table the first "@@wb-table" line carried, its offsets in the
// text returned.
func splitInBand(logs string) (string, *Table) {
	if !strings.Contains(logs, legacyMarker) {
		return logs, nil
	}
	var out strings.Builder
	var table *Table
	lines := strings.SplitAfter(logs, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasPrefix(line, legacyMarker) {
			out.WriteString(line)
			continue
		}
		t, n, ok := inBandTable(line)
		if !ok || table != nil {
			continue
		}
		n = min(n, len(lines)-1-i)
		t.TextStart = out.Len()
		for _, l := range lines[i+1 : i+1+n] {
			out.WriteString(l)
		}
		t.TextEnd = out.Len()
		table, i = t, i+n
	}
	return out.String(), table
}

// inBandTable reads a "@@wb-table" line: the table and how many lines of
// text form followed it.
func inBandTable(line string) (*Table, int, bool) {
	body, ok := strings.CutPrefix(strings.TrimRight(line, "\n"), legacyMarker+"-table ")
	if !ok {
		return nil, 0, false
	}
	var m struct {
		TextLines int    `json:"text_lines"`
		Table     *Table `json:"table"`
	}
	if json.Unmarshal([]byte(body), &m) != nil || m.Table == nil || m.TextLines < 0 {
		return nil, 0, false
	}
	return m.Table, m.TextLines, true
}
