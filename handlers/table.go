package handlers

import (
	"slices"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/views"
)

// outputParts turns a finished step's output into text and tables.
func outputParts(parts []chat.OutputPart) []views.OutputPart {
	out := make([]views.OutputPart, len(parts))
	for i, p := range parts {
		out[i].Text = p.Text
		if p.Table != nil {
			out[i].Table = dataTable(p.Table)
		}
	}
	return out
}

// linkTableCSVs points each cut table of a cell at the artifact that holds
// its whole result as CSV, once the turn has copied it out, and marks that
// artifact claimed: the table offers it, so the answer does not list it
// again as a file of its own.
func linkTableCSVs(sharePath string, parts []views.OutputPart, cellID string, a *chat.Answer, claimed map[string]bool) {
	for _, p := range parts {
		if t := p.Table; t != nil && t.CSVFile != "" {
			if art, ok := a.TableCSV(cellID, t.CSVFile); ok {
				t.CSVURL = views.ArtifactURL(sharePath, art.ID, false)
				claimed[art.ID] = true
			}
		}
	}
}

// dataTable formats a table for the page: each column's numbers to its own
// decimals, grouped by thousands (chat.ColumnFormats), the full value kept
// for sorting and copying.
func dataTable(t *chat.Table) *views.DataTable {
	v := &views.DataTable{TotalRows: t.TotalRows, TotalColumns: t.TotalColumns, CSVFile: t.CSV, CSVNote: t.CSVNote, CSVBytes: t.CSVBytes}
	for _, name := range t.Index {
		v.Columns = append(v.Columns, views.TableColumn{Name: name, Index: true})
	}
	for i, name := range t.Columns {
		c := views.TableColumn{Name: name, Numeric: i < len(t.Numeric) && t.Numeric[i]}
		if i < len(t.Dtypes) {
			c.Dtype = t.Dtypes[i]
		}
		v.Columns = append(v.Columns, c)
	}
	v.Rows = make([][]views.TableCell, 0, len(t.Rows))
	formats := chat.ColumnFormats(append(slices.Clone(t.Index), t.Columns...), t.Rows, len(v.Columns))
	for _, row := range t.Rows {
		if len(row) != len(v.Columns) {
			continue // a malformed row: skip rather than misalign
		}
		cells := make([]views.TableCell, len(row))
		for i, x := range row {
			cells[i] = tableCell(formats[i], x)
		}
		v.Rows = append(v.Rows, cells)
	}
	return v
}

// tableCell formats one value as its column's format says, marking a missing one.
func tableCell(f chat.NumberFormat, x any) views.TableCell {
	if x == nil {
		return views.TableCell{Missing: true}
	}
	shown, full := f.Format(x)
	return views.TableCell{Text: shown, Value: full}
}
