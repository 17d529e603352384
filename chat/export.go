package chat

import (
	"cmp"
	"context"
	"io"
	"strings"

	"github.com/analyst-workbench/workbench/notebook"
	"github.com/analyst-workbench/workbench/store"
)

// Notebook gathers a conversation of userID as a notebook: each question,
// the cells its answer ran with their output and charts, and the answer.
func (s *Service) Notebook(ctx context.Context, userID, convID string) (notebook.Notebook, error) {
	conv, err := s.db.Conversation(ctx, userID, convID)
	if err != nil {
		return notebook.Notebook{}, err
	}
	turns, err := s.db.Turns(ctx, conv.ID)
	if err != nil {
		return notebook.Notebook{}, err
	}
	// One query for every artifact's blob, not one per chart.
	arts, err := s.db.Artifacts(ctx, userID, conv.ID)
	if err != nil {
		return notebook.Notebook{}, err
	}
	blobOf := map[string]string{}
	for _, art := range arts {
		blobOf[art.ID] = art.SHA256
	}
	nb := notebook.Notebook{Title: conv.Title}
	count := 0
	answers, err := s.Answers(ctx, store.RunIDs(turns))
	if err != nil {
		return notebook.Notebook{}, err
	}
	loaders := map[string]bool{}
	for _, t := range turns {
		a := answers[t.Run.ID]
		turn := notebook.Turn{Question: t.Message.Content, Answer: a.Text, Error: t.Run.Error}
		if t.Message.Kind == store.KindStep {
			turn.EditedBy = cmp.Or(t.Message.Author, "the analyst")
		}
		for _, c := range a.Cells {
			if c.IsLoader() && loaders[c.Code] {
				continue // the same loader again: the notebook has it already
			}
			if c.IsLoader() {
				loaders[c.Code] = true
			}
			count++
			turn.Cells = append(turn.Cells, notebook.Cell{Code: c.Code, Stdout: WithoutMarkers(c.Logs),
				Images: s.cellImages(a, c, blobOf), ExecutionCount: count})
		}
		nb.Turns = append(nb.Turns, turn)
	}
	return nb, nil
}

// cellImages returns a cell's charts as PNG bytes: the copied-out ones, or
// the inline images when none were kept. blobOf maps artifact ids to blobs.
func (s *Service) cellImages(a *Answer, c *Cell, blobOf map[string]string) [][]byte {
	var out [][]byte
	for _, art := range a.Own() {
		if art.CellID != c.ID || art.Kind != store.ArtifactImage || art.ContentType != "image/png" {
			continue
		}
		if b, err := s.readBlob(blobOf[art.ID]); err == nil {
			out = append(out, b)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, url := range c.Images {
		if b, ok := decodeDataURL(url); ok && strings.HasPrefix(url, "data:image/png") {
			out = append(out, b)
		}
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

// WithoutMarkers drops the lines the built-in analyst prints for itself
// ("@@wb …": the results it writes its answer from); they are not meant for
// people, and Foundry's model never prints them.
func WithoutMarkers(logs string) string {
	if !strings.Contains(logs, "@@wb") {
		return logs
	}
	var keep []string
	for _, line := range strings.Split(logs, "\n") {
		if !strings.HasPrefix(line, "@@wb") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}
