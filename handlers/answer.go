package handlers

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/markdown"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/views"
)

// answerOptions say how an answer is shown.
type answerOptions struct {
	live bool // the run goes on: the page follows its stream
	// sharePath is a shared page's base: its files come from the share's
	// routes and nothing acts on the conversation. "" is the owner's page.
	sharePath string
	now       time.Time // what a running answer's status line counts from
}

// answerOptions are the options for this app's pages at now.
func (h *Handler) answerOptions(live bool, now time.Time) answerOptions {
	return answerOptions{live: live, now: now}
}

// answerView turns the folded state of a run into what the page shows.
func answerView(convID, runID string, a *chat.Answer, o answerOptions) views.Answer {
	live, sharePath, now := o.live, o.sharePath, o.now
	v := views.Answer{
		ConversationID: convID, RunID: runID, Live: live, LastSeq: a.Seq, SharePath: sharePath,
		Notices: a.Notices, TextHTML: renderText(sharePath, a.Text, a.Artifacts), Error: a.Error, Status: runStatus(a.Status),
		InputTokens: a.InputTokens, OutputTokens: a.OutputTokens,
	}
	for _, m := range a.Missing {
		v.Missing = append(v.Missing, views.MissingFile{FileID: m.FileID, Name: m.Name})
	}
	if a.FileNotMade != nil {
		v.FileNotMade = &views.FileNotMade{Rephrased: a.FileNotMade.Rephrased}
	}
	charts, files := chartsOf(sharePath, a.Own())
	claimed := map[string]bool{} // artifacts a table links to, not listed as files
	for _, c := range a.Cells {
		if emptyCell(c) {
			continue
		}
		cell := cellView(c, now)
		cell.Editable = !live && sharePath == "" // the owner may run it again; a shared page is read-only
		if sharePath == "" {
			cell.Images = imageURLs(convID, runID, a, cell.Images)
		}
		linkTableCSVs(sharePath, cell.Output, c.ID, a, claimed)
		// Copied-out charts replace the inline images they were made from.
		if kept := charts[c.ID]; len(kept) > 0 {
			cell.Charts, cell.Images = kept, nil
			delete(charts, c.ID)
		}
		v.Cells = append(v.Cells, cell)
	}
	// Earlier steps fold away once done, unless they drew something; the
	// last cell, and any still running or failed, stay open.
	for i := range v.Cells {
		c := &v.Cells[i]
		c.Collapsed = i < len(v.Cells)-1 && c.Status == views.CellCompleted && len(c.Charts) == 0 && len(c.Images) == 0
	}
	for _, kept := range charts { // charts no cell claims, e.g. cited ones
		v.Charts = append(v.Charts, kept...)
	}
	for _, f := range files {
		if !claimed[f.ID] {
			v.Files = append(v.Files, f)
		}
	}
	if live {
		v.StatusLine = statusLine(a, now)
	}
	return v
}

// imageURLs replaces a cell's inline images (data: URLs) with the URLs that
// serve them (showRunImage): a streamed update then carries a short link,
// not the image again, and the browser loads each image once. A shared
// page keeps the data: URLs, having no such route.
func imageURLs(convID, runID string, a *chat.Answer, images []string) []string {
	out := make([]string, len(images))
	for i, img := range images {
		out[i] = "/conversations/" + convID + "/runs/" + runID + "/images/" + a.ImageKey(img)
	}
	return out
}

