package handlers_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/emulator/analyst"
	"github.com/analyst-workbench/workbench/sandbox"
	"github.com/analyst-workbench/workbench/store"
)

// askAndWait asks a question as the page does and waits for its answer to
// end; it returns the run id.
func (l *liveApp) askAndWait(br *browser, convID, question string) string {
	l.t.Helper()
	r := br.postRaw("/conversations/"+convID+"/messages", url.Values{"content": {question}, "_csrf": {br.csrf}}, "HX-Request", "true")
	m := runIDAttr.FindStringSubmatch(r.body)
	if r.status != http.StatusOK || m == nil {
		l.t.Fatalf("question refused: %d %s", r.status, excerpt(r.body))
	}
	a, _, err := awaitRun(l, m[1], time.Now(), nil)
	if err != nil || a.Status != store.RunCompleted {
		l.t.Fatalf("run %s: %v %+v", m[1], err, a)
	}
	return m[1]
}

// exportConversation makes a conversation of three steps on the real
// engine: the built-in analyst loading a file and drawing a chart, Python
// printing a frame and drawing a chart, and Python printing a line.
func exportConversation(t *testing.T) (l *liveApp, ana *browser, convID string, runs []string) {
	l = newLiveAppPlanner(t, sandbox.Config{}, emulator.AnalystPlanner(&analyst.Rules{}))
	ana = l.signedIn("ana", store.RoleAnalyst)
	convID = ana.create()
	expect(t, ana.upload("/conversations/"+convID+"/files", true, part{"file", "sales.csv", salesCSV}), http.StatusOK)
	runs = append(runs,
		l.askAndWait(ana, convID, "total revenue by region as a bar chart"),
		l.askAndWait(ana, convID, "```python\nimport pandas as pd\nimport matplotlib.pyplot as plt\n"+
			"frame = pd.DataFrame({'city': ['Oslo', 'Bergen', 'Tromso'], 'people': [709000, 291000, 77000]})\n"+
			"frame.plot.bar(x='city', y='people')\nplt.savefig('/mnt/data/people by city.png')\nframe.to_csv('/mnt/data/people.csv', index=False)\nprint(frame)\n```"),
		l.askAndWait(ana, convID, "```python\nprint('third step')\n```"))
	return l, ana, convID, runs
}

// markdownLink finds the images and links of a Markdown file.
var markdownLink = regexp.MustCompile(`(!?)\[[^\]]*\]\(([^)]+)\)`)

// fencedBlock matches a fenced code block of the Markdown export: what looks like a link in
// the code (a regular expression of the loading cell, "[^'"]+(…)") is code, not a link.
var fencedBlock = regexp.MustCompile("(?ms)^```[a-z]*\n.*?^```$")

