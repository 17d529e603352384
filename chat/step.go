package chat

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/analyst-workbench/workbench/markdown/fence"
	"github.com/analyst-workbench/workbench/store"
)

// MaxStepBytes caps the code of one step.
const MaxStepBytes = 100 << 10

// Notices a step's answer may carry, when the code that ran is not the
// code the user sent: a hosted model may rewrite it, or not run it at all.
const (
	StepChangedNotice = "The agent changed your code before running it: what ran is shown below, and may differ from what you wrote."
	StepExtraNotice   = "The agent ran your code as written, and more code besides: every step that ran is shown below."
	StepNotRunNotice  = "The agent did not run your code. Try again, or ask the agent in a question to run it."
)

// Step is code a user edited and runs as written in the conversation's
// Code Interpreter session.
type Step struct {
	UserID         string
	ConversationID string
	Code           string
}

// StartStep records a step and a running run, then runs it as a turn in
// the background, like Start: the same session (restored if it had ended),
// the same files, event stream and copies of what the code writes. There
// is no API that runs code in a Foundry conversation's container, so the
// step is a response whose input asks the agent to run exactly this code;
// the conversation keeps it as items, and the agent sees it in later turns.
func (s *Service) StartStep(ctx context.Context, st Step) (*store.Message, *store.Run, error) {
	code, err := ValidateStep(st.Code)
	if err != nil {
		return nil, nil, err
	}
	attached, err := s.selectFiles(ctx, st.UserID, st.ConversationID, nil)
	if err != nil {
		return nil, nil, err
	}
	// Steps start from a cell, so the conversation has its name already;
	// one started through the API on an empty conversation is named as a
	// question of code would be.
	title := TitleFrom(fence.Wrap(code, "python"), nil)
	msg, run, err := s.db.StartStep(ctx, st.UserID, st.ConversationID, code, title)
	if errors.Is(err, store.ErrRunInProgress) {
		return nil, nil, ErrBusy
	}
	if err != nil {
		return nil, nil, err
	}
	if err := s.launch(&runner{s: s, run: run, convID: st.ConversationID, userID: st.UserID,
		question: StepInput(code), step: code, files: attached}); err != nil {
		return nil, nil, err
	}
	return msg, run, nil
}

// ValidateStep normalises a step's code (line ends, blank lines around it;
// the rest is run as written) and checks that it can be sent.
func ValidateStep(code string) (string, error) {
	code = strings.ReplaceAll(code, "\r\n", "\n")
	code = strings.TrimRight(code, " \t\n")
	code = strings.TrimLeft(code, "\n")
	switch {
	case strings.TrimSpace(code) == "":
		return "", &UserError{"Write some code before running it."}
	case !utf8.ValidString(code):
		return "", &UserError{"The code contains invalid characters."}
	case len(code) > MaxStepBytes:
		return "", &UserError{fmt.Sprintf("The code is too long: keep it under %d KB, or upload it as a file and load it from /mnt/data.", MaxStepBytes>>10)}
	}
	return code, nil
}

// StepInput is what the agent is asked for a step: to run the code exactly
// as written. The code goes in a fenced python block, which the local
// engine's analyst runs as written and a model reads as code.
func StepInput(code string) string {
	return "The analyst edited this Python code and asks you to run it exactly as written, with the code_interpreter tool, " +
		"in a single call, without changing, fixing or adding anything. Then say in one or two sentences what it printed or made.\n\n" +
		fence.Wrap(code, "python")
}

// checkStep tells the user when the code that ran is not the code of the
// step: the page then shows what really ran, and says so.
func (r *runner) checkStep(ctx context.Context) {
	ran, same := 0, false
	for _, c := range r.answer.Cells {
		if strings.TrimSpace(c.Code) == "" {
			continue
		}
		ran++
		same = same || sameCode(c.Code, r.step)
	}
	switch {
	case ran == 0:
		r.notice(ctx, StepNotRunNotice)
	case !same:
		r.notice(ctx, StepChangedNotice)
	case ran > 1:
		r.notice(ctx, StepExtraNotice)
	}
}

// sameCode compares code as sent with code as run, up to line ends and the
// blank space around it.
func sameCode(a, b string) bool {
	norm := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	return norm(a) == norm(b)
}
