package chat

import (
	"context"
	"fmt"
	"strings"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/markdown/fence"
	"github.com/analyst-workbench/workbench/store"
)

// Bounds of the summary a renewed conversation starts with: a note, then a
// question and an answer for each of the last seedTurns turns, within the
// items a conversation may be created with; and how much of each is kept.
const (
	seedTurns        = (foundry.MaxSeedItems - 1) / 2
	seedQuestionRune = 1000
	seedAnswerRunes  = 1500
	seedCodeRunes    = 400
	seedCellsPerTurn = 3
)

// seed summarises the conversation's earlier turns (all but the run
// currentRun) for a new Foundry conversation: the model of the new session
// then knows what was asked, answered, computed and written, although the
// old session's variables and files are gone.
func (s *Service) seed(ctx context.Context, convID, currentRun string, files []*store.File) ([]foundry.Message, error) {
	turns, err := s.db.Turns(ctx, convID)
	if err != nil {
		return nil, err
	}
	earlier := make([]store.Turn, 0, len(turns))
	for _, t := range turns {
		if t.Run.ID != currentRun {
			earlier = append(earlier, t)
		}
	}
	total := len(earlier)
	left := max(0, total-seedTurns)
	earlier = earlier[left:]
	ids := make([]string, len(earlier))
	for i, t := range earlier {
		ids[i] = t.Run.ID
	}
	answers, err := s.answers(ctx, ids)
	if err != nil {
		return nil, err
	}
	msgs := []foundry.Message{{Role: "user", Text: seedNote(files, total, left)}}
	for _, t := range earlier {
		msgs = append(msgs, foundry.Message{Role: "user", Text: seedQuestion(t.Message)},
			foundry.Message{Role: "assistant", Text: answerSummary(answers[t.Run.ID], t.Run)})
	}
	return msgs, nil
}

// seedNote opens the summary. It is a user message because every service
// takes those as conversation items (whether Foundry takes developer
// messages there is UNCONFIRMED).
func seedNote(files []*store.File, turns, left int) string {
	var b strings.Builder
	b.WriteString("[Note from the workbench, not a question] The Code Interpreter session of this conversation ended. " +
		"This conversation continues it in a new session: variables and files written to /mnt/data before are gone, " +
		"so compute again from the files whatever you need.")
	if len(files) > 0 {
		names := make([]string, len(files))
		for i, f := range files {
			names[i] = f.Name
		}
		b.WriteString(" The user's files are attached again: " + strings.Join(names, ", ") + ".")
	}
	switch {
	case turns == 0:
	case left > 0:
		fmt.Fprintf(&b, " The last %d of the %d earlier questions and their answers follow.", turns-left, turns)
	default:
		b.WriteString(" The earlier questions and their answers follow.")
	}
	return b.String()
}

// seedQuestion is an earlier question as the new session sees it; a step
// says that the analyst ran that code, so that the model does not take it
// for a request to run it again.
func seedQuestion(m *store.Message) string {
	if m.Kind != store.KindStep {
		return clip(m.Content, seedQuestionRune)
	}
	return "[The analyst ran this code of their own in the earlier session]\n" + fence.Wrap(clip(m.Content, seedQuestionRune), "python")
}

// answerSummary is an earlier answer as the new session sees it: its text,
// the code it ran, and the files it made, each cut to a bounded length.
func answerSummary(a *Answer, run *store.Run) string {
	var b strings.Builder
	switch {
	case strings.TrimSpace(a.Text) != "":
		b.WriteString(clip(a.Text, seedAnswerRunes))
	case run.Error != "":
		b.WriteString("(No answer: " + run.Error + ")")
	default:
		b.WriteString("(No answer.)")
	}
	cells := 0
	for _, c := range a.Cells {
		if c.Code == "" || cells == seedCellsPerTurn {
			continue
		}
		if cells == 0 {
			b.WriteString("\n\nCode run in the earlier session:")
		}
		cells++
		b.WriteString("\n" + fence.Wrap(clip(c.Code, seedCodeRunes), "python"))
	}
	if len(a.Artifacts) > 0 {
		names := make([]string, len(a.Artifacts))
		for i, art := range a.Artifacts {
			names[i] = art.Name
		}
		b.WriteString("\n\nFiles it made (no longer in /mnt/data): " + strings.Join(names, ", ") + ".")
	}
	return b.String()
}

// clip cuts s to at most n runes, saying so.
func clip(s string, n int) string {
	r := []rune(strings.TrimSpace(s))
	if len(r) <= n {
		return string(r)
	}
	return string(r[:n]) + " […]"
}
