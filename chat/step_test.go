package chat_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/store"
)

func (e *env) step(t *testing.T, code string) *store.Run {
	t.Helper()
	_, run, err := e.svc.StartStep(context.Background(), chat.Step{UserID: e.userID, ConversationID: e.convID, Code: code})
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestStepRunsAsWrittenInTheSession: a step runs its code verbatim in the
// kernel of the conversation's earlier turns, and says nothing about it
// having been changed.
func TestStepRunsAsWrittenInTheSession(t *testing.T) {
	e := newEnv(t)
	e.wait(t, e.start(t, python("base = 40")))
	a, rec := e.wait(t, e.step(t, "total = base + 2\nprint('total', total)"))
	if rec.Status != store.RunCompleted || len(a.Cells) != 1 || a.Cells[0].Code != "total = base + 2\nprint('total', total)" {
		t.Fatalf("step %s (%s) ran %+v", rec.Status, rec.Error, a.Cells)
	}
	if !strings.Contains(a.Cells[0].Logs, "total 42") || len(a.Notices) != 0 {
		t.Fatalf("step printed %q with notices %q", a.Cells[0].Logs, a.Notices)
	}
}

// TestStepWithBackticksRunsAsWritten: code that holds ``` travels in a
// longer fence, so it reaches the kernel whole.
func TestStepWithBackticksRunsAsWritten(t *testing.T) {
	e := newEnv(t)
	code := "fence = '```'\nprint(fence * 2, \"````\")"
	a, rec := e.wait(t, e.step(t, code))
	if rec.Status != store.RunCompleted || len(a.Cells) != 1 || a.Cells[0].Code != code || len(a.Notices) != 0 {
		t.Fatalf("step %s (%s) ran %+v, notices %q", rec.Status, rec.Error, a.Cells, a.Notices)
	}
	if !strings.Contains(a.Cells[0].Logs, "`````` ````") {
		t.Fatalf("step printed %q", a.Cells[0].Logs)
	}
}

// TestStepChangedByTheAgentIsSaid: a hosted model may rewrite the code or
// not run it; the step then says so instead of passing the result off as
// the analyst's code.
func TestStepChangedByTheAgentIsSaid(t *testing.T) {
	for name, c := range map[string]struct {
		plan func(t *emulator.Turn) emulator.Step
		want string
	}{
		"rewritten": {func(t *emulator.Turn) emulator.Step {
			if len(t.Cells) == 0 {
				return emulator.Step{Code: "print('tidied')"}
			}
			return emulator.Step{Text: "Done."}
		}, chat.StepChangedNotice},
		"not run": {func(*emulator.Turn) emulator.Step { return emulator.Step{Text: "I would rather not."} }, chat.StepNotRunNotice},
		"more besides": {func(t *emulator.Turn) emulator.Step {
			blocks := emulator.FencedBlocks(t.Question)
			switch len(t.Cells) {
			case 0:
				return emulator.Step{Code: blocks[0]}
			case 1:
				return emulator.Step{Code: "print('and more')"}
			}
			return emulator.Step{Text: "Done."}
		}, chat.StepExtraNotice},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnvWith(t, func(cfg *emulator.Config) {
				cfg.Planner = emulator.PlannerFunc(func(_ context.Context, turn *emulator.Turn) (emulator.Step, error) {
					return c.plan(turn), nil
				})
			})
			a, rec := e.wait(t, e.step(t, "print('mine')"))
			if rec.Status != store.RunCompleted || !slices.Contains(a.Notices, c.want) {
				t.Fatalf("step %s with notices %q, want %q", rec.Status, a.Notices, c.want)
			}
		})
	}
}

// TestStepOnAnEndedSessionStartsANewOne: a step, like a question, restores
// an ended session with the conversation's files, and the new session's
// agent is told that the analyst ran the earlier step's code.
func TestStepOnAnEndedSessionStartsANewOne(t *testing.T) {
	var history []emulator.Message
	e := newEnvWith(t, func(cfg *emulator.Config) {
		cfg.Planner = emulator.PlannerFunc(func(ctx context.Context, turn *emulator.Turn) (emulator.Step, error) {
			history = turn.History
			return emulator.FencedPlanner{}.Next(ctx, turn)
		})
	})
	ctx := context.Background()
	if _, err := e.svc.Upload(ctx, e.userID, e.convID, "a.csv", strings.NewReader("v\n5\n")); err != nil {
		t.Fatal(err)
	}
	e.wait(t, e.step(t, "x = 1"))
	conv := mustConv(t, e)
	e.db.UseSession(ctx, e.convID, conv.ContainerID, time.Now().Add(-31*time.Minute))
	a, rec := e.wait(t, e.step(t, "import pandas as pd\nprint('v', pd.read_csv("+mounted("a.csv")+").v.sum())"))
	if !rec.NewSession || !slices.Contains(a.Notices, chat.SessionRenewedNotice) {
		t.Fatalf("new session not reported: %+v %q", rec, a.Notices)
	}
	if len(a.Cells) != 1 || !strings.Contains(a.Cells[0].Logs, "v 5") {
		t.Fatalf("the step in the new session: %+v", a.Cells)
	}
	seen := ""
	for _, m := range history {
		seen += m.Text + "\n"
	}
	if !strings.Contains(seen, "The analyst ran this code of their own") || !strings.Contains(seen, "x = 1") {
		t.Fatalf("the new session's history does not tell of the earlier step:\n%s", seen)
	}
}

// TestBadSteps: empty, oversized and fence-breaking code is refused with a
// message for the user, and so is a step while a turn runs.
func TestBadSteps(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for code, want := range map[string]string{
		"\n \t\n":                      "Write some code",
		strings.Repeat("#", 100<<10+1): "too long",
		"print('ok')\xff":              "invalid characters",
	} {
		_, _, err := e.svc.StartStep(ctx, chat.Step{UserID: e.userID, ConversationID: e.convID, Code: code})
		var ue *chat.UserError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, want) {
			t.Errorf("code %.20q: %v, want a user error saying %q", code, err, want)
		}
	}
	run := e.start(t, python("import time\ntime.sleep(30)"))
	if _, _, err := e.svc.StartStep(ctx, chat.Step{UserID: e.userID, ConversationID: e.convID, Code: "print(1)"}); !errors.Is(err, chat.ErrBusy) {
		t.Errorf("a step during a turn: %v, want ErrBusy", err)
	}
	e.svc.Cancel(ctx, e.userID, e.convID, run.ID)
	e.wait(t, run)
}
