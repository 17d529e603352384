package handlers

import (
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/markdown"
	"github.com/analyst-workbench/workbench/views"
)

// answerView turns the folded state of a run into what the page shows.
func answerView(convID, runID string, a *chat.Answer, live bool, now time.Time) views.Answer {
	v := views.Answer{
		ConversationID: convID, RunID: runID, Live: live, LastSeq: a.Seq,
		Notices: a.Notices, TextHTML: renderText(a.Text), Error: a.Error, Status: a.Status,
		InputTokens: a.InputTokens, OutputTokens: a.OutputTokens,
	}
	for _, c := range a.Cells {
		cell := views.AnswerCell{ID: c.ID, Code: c.Code, CodeHTML: markdown.Highlight(c.Code, "python"),
			Logs: c.Logs, Status: c.Status, Duration: c.Duration}
		if lastLine, ok := pythonError(c.Logs); ok && cell.Status == "completed" {
			cell.Status, cell.ErrorLine = "failed", lastLine
		} else if ok {
			cell.ErrorLine = lastLine
		}
		for _, img := range c.Images {
			if isInlineImage(img) {
				cell.Images = append(cell.Images, img)
			}
		}
		if c.Status == "running" && c.Duration == 0 && !c.StartedAt.IsZero() {
			cell.Duration = now.Sub(c.StartedAt)
		}
		v.Cells = append(v.Cells, cell)
	}
	if live {
		v.StatusLine = statusLine(a, now)
	}
	return v
}

// statusLine says what a live answer is doing.
func statusLine(a *chat.Answer, now time.Time) string {
	if n := len(a.Cells); n > 0 {
		c := a.Cells[n-1]
		switch c.Status {
		case "writing":
			return "Writing code…"
		case "running":
			return "Running… " + now.Sub(c.StartedAt).Round(100*time.Millisecond).String()
		}
	}
	if a.Text != "" {
		return "Writing the answer…"
	}
	return "Thinking…"
}

// isInlineImage accepts the images the page may show inline: PNG, JPEG and
// GIF data URLs. Anything else waits for the artifact copy.
func isInlineImage(url string) bool {
	for _, p := range []string{"data:image/png;base64,", "data:image/jpeg;base64,", "data:image/gif;base64,"} {
		if strings.HasPrefix(url, p) {
			return true
		}
	}
	return false
}

// renderText renders the answer's markdown as sanitized HTML. Links to
// sandbox files become plain text until the files are copied out.
func renderText(text string) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	return markdown.Render(text)
}

// pythonError finds a Python traceback in a cell's output and returns its
// last line, the one that says what went wrong. Code Interpreter reports a
// call that raised as completed, with the traceback in its logs.
func pythonError(logs string) (string, bool) {
	i := strings.LastIndex(logs, "Traceback (most recent call last):")
	if i < 0 {
		return "", false
	}
	lines := strings.Split(strings.TrimRight(logs[i:], "\n "), "\n")
	return strings.TrimSpace(lines[len(lines)-1]), true
}
