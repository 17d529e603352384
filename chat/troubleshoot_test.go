package chat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/store"
)

// The rows of the Code Interpreter article's troubleshooting table that
// the app handles itself: a corrupt or empty generated file, no file where
// one was asked for, a Python package that is not installed.

func TestCorruptAndEmptyGeneratedFilesAreKeptAndNamed(t *testing.T) {
	e := newEnv(t)
	code := "open('/mnt/data/chart.png', 'wb').write(b'not a png')\n" + // 9 bytes, no PNG signature
		"open('/mnt/data/empty.csv', 'w').close()\n" +
		"open('/mnt/data/data.csv', 'wb').write(bytes(range(256)))\n" +
		"open('/mnt/data/ok.csv', 'w').write('a,b\\n1,2\\n')"
	a, rec := e.wait(t, e.start(t, python(code)))
	if rec.Status != store.RunCompleted {
		t.Fatalf("status %s, error %q", rec.Status, a.Error)
	}
	want := map[string]chat.FileFlaw{"chart.png": chat.FileNotType, "empty.csv": chat.FileEmpty,
		"data.csv": chat.FileNotText, "ok.csv": chat.FileSound}
	got := map[string]chat.FileFlaw{}
	for _, art := range a.Artifacts {
		got[art.Name] = art.Flaw
	}
	kept, err := e.db.Artifacts(context.Background(), e.userID, e.convID)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]chat.FileFlaw{}
	for _, art := range kept {
		stored[art.Name] = chat.FileFlaw(art.Flaw)
	}
	for name, flaw := range want {
		if f, ok := got[name]; !ok || f != flaw {
			t.Errorf("%s announced with flaw %q (kept: %v), want %q", name, f, ok, flaw)
		}
		if f, ok := stored[name]; !ok || f != flaw {
			t.Errorf("%s stored with flaw %q (kept: %v), want %q", name, f, ok, flaw)
		}
	}
}

func TestCheckGeneratedByMagicBytesAndSize(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	for _, tc := range []struct {
		name, head string
		want       chat.FileFlaw
	}{
		{"chart.png", png, chat.FileSound},
		{"chart.png", "not a png", chat.FileNotType},
		{"photo.jpg", png, chat.FileSound}, // a real image under another image's name opens anyway
		{"photo.jpg", "\xff\xd8\xff\xe0", chat.FileSound},
		{"report.pdf", "%PDF-1.7\n", chat.FileSound},
		{"report.pdf", "<html>", chat.FileNotType},
		{"book.xlsx", "PK\x03\x04rest", chat.FileSound},
		{"book.xlsx", "a,b\n1,2\n", chat.FileNotType},
		{"table.csv", "a,b\n1,2\n", chat.FileSound},
		{"table.csv", png, chat.FileNotText},
		{"spec.json", "{\"a\": 1}", chat.FileSound},
		{"drawing.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>", chat.FileSound},
		{"drawing.svg", "\x00\x01\x02\x03", chat.FileNotText},
		{"arr.npy", "\x93NUMPY\x01\x00", chat.FileSound},
		{"arr.npy", "garbage", chat.FileNotType},
		{"model.joblib", "anything", chat.FileSound}, // no signature to check it against
	} {
		if got := chat.CheckGenerated(tc.name, int64(len(tc.head)), []byte(tc.head)); got != tc.want {
			t.Errorf("CheckGenerated(%s, %q) = %q, want %q", tc.name, tc.head, got, tc.want)
		}
	}
	if got := chat.CheckGenerated("chart.png", 0, nil); got != chat.FileEmpty {
		t.Errorf("an empty file is %q", got)
	}
}

