package chat_test

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// The chat layer against an emulator that behaves as the recordings show
// the hosted service (foundry-recorded.md): figures cited at 0..0, outputs
// that may not come back, the early-expiry wording, bare 429s.

const openFigure = "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\n"

func images(a *chat.Answer) []chat.ArtifactRef {
	var out []chat.ArtifactRef
	for _, art := range a.Artifacts {
		if art.Kind == store.ArtifactImage {
			out = append(out, art)
		}
	}
	return out
}

// TestFigureIsOneChart: a shown figure is an image output and a 0..0
// citation of a cfile_….png; the answer keeps one chart, under a name of
// its own, and a chart the code also saved is that one chart.
func TestFigureIsOneChart(t *testing.T) {
	e := newEnv(t)
	a, rec := e.wait(t, e.start(t, python(openFigure)))
	imgs := images(a)
	if rec.Status != store.RunCompleted || len(imgs) != 1 || strings.HasPrefix(imgs[0].Name, "cfile_") {
		t.Fatalf("status %s, images %+v: want one chart, not named after its cfile", rec.Status, imgs)
	}
	a, _ = e.wait(t, e.start(t, python(openFigure+"plt.savefig('/mnt/data/line.png')")))
	if imgs := images(a); len(imgs) != 1 || imgs[0].Name != "line.png" {
		t.Errorf("saved and shown: images %+v, want line.png only", imgs)
	}
}

// TestOutputsFetchedAgain: the stream brings the calls without outputs;
// the cell still shows what it printed and drew, and the chart is kept
// once. A cell with no output at all says so.
func TestOutputsFetchedAgain(t *testing.T) {
	e := newEnv(t, emulator.FaultEmptyStreamOutputs)
	a, rec := e.wait(t, e.start(t, python("print(6 * 7)\n"+openFigure)))
	if rec.Status != store.RunCompleted || len(a.Cells) != 1 {
		t.Fatalf("status %s, cells %+v, error %q", rec.Status, a.Cells, a.Error)
	}
	c := a.Cells[0]
	if !strings.Contains(c.Logs, "42") || len(c.Images) != 1 || c.OutputMissing {
		t.Errorf("cell logs %q, %d images, missing %v: want the outputs read again", c.Logs, len(c.Images), c.OutputMissing)
	}
	if imgs := images(a); len(imgs) != 1 {
		t.Errorf("images %+v, want one chart", imgs)
	}
	a, _ = e.wait(t, e.start(t, python("x = 1")))
	if out := a.Cells[0].Output(); !a.Cells[0].OutputMissing || len(out) != 1 || out[0].Text != chat.NoOutputNote {
		t.Errorf("silent cell: missing %v, output %+v; want it to say no output came back", a.Cells[0].OutputMissing, out)
	}
}

// TestExpectedContainerRecovers: the next turn is refused with "Expected
// container_id: cntr_…"; the turn moves to a new session once and
// completes.
func TestExpectedContainerRecovers(t *testing.T) {
	e := newEnv(t, emulator.FaultExpiredExpectedContainer+":1")
	if _, rec := e.wait(t, e.start(t, python("x = 1"))); rec.Status != store.RunCompleted {
		t.Fatalf("first turn: %s", rec.Status)
	}
	a, rec := e.wait(t, e.start(t, python("print('again')")))
	if rec.Status != store.RunCompleted || !strings.Contains(a.Cells[len(a.Cells)-1].Logs, "again") {
		t.Fatalf("second turn: status %s, error %q", rec.Status, a.Error)
	}
	if !strings.Contains(strings.Join(a.Notices, " "), chat.SessionRenewedNotice) {
		t.Errorf("notices %q, want the new session said", a.Notices)
	}
}

// bare429 answers the first n turn creations with a 429 that names no wait.
func bare429(n int32) func(http.Handler) http.Handler {
	var left atomic.Int32
	left.Store(n)
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/openai/v1/responses") && left.Add(-1) >= 0 {
				r.Header.Set(emulator.FaultHeader, emulator.FaultBare429)
			}
			h.ServeHTTP(w, r)
		})
	}
}

// TestBareRateLimit: two bare 429s are waited out (the client's growing
// wait, shortened here); three end the turn with words for the user.
func TestBareRateLimit(t *testing.T) {
	quick := func(c *foundry.Config) { c.MaxRetries, c.RateLimitWait = 2, 20*time.Millisecond }
	e := newEnvOpts(t, envOptions{client: quick, wrap: bare429(2)})
	if a, rec := e.wait(t, e.start(t, python("print('through')"))); rec.Status != store.RunCompleted {
		t.Fatalf("after two bare 429s: status %s, error %q", rec.Status, a.Error)
	}
	e = newEnvOpts(t, envOptions{client: quick, wrap: bare429(3)})
	a, rec := e.wait(t, e.start(t, python("print('never')")))
	if rec.Status != store.RunFailed || !strings.Contains(a.Error, "busy") {
		t.Errorf("after three bare 429s: status %s, error %q; want the user told the service is busy", rec.Status, a.Error)
	}
}
