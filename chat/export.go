package chat

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/notebook"
	"github.com/analyst-workbench/workbench/report"
	"github.com/analyst-workbench/workbench/store"
)

// StepError refuses an export of steps the conversation does not have.
type StepError struct{ ID string }

// Error names the step for the log.
func (e *StepError) Error() string { return "chat: no step " + e.ID + " in this conversation" }

// UserMessage says what to do instead.
func (e *StepError) UserMessage() string {
	return "This conversation has no step “" + e.ID + "”. Choose the steps to export from the conversation's Export menu."
}

// Report gathers a conversation of userID as a report: each question, the
// cells its answer ran with their output, tables and charts, and the
// answer. steps, when not empty, are the run ids of the turns to keep; an
// id the conversation does not have is a *StepError. A loader cell that
// repeats an earlier one is left out. The Markdown, HTML and notebook
// exports all start from this one gathering.
func (s *Service) Report(ctx context.Context, userID, convID string, steps []string) (report.Report, error) {
	conv, err := s.db.Conversation(ctx, userID, convID)
	if err != nil {
		return report.Report{}, err
	}
	turns, err := s.db.Turns(ctx, conv.ID)
	if err != nil {
		return report.Report{}, err
	}
	number := map[string]int{}
	for i, t := range turns {
		number[t.Run.ID] = i + 1
	}
	if turns, err = chosenTurns(turns, steps); err != nil {
		return report.Report{}, err
	}
	// One query for every artifact's blob, not one per chart.
	arts, err := s.db.Artifacts(ctx, userID, conv.ID)
	if err != nil {
		return report.Report{}, err
	}
	blobOf := map[string]string{}
	for _, art := range arts {
		blobOf[art.ID] = art.SHA256
	}
	answers, err := s.answers(ctx, store.RunIDs(turns))
	if err != nil {
		return report.Report{}, err
	}
	r := report.Report{Title: conv.Title, Exported: time.Now().UTC()}
	if r.Files, err = s.mountedFiles(ctx, userID, conv.ID); err != nil {
		return report.Report{}, err
	}
	budget := int64(maxExportCharts)
	loaders := map[string]bool{}
	for _, t := range turns {
		a := answers[t.Run.ID]
		turn := report.Turn{N: number[t.Run.ID], Question: t.Message.Content, Answer: a.Text, Error: t.Run.Error}
		if t.Message.Kind == store.KindStep {
			turn.EditedBy = cmp.Or(t.Message.Author, "the analyst")
		}
		for _, c := range a.Cells {
			if c.Loader && loaders[c.Code] {
				continue // the same loader again: the report has it already
			}
			if c.Loader {
				loaders[c.Code] = true
			}
			turn.Cells = append(turn.Cells, report.Cell{Code: c.Code, Printed: c.Logs,
				Output: reportOutput(c), Charts: s.cellImages(a, c, blobOf, &budget), Loader: c.Loader})
		}
		turn.Charts = s.loneImages(a, blobOf, &budget)
		turn.Files = s.turnFiles(a, blobOf, &budget)
		r.Turns = append(r.Turns, turn)
	}
	return r, nil
}

// maxExportCharts bounds the bytes of charts and files one export holds
// in memory; those past it are named in the export but left out.
const maxExportCharts = 256 << 20

// within keeps the charts that fit in what is left of budget, in order,
// and empties the others' bytes.
func within(budget *int64, charts []report.Image) []report.Image {
	for i := range charts {
		if n := int64(len(charts[i].PNG)); n <= *budget {
			*budget -= n
		} else {
			charts[i].PNG = nil
		}
	}
	return charts
}

// chosenTurns keeps the turns whose run ids are in steps, all of them when
// steps is empty.
func chosenTurns(turns []store.Turn, steps []string) ([]store.Turn, error) {
	if len(steps) == 0 {
		return turns, nil
	}
	var kept []store.Turn
	for _, t := range turns {
		if slices.Contains(steps, t.Run.ID) {
			kept = append(kept, t)
		}
	}
	for _, id := range steps {
		if !slices.ContainsFunc(kept, func(t store.Turn) bool { return t.Run.ID == id }) {
			return nil, &StepError{ID: id}
		}
	}
	return kept, nil
}

// mountedFiles maps the path the engine mounted each of the conversation's
// uploads at to the upload's name.
func (s *Service) mountedFiles(ctx context.Context, userID, convID string) (map[string]string, error) {
	fs, err := s.db.Files(ctx, userID, convID)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, f := range fs {
		if f.FoundryFileID != "" {
			out[foundry.MountPath(f.FoundryFileID, f.Name)] = f.Name
		}
	}
	return out, nil
}

