// Package exports lays a conversation out as a report (Markdown, or HTML
// that holds itself) and as a notebook, from what chat gathers for it
// (chat.Export): each question, the cells its answer ran with their output,
// tables and charts, and the answer. The report, the HTML and the notebook
// all start from this one layout.
package exports

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/notebook"
	"github.com/analyst-workbench/workbench/report"
	"github.com/analyst-workbench/workbench/store"
)

// OpenBlob opens stored bytes by their SHA-256 (chat.Service.OpenBlob).
type OpenBlob func(sha string) (io.ReadCloser, error)

// Report lays x out as a report. A loader cell that repeats an earlier one
// is left out; charts and files past maxExportBytes are named but not held.
func Report(x *chat.Export, open OpenBlob) report.Report {
	l := &layout{x: x, open: open, budget: maxExportBytes}
	r := report.Report{Title: x.Title, Exported: time.Now().UTC(), Files: x.Mounted}
	loaders := map[string]bool{}
	for _, t := range x.Turns {
		a := t.Answer
		turn := report.Turn{N: t.N, Question: t.Question, Answer: a.Text, Error: t.Error, EditedBy: t.EditedBy}
		for _, c := range a.Cells {
			if c.Loader && loaders[c.Code] {
				continue // the same loader again: the report has it already
			}
			if c.Loader {
				loaders[c.Code] = true
			}
			turn.Cells = append(turn.Cells, report.Cell{Code: c.Code, Printed: c.Logs,
				Output: output(c), Charts: l.cellImages(a, c), Loader: c.Loader})
		}
		turn.Charts = l.loneImages(a)
		turn.Files = l.turnFiles(a)
		r.Turns = append(r.Turns, turn)
	}
	return r
}

// Notebook lays a report out as a notebook: every cell numbered in order,
// with what it printed and drew; the turn's charts no cell claims have no
// place in a notebook and are left out, as Jupyter would.
func Notebook(r report.Report) notebook.Notebook {
	nb := notebook.Notebook{Title: r.Title, Files: r.Files}
	count := 0
	for _, t := range r.Turns {
		turn := notebook.Turn{Question: t.Question, EditedBy: t.EditedBy, Answer: t.Answer, Error: t.Error}
		for _, c := range t.Cells {
			count++
			cell := notebook.Cell{Code: c.Code, Stdout: c.Printed, ExecutionCount: count}
			for _, img := range c.Charts {
				if img.PNG != nil {
					cell.Images = append(cell.Images, img.PNG)
				}
			}
			turn.Cells = append(turn.Cells, cell)
		}
		nb.Turns = append(nb.Turns, turn)
	}
	return nb
}

// Bounds on what one export holds in memory: maxExportBytes of charts and
// files in all (those past it are named in the export but left out), and
// maxFileBytes for any one of them.
const (
	maxExportBytes = 256 << 20
	maxFileBytes   = 20 << 20
)

// layout is one export being laid out: what it reads, and what is left of
// its budget.
type layout struct {
	x      *chat.Export
	open   OpenBlob
	budget int64
}

// within keeps the charts that fit in what is left of the budget, in order,
// and empties the others' bytes.
func (l *layout) within(charts []report.Image) []report.Image {
	for i := range charts {
		if n := int64(len(charts[i].PNG)); n <= l.budget {
			l.budget -= n
		} else {
			charts[i].PNG = nil
		}
	}
	return charts
}

// output splits a cell's output into text and tables for a report.
func output(c *chat.Cell) []report.Part {
	var out []report.Part
	for _, p := range c.Output() {
		if p.Table != nil {
			out = append(out, report.Part{Table: table(p.Table)})
		} else {
			out = append(out, report.Part{Text: p.Text})
		}
	}
	return out
}

// table formats a table's values as the page shows them.
func table(t *chat.Table) *report.Table {
	rt := &report.Table{TotalRows: t.TotalRows, TotalColumns: t.TotalColumns}
	for _, name := range t.Index {
		rt.Columns = append(rt.Columns, report.Column{Name: name, Index: true})
	}
	for i, name := range t.Columns {
		rt.Columns = append(rt.Columns, report.Column{Name: name, Numeric: i < len(t.Numeric) && t.Numeric[i]})
	}
	formats := chat.ColumnFormats(append(slices.Clone(t.Index), t.Columns...), t.Rows, len(rt.Columns))
	for _, row := range t.Rows {
		if len(row) != len(rt.Columns) {
			continue // a malformed row: skip rather than misalign
		}
		cells := make([]string, len(row))
		for i, x := range row {
			cells[i], _ = formats[i].Format(x)
		}
		rt.Rows = append(rt.Rows, cells)
	}
	return rt
}

// cellImages returns a cell's charts: the copied-out ones, or the inline
// images when none were kept.
func (l *layout) cellImages(a *chat.Answer, c *chat.Cell) []report.Image {
	var out []report.Image
	for _, art := range a.Own() {
		if art.CellID != c.ID || art.Kind != store.ArtifactImage || art.ContentType != "image/png" {
			continue
		}
		if img, ok := l.chart(art); ok {
			out = append(out, img)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, png := range c.InlinePNGs() {
		out = append(out, l.within([]report.Image{{Name: fmt.Sprintf("figure-%d.png", i+1), PNG: png}})...)
	}
	return out
}

// chart reads a kept chart if it fits in what is left of the budget, and
// names it only if not; false if its bytes cannot be read. A chart past
// the budget is never read.
func (l *layout) chart(art chat.ArtifactRef) (report.Image, bool) {
	if art.Size > l.budget {
		return report.Image{Name: art.Name}, true
	}
	b, err := l.read(art.ID)
	if err != nil {
		return report.Image{}, false
	}
	return l.within([]report.Image{{Name: art.Name, PNG: b}})[0], true
}

// loneImages returns the answer's own charts that no cell of it claims,
// as the page shows them after the cells.
func (l *layout) loneImages(a *chat.Answer) []report.Image {
	var out []report.Image
	for _, art := range a.Own() {
		if art.Kind != store.ArtifactImage || art.ContentType != "image/png" ||
			slices.ContainsFunc(a.Cells, func(c *chat.Cell) bool { return c.ID == art.CellID }) {
			continue
		}
		if img, ok := l.chart(art); ok {
			out = append(out, img)
		}
	}
	return out
}

// turnFiles returns the files other than charts the answer wrote, for the
// Markdown zip: those up to maxFileBytes that fit in what is left of the
// budget; the others by name only. A chart's Vega-Lite spec is left out
// when its PNG is there.
func (l *layout) turnFiles(a *chat.Answer) []report.File {
	own := a.Own()
	pngs := map[string]bool{}
	for _, art := range own {
		if art.Kind == store.ArtifactImage {
			pngs[art.Name] = true
		}
	}
	var out []report.File
	for _, art := range own {
		if base, ok := strings.CutSuffix(art.Name, chat.VegaLiteExt); art.Kind == store.ArtifactImage || ok && pngs[base+".png"] {
			continue
		}
		f := report.File{Name: art.Name}
		if art.Size <= maxFileBytes && art.Size <= l.budget {
			if b, err := l.read(art.ID); err == nil {
				f.Data = b
				l.budget -= int64(len(b))
			}
		}
		out = append(out, f)
	}
	return out
}

// read reads an artifact's stored bytes, up to maxFileBytes.
func (l *layout) read(artifactID string) ([]byte, error) {
	f, err := l.open(l.x.Blobs[artifactID])
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxFileBytes))
}
