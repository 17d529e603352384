// Package cellext declares what the local engine says about a code cell out
// of band: the typed extension fields it adds to the Foundry wire protocol
// beside a code interpreter call's outputs. The engine (emulator) writes
// them and the app (chat) reads them; both import this package, and nothing
// else declares them.
//
// None of it travels in the text a cell prints: the code's own output is
// shown as it was printed, whatever it says. The hosted service sends none
// of these fields; a client that does not know them ignores them, as it
// ignores any unknown member.
package cellext

import "encoding/json"

// Field is the JSON member that carries an extension: on a
// code_interpreter_call item (Call) and on its "logs" output (Logs).
const Field = "x_workbench"

// Call is what the engine says of a code interpreter call as a whole.
type Call struct {
	// Role says what the cell is for when it is not a step of the analysis.
	Role Role `json:"role,omitzero"`
	// Analyst is set when the built-in analyst wrote the code (not the
	// user, nor a model).
	Analyst bool `json:"analyst,omitzero"`
	// Hidden are the lines of the analyst's code that report to the engine
	// (its _emit(...) statements, and a block header they alone fill):
	// the page shows the code without them, an export keeps them so that
	// the code runs the same. Only the analyst's own cells have any.
	Hidden []Lines `json:"hidden,omitzero"`
}

// Lines is a range of a cell's lines, numbered from 1, First to Last
// included.
type Lines struct {
	First int `json:"first"`
	Last  int `json:"last"`
}

// Role names what a cell is for.
type Role string

// RoleLoader is the built-in analyst's cell that loads the turn's files:
// the page folds it into one line and a notebook keeps it once.
const RoleLoader Role = "loader"

// Logs is what the engine says of a call's "logs" output.
type Logs struct {
	// Restored is set on the first cell after the session was set aside to
	// free memory and brought back.
	Restored *Restored `json:"restored,omitzero"`
	// Table is the cell's result as a table, standing for its text form in
	// the logs.
	Table *Table `json:"table,omitzero"`
	// Loaded says what the analyst's loader cell loaded, one entry per
	// table or document, and what it could not load.
	Loaded []Load `json:"loaded,omitzero"`
}

// Load is one file (or one sheet of a workbook) the loader cell read, or
// failed to.
type Load struct {
	// Name is the file, or "file.xlsx:Sheet" for a sheet.
	Name string `json:"name"`
	// Rows and Columns are a table's shape.
	Rows    int `json:"rows,omitzero"`
	Columns int `json:"columns,omitzero"`
	// Document is the kind of a file read as a document, not a table
	// ("pdf", "docx", "python"…).
	Document string `json:"document,omitzero"`
	// Error says why the file could not be loaded.
	Error string `json:"error,omitzero"`
}

// Restored says what a session brought back after it was set aside.
type Restored struct {
	// Names are the variables, functions and modules back as they were.
	Names []string `json:"restored"`
	// Lost are the names that could not be kept, with why.
	Lost []Lost `json:"lost,omitzero"`
	// Files is how many files came back into /mnt/data.
	Files int `json:"files"`
}

// Lost is a name a restored session no longer has, and why.
type Lost struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// Table is a DataFrame or Series a cell returned, as the engine's kernel
// sends it: its first rows and its totals.
type Table struct {
	// Index names the index levels ("" for an unnamed one); each row starts
	// with one value per level.
	Index   []string `json:"index"`
	Columns []string `json:"columns"`
	Dtypes  []string `json:"dtypes"`
	// Numeric says which columns hold numbers (right-aligned, sorted as
	// numbers).
	Numeric []bool `json:"numeric"`
	// Rows are the first rows: index values, then one value per column;
	// numbers are float64, missing values nil, anything else a string.
	Rows         [][]any `json:"rows"`
	TotalRows    int     `json:"total_rows"`
	TotalColumns int     `json:"total_columns"`
	// CSV names the file, relative to /mnt/data, that holds the whole
	// result as CSV when Rows are not all of it (the kernel writes it; the
	// turn copies it out like any file the cell wrote); CSVBytes is its
	// size. CSVNote says why there is none, when it was too big.
	CSV      string `json:"csv,omitzero"`
	CSVBytes int64  `json:"csv_bytes,omitzero"`
	CSVNote  string `json:"csv_note,omitzero"`
	// TextStart and TextEnd are the byte offsets in the logs of the
	// result's text form, which the table stands for: a client that shows
	// the table shows the logs around it.
	TextStart int `json:"text_start"`
	TextEnd   int `json:"text_end"`
}

// Split returns the logs before the text form t stands for, and after it.
// Offsets that do not fit the logs (a table from another output) put the
// whole logs before the table.
func (t *Table) Split(logs string) (before, after string) {
	if t.TextStart < 0 || t.TextStart > t.TextEnd || t.TextEnd > len(logs) {
		return logs, ""
	}
	return logs[:t.TextStart], logs[t.TextEnd:]
}

// Usage is what the engine says of a response's token counts.
type Usage struct {
	// Estimated is set when the counts are guessed from the characters of
	// the text and code (the local engine has no tokenizer), not counted:
	// no bill reports them, so the app records no usage from them.
	Estimated bool `json:"estimated,omitzero"`
}

// DecodeUsage reads a Usage from raw JSON, as DecodeCall does.
func DecodeUsage(raw json.RawMessage) Usage {
	var u Usage
	if len(raw) > 0 && json.Unmarshal(raw, &u) != nil {
		return Usage{}
	}
	return u
}

// DecodeCall reads a Call from raw JSON; nil or malformed JSON is the zero
// Call, since an extension never fails what it extends.
func DecodeCall(raw json.RawMessage) Call {
	var c Call
	if len(raw) > 0 && json.Unmarshal(raw, &c) != nil {
		return Call{}
	}
	return c
}

// DecodeLogs reads a Logs from raw JSON, as DecodeCall does.
func DecodeLogs(raw json.RawMessage) Logs {
	var l Logs
	if len(raw) > 0 && json.Unmarshal(raw, &l) != nil {
		return Logs{}
	}
	return l
}

// Shifted returns a copy of t whose offsets count n more bytes: the table
// of an output whose logs were appended after n bytes of others.
func (t *Table) Shifted(n int) *Table {
	c := *t
	c.TextStart += n
	c.TextEnd += n
	return &c
}
