package chat

import (
	"path"
	"strings"

	"github.com/analyst-workbench/workbench/cellext"
)

// Table is a DataFrame or Series a cell returned, as the local engine's
// kernel sends it beside the cell's output: its first rows and its totals.
type Table = cellext.Table

// OutputPart is a piece of a cell's output: text, or a table that stands
// for the text form of a result.
type OutputPart struct {
	Text  string
	Table *Table
}

// NoOutputNote is what a cell shows when the service returned no output
// for it: on the hosted service, in background mode, outputs may not come
// back at all (foundry.EventOutputsMissing), and a cell that printed nothing
// looks the same.
const NoOutputNote = "No output came back from the agent service for this cell (it may have printed nothing)."

// SplitOutput splits a cell's logs into text and tables: the result table
// the engine sent beside them (nil if none) in place of the text form it
// stands for, and the frames printed in the text read back as tables.
// Nothing in the text is taken for anything but output.
func SplitOutput(logs string, result *Table) []OutputPart {
	if result == nil {
		return textPart(nil, logs)
	}
	before, after := result.Split(logs)
	parts := append(textPart(nil, before), OutputPart{Table: result})
	return textPart(parts, after)
}

// textPart appends text, with the frames printed in it as tables.
func textPart(parts []OutputPart, text string) []OutputPart {
	if strings.TrimSpace(text) == "" {
		return parts
	}
	for _, para := range paragraphs(text) {
		parts = appendParagraph(parts, para)
	}
	return parts
}

// Bounds on reading printed frames back: a paragraph longer than
// maxFrameLines stays text, and a frame may follow at most maxLeadLines
// lines of other text in its paragraph ("Summary:" and the like).
const (
	maxFrameLines = 500
	maxLeadLines  = 5
)

// appendParagraph appends a paragraph, its tail as a table when it is a
// printed frame.
func appendParagraph(parts []OutputPart, para string) []OutputPart {
	lines := strings.SplitAfter(para, "\n")
	if len(lines) <= maxFrameLines {
		for lead := 0; lead <= maxLeadLines && lead < len(lines)-1; lead++ {
			if t, ok := ParseFrameText(strings.Join(lines[lead:], "")); ok {
				parts = appendText(parts, strings.Join(lines[:lead], ""))
				return append(parts, OutputPart{Table: t})
			}
		}
	}
	return appendText(parts, para)
}

// appendText appends text, joined to the text part before it if any.
func appendText(parts []OutputPart, text string) []OutputPart {
	if text == "" {
		return parts
	}
	if n := len(parts); n > 0 && parts[n-1].Table == nil {
		parts[n-1].Text += text
		return parts
	}
	return append(parts, OutputPart{Text: text})
}

// paragraphs splits text at blank lines, keeping each blank line with the
// paragraph before it; a frame's "[N rows x M columns]" footer stays with
// its frame.
func paragraphs(text string) []string {
	var out []string
	for text != "" {
		i := strings.Index(text, "\n\n")
		if i < 0 {
			out = append(out, text)
			break
		}
		para, rest := text[:i+2], text[i+2:]
		if line, after, found := strings.Cut(rest, "\n"); frameFooter.MatchString(line) {
			para, rest = para+line, after
			if found {
				para += "\n"
			}
		}
		out = append(out, para)
		text = rest
	}
	return out
}

// TableCSV returns the kept copy of file, the whole result of a table that
// cell cellID returned (Table.CSV), once the turn has copied it out.
func (a *Answer) TableCSV(cellID, file string) (ArtifactRef, bool) {
	for i := len(a.Artifacts) - 1; i >= 0; i-- {
		if art := a.Artifacts[i]; art.CellID == cellID && art.Name == path.Base(file) {
			return art, true
		}
	}
	return ArtifactRef{}, false
}

// Output is SplitOutput(c.Logs, c.Table), kept until the logs change: a live answer
// is rendered again with every streamed update, and a finished cell's
// output, tables and all, does not change.
func (c *Cell) Output() []OutputPart {
	if c.OutputMissing && strings.TrimSpace(c.Logs) == "" && len(c.Images) == 0 {
		return []OutputPart{{Text: NoOutputNote}}
	}
	if c.out == nil || c.outOf != c.Logs {
		c.out, c.outOf = SplitOutput(c.Logs, c.Table), c.Logs
	}
	return c.out
}

// tableCSVs returns the ids of the artifacts that hold the whole result of
// a table a cell returned: they belong to their tables, not to the list of
// files the answer made.
func (a *Answer) tableCSVs() map[string]bool {
	ids := map[string]bool{}
	for _, c := range a.Cells {
		if c.Table == nil || c.Table.CSV == "" {
			continue
		}
		if art, ok := a.TableCSV(c.ID, c.Table.CSV); ok {
			ids[art.ID] = true
		}
	}
	return ids
}