func TestExportReports(t *testing.T) {
	l, ana, convID, runs := exportConversation(t)
	bob := l.signedIn("bob", store.RoleAnalyst)
	base := "/conversations/" + convID + "/export"

	t.Run("only the owner exports", func(t *testing.T) {
		for _, ext := range []string{".md", ".html", ".ipynb"} {
			expect(t, bob.get(base+ext), http.StatusNotFound)
		}
	})

	t.Run("the Markdown zip holds every chart and file it links and nothing else", func(t *testing.T) {
		r := ana.get(base + ".md")
		expect(t, r, http.StatusOK)
		if ct := r.header.Get("Content-Type"); ct != "application/zip" {
			t.Fatalf("Content-Type %q", ct)
		}
		files := unzip(t, r.body)
		var md string
		for name, body := range files {
			if strings.HasSuffix(name, ".md") {
				md = body
			}
		}
		if !strings.Contains(r.header.Get("Content-Disposition"), ".zip") || md == "" {
			t.Fatalf("no markdown in %q (%v)", r.header.Get("Content-Disposition"), keys(files))
		}
		shown := map[string]bool{}
		for _, m := range markdownLink.FindAllStringSubmatch(fencedBlock.ReplaceAllString(md, ""), -1) {
			shown[m[2]] = true
			if _, ok := files[m[2]]; !ok {
				t.Errorf("%s is linked but not in the zip", m[2])
			}
			if m[1] == "!" && !strings.HasPrefix(files[m[2]], "\x89PNG") {
				t.Errorf("%s is shown but is not a PNG in the zip", m[2])
			}
		}
		if len(shown) != 3 {
			t.Errorf("%d charts and files linked, want 3 (a chart per chart step and the CSV):\n%s", len(shown), md)
		}
		if files["files/01-people.csv"] != "city,people\nOslo,709000\nBergen,291000\nTromso,77000\n" {
			t.Errorf("the CSV the code wrote is not in the zip as written: %q", files["files/01-people.csv"])
		}
		for name := range files {
			if !strings.HasSuffix(name, ".md") && !shown[name] {
				t.Errorf("%s is in the zip but nothing shows it", name)
			}
		}
		for _, want := range []string{"## 1. total revenue by region as a bar chart", "```python\nimport pandas as pd",
			"| city | people |", "| Tromso | 77,000 |", "people-by-city.png)", "third step"} {
			if !strings.Contains(md, want) {
				t.Errorf("markdown lacks %q:\n%s", want, md)
			}
		}
		if regexp.MustCompile(`(?m)^@@wb`).MatchString(md) {
			t.Error("the analyst's marker lines reached the markdown")
		}
	})

	t.Run("the HTML report is one file that runs and loads nothing", func(t *testing.T) {
		r := ana.get(base + ".html")
		expect(t, r, http.StatusOK, "<details class=\"code\"><summary>Code</summary>", "<td>Tromso</td>",
			`<img src="data:image/png;base64,`, "third step",
			`total revenue by region as a bar chart</h2>`, "bar_revenue_by_region.png")
		if strings.Contains(r.body, `<blockquote class="question"><p>total revenue by region`) {
			t.Error("the question is printed twice: as the heading, and quoted under it")
		}
		if ct := r.header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Fatalf("Content-Type %q", ct)
		}
		if csp := r.header.Get("Content-Security-Policy"); csp != "default-src 'none'; img-src data:; style-src 'unsafe-inline'" {
			t.Fatalf("CSP %q", csp)
		}
		if cd := r.header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") || !strings.Contains(cd, ".html") {
			t.Fatalf("Content-Disposition %q", cd)
		}
		if strings.Contains(strings.ToLower(r.body), "<script") {
			t.Error("the report has a script")
		}
		if m := regexp.MustCompile(`(?i)(src|href)="(https?:|//|/)`).FindString(r.body); m != "" {
			t.Errorf("the report points outside itself: %s", m)
		}
		if n := strings.Count(r.body, "<img "); n != 2 {
			t.Errorf("%d charts, want 2", n)
		}
	})

	t.Run("steps choose what goes in", func(t *testing.T) {
		r := ana.get(base + ".html?step=" + runs[1] + "&step=" + runs[2])
		expect(t, r, http.StatusOK, "<td>Tromso</td>", "third step", "2 steps",
			`<h2><span class="n">2.</span>`, `<h2><span class="n">3.</span>`) // numbered as in the conversation
		if strings.Contains(r.body, `<blockquote class="question"><p>total revenue`) || strings.Contains(r.body, "bar_revenue_by_region.png") {
			t.Error("a step left out is in the report")
		}
		if n := strings.Count(r.body, "<img "); n != 1 {
			t.Errorf("%d charts, want the chosen step's 1", n)
		}
		files := unzip(t, ana.get(base+".md?steps="+runs[0]).body)
		if len(files) != 2 {
			t.Errorf("zip of the first step holds %v, want its markdown and its chart", keys(files))
		}
		nb := ana.get(base + ".ipynb?steps=" + runs[2])
		expect(t, nb, http.StatusOK, "third step")
		if strings.Contains(nb.body, "Tromso") {
			t.Error("the notebook has a step left out")
		}
	})

	t.Run("a step of another conversation is refused with a message", func(t *testing.T) {
		other := ana.create()
		r := ana.get("/conversations/" + other + "/export.html?step=" + runs[0])
		expect(t, r, http.StatusBadRequest, "has no step")
	})
}

func unzip(t *testing.T, body string) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader([]byte(body)), int64(len(body)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	files := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = string(b)
	}
	return files
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
