// Package report writes a conversation as a document to read or send: a
// Markdown file zipped with its charts, or one self-contained HTML page
// that loads nothing and runs nothing.
//
// The package knows nothing about the store or the chat: callers (chat)
// gather a Report of plain values and call WriteMarkdownZip or WriteHTML.
// It imports nothing of ours but markdown, which renders the answers.
package report

import (
	"fmt"
	"strings"
	"time"
)

// Report is one conversation, or the steps of it the analyst chose.
type Report struct {
	Title string
	// Exported is when the report was made; zero leaves it unsaid.
	Exported time.Time
	Turns    []Turn
	// Files maps the paths the engine gave the conversation's uploads
	// (/mnt/data/<file_id>-<filename>) to their file names; the notebook
	// export writes code with those names.
	Files map[string]string
}

// Turn is one question with the code the agent ran and its answer.
type Turn struct {
	// N is the step's number in the whole conversation, kept when only
	// some steps are exported; 0 numbers the turns in order.
	N        int
	Question string
	// EditedBy, when set, makes the turn a step: code that user edited and
	// ran as written. Its cells carry the code; Question is not shown.
	EditedBy string
	// Answer is markdown, as the agent wrote it.
	Answer string
	Cells  []Cell
	// Charts are the turn's charts no cell claims.
	Charts []Image
	// Files are the other files the turn wrote, for the Markdown zip.
	Files []File
	// Error is a failure of the turn as a whole.
	Error string
}

// Cell is one executed piece of Python with what it printed and drew.
type Cell struct {
	Code string
	// Printed is the output as the cell printed it, for formats that keep
	// text only (a notebook); Output is the same with its tables parsed.
	Printed string
	// Output is what the cell printed, its results as tables where the
	// engine sent them as such.
	Output []Part
	Charts []Image
	// Loader marks the cell that loads the conversation's files, shown
	// folded and apart from the analysis.
	Loader bool
}

// Part is a piece of a cell's output: text, or a table.
type Part struct {
	Text  string
	Table *Table
}

// Table is a DataFrame or Series: its first rows as text, and how big the
// whole result is.
type Table struct {
	Columns []Column
	// Rows hold one formatted value per column; "" is a missing value.
	Rows [][]string
	// TotalRows and TotalColumns count the whole result; Rows and Columns
	// may hold fewer.
	TotalRows, TotalColumns int
}

// Column is one column header; Index marks the index levels, which come
// first.
type Column struct {
	Name           string
	Numeric, Index bool
}

// Image is a PNG chart with the name it was saved under. A nil PNG is a
// chart the caller left out to bound the export's size: the report names
// it where it would have been.
type Image struct {
	Name string
	PNG  []byte
}

// File is a generated file other than a chart. A nil Data is a file the
// caller left out to bound the export's size.
type File struct {
	Name string
	Data []byte
}

// maxTableRows caps the rows a table shows in a report; the note under it
// says how many there are in all.
const maxTableRows = 50

// shown returns the rows a report shows.
func (t *Table) shown() [][]string {
	return t.Rows[:min(len(t.Rows), maxTableRows)]
}

// cutNote says what part of the result a table shows, or "" when it shows
// all of it.
func (t *Table) cutNote() string {
	rows := len(t.shown())
	cols := 0
	for _, c := range t.Columns {
		if !c.Index {
			cols++
		}
	}
	var notes []string
	if rows < t.TotalRows {
		notes = append(notes, fmt.Sprintf("first %s of %s rows", thousands(rows), thousands(t.TotalRows)))
	}
	if cols < t.TotalColumns {
		notes = append(notes, fmt.Sprintf("%s of %s columns", thousands(cols), thousands(t.TotalColumns)))
	}
	if len(notes) == 0 {
		return ""
	}
	return "Showing the " + strings.Join(notes, " and ") + "."
}

// thousands writes n with comma separators: 12,345.
func thousands(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// split returns the loader cells of r and, per turn, the other cells:
// a report shows the files it loaded once, at the top, and the analysis
// after, and leaves out cells with nothing in them.
func split(r Report) (loaders []Cell, turns [][]Cell) {
	turns = make([][]Cell, len(r.Turns))
	for i, t := range r.Turns {
		for _, c := range t.Cells {
			switch {
			case c.empty():
			case c.Loader:
				loaders = append(loaders, c)
			default:
				turns[i] = append(turns[i], c)
			}
		}
	}
	return loaders, turns
}

// empty reports whether a cell has no code, output or chart.
func (c Cell) empty() bool {
	if strings.TrimSpace(c.Code) != "" || len(c.Charts) > 0 {
		return false
	}
	for _, p := range c.Output {
		if p.Table != nil || strings.TrimSpace(p.Text) != "" {
			return false
		}
	}
	return true
}

// number is the number a turn is shown with: its own, or its place.
func (t Turn) number(i int) int {
	if t.N > 0 {
		return t.N
	}
	return i + 1
}

// heading is what a turn is titled: its question's first line, or who
// edited the code of a step.
func (t Turn) heading() string {
	if t.EditedBy != "" {
		return "Edited by " + t.EditedBy
	}
	return oneLine(Heading(t.Question))
}

// stepNote says what a step is, where a question would be quoted.
const stepNote = "Their own code, run as written."

// showsQuestion reports whether the turn's question is quoted under its
// heading: not for a step, nor for a question that is only code, which its
// cells show, nor for one its heading says whole (it would read twice).
func (t Turn) showsQuestion() bool {
	return t.EditedBy == "" && !onlyCode(t.Question) && oneLine(t.Question) != t.heading()
}
