package views

// DataTable is a DataFrame or Series a step returned, shown as a table:
// its first rows, with how many there are in all.
type DataTable struct {
	// Columns are the index levels first, then the frame's columns.
	Columns []TableColumn
	Rows    [][]TableCell
	// TotalRows and TotalColumns count the whole result; Rows and Columns
	// may hold fewer.
	TotalRows, TotalColumns int
	// CSVFile names the session file holding the whole result as CSV,
	// when the rows shown are not all of it; CSVURL is where its copy is
	// downloaded, once kept. CSVNote says why there is none (too big).
	CSVFile, CSVURL, CSVNote string
	// CSVBytes is the size of that CSV: the page loads a small one to sort
	// every row.
	CSVBytes int64
}

// TableColumn is one column header.
type TableColumn struct {
	Name, Dtype string
	// Numeric columns are right-aligned and sort as numbers; Index marks
	// the index levels.
	Numeric, Index bool
}

// TableCell is one value: Text as shown, Value in full for sorting and CSV.
type TableCell struct {
	Text, Value string
	Missing     bool
}

// OutputPart is a piece of a step's output: text, or a table.
type OutputPart struct {
	Text  string
	Table *DataTable
}

// Shape says how big the whole result is: "1,000,000 rows × 3 columns".
func (t DataTable) Shape() string {
	return count(t.TotalRows, "row") + " × " + count(t.TotalColumns, "column")
}

// Cut reports whether the table shows fewer rows or columns than the result has.
func (t DataTable) Cut() bool {
	cols := 0
	for _, c := range t.Columns {
		if !c.Index {
			cols++
		}
	}
	return len(t.Rows) < t.TotalRows || cols < t.TotalColumns
}

func count(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return Thousands(int64(n)) + " " + unit + "s"
}

// DownloadLabel names the download of the whole result: "Download CSV
// (2,000,000 rows)".
func (t DataTable) DownloadLabel() string {
	return "Download CSV (" + count(t.TotalRows, "row") + ")"
}

// PendingCSV reports a whole-result CSV the turn has not kept yet.
func (t DataTable) PendingCSV() bool { return t.CSVFile != "" && t.CSVURL == "" }
