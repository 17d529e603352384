package handlers

import (
	"math"
	"strconv"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/views"
)

// outputParts turns a finished step's output into text and tables.
func outputParts(logs string) []views.OutputPart {
	parts := chat.SplitOutput(logs)
	out := make([]views.OutputPart, len(parts))
	for i, p := range parts {
		out[i].Text = p.Text
		if p.Table != nil {
			out[i].Table = dataTable(p.Table)
		}
	}
	return out
}

// dataTable formats a table for the page: numbers as pandas shows them,
// the full value kept for sorting and copying.
func dataTable(t *chat.Table) *views.DataTable {
	v := &views.DataTable{TotalRows: t.TotalRows, TotalColumns: t.TotalColumns}
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
	for _, row := range t.Rows {
		if len(row) != len(v.Columns) {
			continue // a malformed row: skip rather than misalign
		}
		cells := make([]views.TableCell, len(row))
		for i, x := range row {
			cells[i] = tableCell(x)
		}
		v.Rows = append(v.Rows, cells)
	}
	return v
}

// tableCell formats one value: integers as they are, other numbers to six
// significant digits, as pandas prints them.
func tableCell(x any) views.TableCell {
	switch x := x.(type) {
	case nil:
		return views.TableCell{Missing: true}
	case float64:
		full := strconv.FormatFloat(x, 'g', -1, 64)
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return views.TableCell{Text: strconv.FormatFloat(x, 'f', -1, 64), Value: full}
		}
		return views.TableCell{Text: strconv.FormatFloat(x, 'g', 6, 64), Value: full}
	case bool:
		s := "False"
		if x {
			s = "True"
		}
		return views.TableCell{Text: s, Value: s}
	case string:
		return views.TableCell{Text: x, Value: x}
	default:
		return views.TableCell{}
	}
}