// NotebookOf lays a report out as a notebook: every cell numbered in
// order, with what it printed and drew; the turn's charts no cell claims
// have no place in a notebook and are left out, as Jupyter would.
func NotebookOf(r report.Report) notebook.Notebook {
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

// reportOutput splits a cell's output into text and tables for a report.
func reportOutput(c *Cell) []report.Part {
	var out []report.Part
	for _, p := range c.Output() {
		if p.Table != nil {
			out = append(out, report.Part{Table: reportTable(p.Table)})
		} else {
			out = append(out, report.Part{Text: p.Text})
		}
	}
	return out
}

// reportTable formats a table's values as the page shows them.
func reportTable(t *Table) *report.Table {
	rt := &report.Table{TotalRows: t.TotalRows, TotalColumns: t.TotalColumns}
	for _, name := range t.Index {
		rt.Columns = append(rt.Columns, report.Column{Name: name, Index: true})
	}
	for i, name := range t.Columns {
		rt.Columns = append(rt.Columns, report.Column{Name: name, Numeric: i < len(t.Numeric) && t.Numeric[i]})
	}
	for _, row := range t.Rows {
		if len(row) != len(rt.Columns) {
			continue // a malformed row: skip rather than misalign
		}
		cells := make([]string, len(row))
		for i, x := range row {
			cells[i], _ = FormatValue(x)
		}
		rt.Rows = append(rt.Rows, cells)
	}
	return rt
}

// FormatValue formats one value of a Table as pandas prints it: integers
// as they are, other numbers to six significant digits, missing values as
// "". full is the value in full, for sorting and copying.
func FormatValue(x any) (shown, full string) {
	switch x := x.(type) {
	case float64:
		full := strconv.FormatFloat(x, 'g', -1, 64)
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return strconv.FormatFloat(x, 'f', -1, 64), full
		}
		return strconv.FormatFloat(x, 'g', 6, 64), full
	case bool:
		if x {
			return "True", "True"
		}
		return "False", "False"
	case string:
		return x, x
	default:
		return "", ""
	}
}

// cellImages returns a cell's charts: the copied-out ones, or the inline
// images when none were kept. blobOf maps artifact ids to blobs.
func (s *Service) cellImages(a *Answer, c *Cell, blobOf map[string]string, budget *int64) []report.Image {
	var out []report.Image
	for _, art := range a.Own() {
		if art.CellID != c.ID || art.Kind != store.ArtifactImage || art.ContentType != "image/png" {
			continue
		}
		if img, ok := s.chartWithin(budget, art, blobOf); ok {
			out = append(out, img)
		}
	}
	if len(out) > 0 {
		return out
	}
	for i, url := range c.Images {
		if b, ok := decodeDataURL(url); ok && strings.HasPrefix(url, "data:image/png") {
			out = append(out, within(budget, []report.Image{{Name: fmt.Sprintf("figure-%d.png", i+1), PNG: b}})...)
		}
	}
	return out
}

// chartWithin reads a kept chart if it fits in what is left of budget, and
// names it only if not; false if its bytes cannot be read. A chart past
// the budget is never read.
func (s *Service) chartWithin(budget *int64, art ArtifactRef, blobOf map[string]string) (report.Image, bool) {
	if art.Size > *budget {
		return report.Image{Name: art.Name}, true
	}
	b, err := s.readBlob(blobOf[art.ID])
	if err != nil {
		return report.Image{}, false
	}
	return within(budget, []report.Image{{Name: art.Name, PNG: b}})[0], true
}

// loneImages returns the answer's own charts that no cell of it claims,
// as the page shows them after the cells.
func (s *Service) loneImages(a *Answer, blobOf map[string]string, budget *int64) []report.Image {
	var out []report.Image
	for _, art := range a.Own() {
		if art.Kind != store.ArtifactImage || art.ContentType != "image/png" ||
			slices.ContainsFunc(a.Cells, func(c *Cell) bool { return c.ID == art.CellID }) {
			continue
		}
		if img, ok := s.chartWithin(budget, art, blobOf); ok {
			out = append(out, img)
		}
	}
	return out
}

// VegaLiteExt names a chart's Vega-Lite spec: the built-in analyst writes
// one beside each chart's PNG it can express, and a model on Foundry may
// write one. The page draws it over the PNG of the same name, which stands
// for it in the gallery and in exports.
const VegaLiteExt = ".vl.json"

// turnFiles returns the files other than charts the answer wrote, for the
// Markdown zip: those up to maxNotebookImage that fit in what is left of
// budget; the others by name only. A chart's Vega-Lite spec is left out
// when its PNG is there.
func (s *Service) turnFiles(a *Answer, blobOf map[string]string, budget *int64) []report.File {
	own := a.Own()
	pngs := map[string]bool{}
	for _, art := range own {
		if art.Kind == store.ArtifactImage {
			pngs[art.Name] = true
		}
	}
	var out []report.File
	for _, art := range own {
		if base, ok := strings.CutSuffix(art.Name, VegaLiteExt); art.Kind == store.ArtifactImage || ok && pngs[base+".png"] {
			continue
		}
		f := report.File{Name: art.Name}
		if art.Size <= maxNotebookImage && art.Size <= *budget {
			if b, err := s.readBlob(blobOf[art.ID]); err == nil {
				f.Data = b
				*budget -= int64(len(b))
			}
		}
		out = append(out, f)
	}
	return out
}

// readBlob reads a stored image, up to maxNotebookImage.
func (s *Service) readBlob(sha string) ([]byte, error) {
	f, err := s.store.Open(sha)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxNotebookImage))
}

// maxNotebookImage keeps one huge image from bloating an export.
const maxNotebookImage = 20 << 20
