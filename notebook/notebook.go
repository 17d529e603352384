// Package notebook writes a conversation as a Jupyter notebook (nbformat
// 4.5), so an analysis done in the workbench can be re-run in Jupyter.
//
// The package knows nothing about the store: callers fill a Notebook with
// plain values and call Write.
package notebook

import (
	"encoding/json"
	"fmt"
	"io"
)

// Notebook is one conversation as it will appear in Jupyter.
type Notebook struct {
	// Title becomes the first markdown cell and the notebook's metadata title.
	Title string
	Turns []Turn
	// Files maps the paths the engine gave the uploads, as the code names
	// them (/mnt/data/<file_id>-<filename>), to the file names they have
	// beside the notebook. Code cells are written with those names, so that
	// the notebook runs in Jupyter next to the files, and a cell after the
	// title lists them.
	Files map[string]string
}

// Turn is one question of the analyst with the code the agent ran and its
// answer.
type Turn struct {
	Question string
	// EditedBy, when set, makes the turn a step: code that user edited and
	// ran as written. Its code cells carry the code; Question is not shown.
	EditedBy string
	// Answer is markdown, written as is into a markdown cell.
	Answer string
	Cells  []Cell
	// Error is a failure of the turn as a whole, shown after the answer.
	Error string
}

// Cell is one executed piece of Python with what it printed and drew.
type Cell struct {
	Code   string
	Stdout string
	// Error is set only when the sandbox reported a structured exception; a
	// traceback that appears only in Stdout stays stream text.
	Error *CellError
	// Images are PNG files, written as display_data outputs in order.
	Images [][]byte
	// ExecutionCount is the In[n] number; 0 means unknown and is written as
	// null.
	ExecutionCount int
}

// CellError is a Python exception raised by a cell.
type CellError struct {
	Name      string
	Value     string
	Traceback []string
}

// Write encodes nb as an nbformat 4.5 notebook. The output is deterministic:
// cell ids derive from positions and keys are sorted, as Jupyter writes them.
func Write(w io.Writer, nb Notebook) error {
	enc := json.NewEncoder(w)
	// Jupyter indents with one space and leaves <, > and & alone; matching it
	// keeps diffs against a re-saved notebook small.
	enc.SetIndent("", " ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(build(nb)); err != nil {
		return fmt.Errorf("notebook: write: %w", err)
	}
	return nil
}
