package chat

import (
	"cmp"
	"context"
	"slices"

	"github.com/analyst-workbench/workbench/foundry"
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

// Export is what an export of a conversation is made from (package exports
// lays it out as a report or a notebook): the turns chosen, in order, with
// their answers, and where their files are.
type Export struct {
	Title string
	Turns []ExportTurn
	// Blobs maps each of the conversation's artifacts to its blob's SHA-256
	// (Service.OpenBlob reads it).
	Blobs map[string]string
	// Mounted maps the path the engine mounted each upload at to the
	// upload's name.
	Mounted map[string]string
}

// ExportTurn is one question of an export and its answer.
type ExportTurn struct {
	// N is the turn's place in the whole conversation, from 1.
	N        int
	Question string
	// EditedBy names who edited the step, for an edited step; else "".
	EditedBy string
	// Error is what went wrong, when the run failed.
	Error  string
	Answer *Answer
}

// Export gathers a conversation of userID for an export. steps, when not
// empty, are the run ids of the turns to keep; an id the conversation does
// not have is a *StepError.
func (s *Service) Export(ctx context.Context, userID, convID string, steps []string) (*Export, error) {
	conv, err := s.db.Conversation(ctx, userID, convID)
	if err != nil {
		return nil, err
	}
	turns, err := s.db.Turns(ctx, conv.ID)
	if err != nil {
		return nil, err
	}
	number := map[string]int{}
	for i, t := range turns {
		number[t.Run.ID] = i + 1
	}
	if turns, err = chosenTurns(turns, steps); err != nil {
		return nil, err
	}
	// One query for every artifact's blob, not one per chart.
	arts, err := s.db.Artifacts(ctx, userID, conv.ID)
	if err != nil {
		return nil, err
	}
	x := &Export{Title: conv.Title, Blobs: map[string]string{}}
	for _, art := range arts {
		x.Blobs[art.ID] = art.SHA256
	}
	answers, err := s.answers(ctx, store.RunIDs(turns))
	if err != nil {
		return nil, err
	}
	if x.Mounted, err = s.mountedFiles(ctx, userID, conv.ID); err != nil {
		return nil, err
	}
	for _, t := range turns {
		turn := ExportTurn{N: number[t.Run.ID], Question: t.Message.Content, Error: t.Run.Error, Answer: answers[t.Run.ID]}
		if t.Message.Kind == store.KindStep {
			turn.EditedBy = cmp.Or(t.Message.Author, "the analyst")
		}
		x.Turns = append(x.Turns, turn)
	}
	return x, nil
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

// VegaLiteExt names a chart's Vega-Lite spec: the built-in analyst writes
// one beside each chart's PNG it can express, and a model on Foundry may
// write one. The page draws it over the PNG of the same name, which stands
// for it in the gallery and in exports.
const VegaLiteExt = ".vl.json"