func TestAnswerSaysWhenTheFileAskedForWasNotMade(t *testing.T) {
	e := newEnv(t)
	ask := "Save the total as a CSV file.\n\n"
	run := e.start(t, ask+python("print(1 + 1)"))
	a, _ := e.wait(t, run)
	if a.FileNotMade == nil || !strings.Contains(a.FileNotMade.Rephrased, "named result.csv") {
		t.Fatalf("no file made, yet FileNotMade = %+v", a.FileNotMade)
	}
	replayed, err := e.svc.Answer(context.Background(), e.userID, e.convID, run.ID)
	if err != nil || replayed.FileNotMade == nil {
		t.Fatalf("the replayed answer lost the note: %v", err)
	}

	made, _ := e.wait(t, e.start(t, ask+python("open('/mnt/data/total.csv', 'w').write('total\\n2\\n')")))
	if made.FileNotMade != nil {
		t.Errorf("the CSV was made, yet FileNotMade = %+v", made.FileNotMade)
	}
	plain, _ := e.wait(t, e.start(t, "How many rows are saved in the file?\n\n"+python("print(3)")))
	if plain.FileNotMade != nil {
		t.Errorf("no file was asked for, yet FileNotMade = %+v", plain.FileNotMade)
	}
}

func TestMissingModuleIsNotedWithTheNearestInstalledAlternative(t *testing.T) {
	inst, err := pool.Installed(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	pk := chat.Packages{Listed: true, Python: inst.Python, Modules: inst.Modules}
	for _, p := range inst.Packages {
		pk.Distributions = append(pk.Distributions, chat.Distribution{Name: p.Name, Version: p.Version, Modules: p.Modules})
	}
	e := newEnvOpts(t, envOptions{service: func(c *chat.Config) { c.Packages = func() chat.Packages { return pk } }})

	a, _ := e.wait(t, e.start(t, python("import polars as pl\nprint(pl.__version__)")))
	if len(a.Cells) != 1 || a.Cells[0].Status != chat.CellFailed {
		t.Fatalf("cells %+v", a.Cells)
	}
	n := a.Cells[0].Module
	if n == nil || n.Module != "polars" || !n.Listed || n.Alternative != "pandas" || n.ImportAs != "" {
		t.Fatalf("polars: note %+v", n)
	}

	a, _ = e.wait(t, e.start(t, python("from pillow import Image")))
	if n := a.Cells[0].Module; n == nil || n.Module != "pillow" || n.ImportAs != "PIL" || n.Package != "Pillow" {
		t.Fatalf("pillow: note %+v", n)
	}

	a, _ = e.wait(t, e.start(t, python("raise KeyError('x')")))
	if a.Cells[0].Module != nil {
		t.Errorf("a KeyError got a module note: %+v", a.Cells[0].Module)
	}
}

func TestNoteMissingModuleAgainstTheList(t *testing.T) {
	local := chat.Packages{Listed: true, Modules: []string{"pandas", "matplotlib", "sklearn"}}
	for _, tc := range []struct {
		line      string
		pk        chat.Packages
		alt, use  string
		noteWants bool
	}{
		{"ModuleNotFoundError: No module named 'polars'", local, "pandas", "pandas.DataFrame", true},
		{"ModuleNotFoundError: No module named 'plotly.express'", local, "matplotlib", "matplotlib.pyplot", true},
		{"ModuleNotFoundError: No module named 'xgboost'", local, "sklearn", "", true},
		{"ModuleNotFoundError: No module named 'torch'", local, "sklearn", "", true},
		// lxml is not in this list: nothing is offered that is not installed
		{"ModuleNotFoundError: No module named 'bs4'", local, "", "", true},
		// the hosted service's list is unknown: the table's first choice
		{"ModuleNotFoundError: No module named 'bs4'", chat.Packages{}, "lxml", "lxml.html", true},
		{"ImportError: No module named geopandas", local, "", "", true},
		{"KeyError: 'price'", local, "", "", false},
		{"ImportError: cannot import name 'x' from 'pandas'", local, "", "", false},
	} {
		n := chat.NoteMissingModule(tc.line, tc.pk)
		if (n != nil) != tc.noteWants {
			t.Errorf("%q: note %+v", tc.line, n)
			continue
		}
		if n != nil && (n.Alternative != tc.alt || tc.use != "" && n.Use != tc.use || n.Listed != tc.pk.Listed) {
			t.Errorf("%q: note %+v, want alternative %q (%q)", tc.line, n, tc.alt, tc.use)
		}
	}
}