// cellView shows one code cell. A running cell shows the tail of what it
// printed as it is, unparsed, so that each streamed update costs the same
// however long the output has grown; a finished one its error line or its
// output, tables and all. Whether it failed is chat's decision (c.Status).
func cellView(c *chat.Cell, now time.Time) views.AnswerCell {
	code := c.ShownCode()
	cell := views.AnswerCell{ID: c.ID, Code: code, CodeHTML: markdown.Highlight(code, "python"),
		Status: cellState(c.Status), Duration: c.Duration}
	logs := c.Logs
	if c.Status == chat.CellRunning {
		logs, cell.LogsCut = logTail(logs, liveLogLines)
		if c.Duration == 0 && !c.StartedAt.IsZero() {
			cell.Duration = now.Sub(c.StartedAt)
		}
	} else if cell.ErrorLine = c.ErrorLine(); cell.ErrorLine == "" {
		cell.Output = outputParts(c.Output())
	}
	cell.Logs = logs
	if m := c.Module; m != nil && cell.ErrorLine != "" {
		cell.Module = &views.ModuleNote{Module: m.Module, Listed: m.Listed, ImportAs: m.ImportAs, Package: m.Package,
			Alternative: m.Alternative, Use: m.Use}
	}
	if c.Loader && cell.ErrorLine == "" {
		cell.Loader = loaderLine(c)
	}
	cell.Images = c.ShownImages()
	return cell
}

// loaderLine is the one line a loader cell shows: what the engine says it
// loaded ("Loaded stocks.csv: 524 × 11 · Could not load b.csv: …"), never
// what its code printed.
func loaderLine(c *chat.Cell) string {
	if c.Status == chat.CellWriting || c.Status == chat.CellRunning {
		return "Loading files…"
	}
	parts := make([]string, 0, len(c.Loaded))
	for _, l := range c.Loaded {
		switch {
		case l.Error != "":
			parts = append(parts, "Could not load "+l.Name+": "+l.Error)
		case l.Document != "":
			parts = append(parts, "Read "+l.Name+" ("+l.Document+")")
		default:
			parts = append(parts, fmt.Sprintf("Loaded %s: %s × %d", l.Name, views.Thousands(int64(l.Rows)), l.Columns))
		}
	}
	if len(parts) == 0 {
		return "Files loaded"
	}
	return strings.Join(parts, " · ")
}

// emptyCell reports a finished cell with nothing to show: no code, no
// output, no image.
func emptyCell(c *chat.Cell) bool {
	return c.Status != chat.CellWriting && c.Status != chat.CellRunning && strings.TrimSpace(c.Code) == "" &&
		strings.TrimSpace(c.Logs) == "" && len(c.ShownImages()) == 0
}

// statusLine says what a live answer is doing.
func statusLine(a *chat.Answer, now time.Time) string {
	if n := len(a.Cells); n > 0 {
		c := a.Cells[n-1]
		switch c.Status {
		case chat.CellWriting:
			return "Writing code…"
		case chat.CellRunning:
			return "Running… " + now.Sub(c.StartedAt).Round(100*time.Millisecond).String()
		}
	}
	if a.Text != "" {
		return "Writing the answer…"
	}
	if a.Progress != "" {
		return a.Progress
	}
	return "Thinking…"
}

// liveLogLines is how much of a running cell's output each update shows:
// its tail, as a terminal does. The whole output shows once the cell ends.
const liveLogLines = 200

// logTail returns the last n lines of logs and how many lines came before.
func logTail(logs string, n int) (string, int) {
	i, lines := len(logs), 0
	if strings.HasSuffix(logs, "\n") {
		i--
	}
	for ; i > 0; i-- {
		if logs[i-1] == '\n' {
			if lines++; lines == n {
				return logs[i:], strings.Count(logs[:i], "\n")
			}
		}
	}
	return logs, 0
}

// renderText renders the answer's markdown as sanitized HTML. Links to
// sandbox files point at their copied-out artifacts; links to files not
// copied (yet) become plain text.
func renderText(sharePath, text string, arts []chat.ArtifactRef) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	opts := markdown.Options{RewriteSandboxLink: func(name string) (string, bool) {
		for i := len(arts) - 1; i >= 0; i-- {
			if arts[i].Name == path.Base(name) {
				return views.ArtifactURL(sharePath, arts[i].ID, arts[i].Kind == store.ArtifactImage), true
			}
		}
		return "", false
	}}
	return opts.Render(text)
}
