package notebook

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// conversation covers what an export meets in practice: unicode, a figure, a
// structured exception, a traceback that is only log text, a turn error and a
// turn without code.
func conversation(t *testing.T) Notebook {
	t.Helper()
	dot, err := os.ReadFile(filepath.Join("testdata", "dot.png"))
	if err != nil {
		t.Fatal(err)
	}
	return Notebook{
		Title: "Ventes 2025 — région Île-de-France 📈",
		Turns: []Turn{
			{
				Question: "Quel est le total par mois ?\nEt la moyenne <par> client & magasin ?",
				Answer:   "Le total de **mars** est 12 300 €.\n\n| mois | total |\n|---|---|\n| mars | 12300 |\n",
				Cells: []Cell{
					{
						Code:           "import pandas as pd\ndf = pd.read_csv(\"ventes.csv\")\nprint(df.shape)\n",
						Stdout:         "(120, 4)\n",
						Images:         [][]byte{dot},
						ExecutionCount: 1,
					},
					{
						Code:           "df[\"prix\"] / 0",
						ExecutionCount: 2,
						Error: &CellError{
							Name:      "KeyError",
							Value:     "'prix'",
							Traceback: []string{"\x1b[0;31mKeyError\x1b[0m: 'prix'"},
						},
					},
				},
			},
			{
				Question: "日本語の列名は？",
				Cells: []Cell{{
					Code:   "1/0",
					Stdout: "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nZeroDivisionError: division by zero\n",
				}},
				Error: "the run was cancelled",
			},
			{Question: "Merci !"},
		},
	}
}

func write(t *testing.T, nb Notebook) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, nb); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.Bytes()
}

func TestWrite_Golden(t *testing.T) {
	got := write(t, conversation(t))
	golden := filepath.Join("testdata", "conversation.ipynb")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./notebook -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; run go test ./notebook -update and review the diff\ngot:\n%s", golden, got)
	}
	if again := write(t, conversation(t)); !bytes.Equal(got, again) {
		t.Error("two writes of the same notebook differ")
	}
}

// nbformatPython returns Debian's python3, skipping the test when it lacks
// nbformat. The pyenv python3 on PATH usually has no nbformat, hence the path.
func nbformatPython(t *testing.T) string {
	t.Helper()
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import nbformat").Run(); err != nil {
		t.Skipf("%s cannot import nbformat (apt-get install python3-nbformat): %v", python, err)
	}
	return python
}

// TestWrite_ValidatesWithNbformat checks the output against the reference
// implementation rather than our reading of the schema.
func TestWrite_ValidatesWithNbformat(t *testing.T) {
	python := nbformatPython(t)
	tests := []struct {
		name string
		nb   Notebook
	}{
		{"conversation", conversation(t)},
		{"empty", Notebook{}},
		{"title only", Notebook{Title: "Empty conversation"}},
		{"bare cells", Notebook{Turns: []Turn{{Cells: []Cell{{}, {Error: &CellError{}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "export.ipynb")
			if err := os.WriteFile(path, write(t, tt.nb), 0o644); err != nil {
				t.Fatal(err)
			}
			script := "import nbformat, sys; nbformat.validate(nbformat.read(sys.argv[1], as_version=4))"
			if out, err := exec.Command(python, "-c", script, path).CombinedOutput(); err != nil {
				t.Errorf("nbformat rejects the notebook: %v\n%s", err, out)
			}
		})
	}
}

// TestWrite_SameAsNbformatWrites re-saves the golden notebook with nbformat:
// a byte-identical result means Jupyter will not rewrite our exports on save.
func TestWrite_SameAsNbformatWrites(t *testing.T) {
	python := nbformatPython(t)
	script := "import nbformat, sys; sys.stdout.write(nbformat.writes(nbformat.read(sys.argv[1], as_version=4)) + '\\n')"
	out, err := exec.Command(python, "-c", script, filepath.Join("testdata", "conversation.ipynb")).Output()
	if err != nil {
		t.Fatalf("nbformat: %v", err)
	}
	if want := write(t, conversation(t)); !bytes.Equal(out, want) {
		t.Errorf("nbformat re-saves the notebook differently:\n%s", out)
	}
}

// decoded is the part of the JSON the structural tests look at.
type decoded struct {
	Cells []struct {
		CellType string   `json:"cell_type"`
		ID       string   `json:"id"`
		Source   []string `json:"source"`
		Outputs  []struct {
			OutputType string         `json:"output_type"`
			Text       []string       `json:"text"`
			Data       map[string]any `json:"data"`
			EName      string         `json:"ename"`
		} `json:"outputs"`
	} `json:"cells"`
}

func decode(t *testing.T, data []byte) decoded {
	t.Helper()
	var d decoded
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("output is not JSON: %v", err)
	}
	return d
}

func TestWrite_Structure(t *testing.T) {
	nb := conversation(t)
	d := decode(t, write(t, nb))

	wantIDs := []string{"title", "t1-q", "t1-c1", "t1-c2", "t1-a", "t2-q", "t2-c1", "t2-a", "t3-q"}
	var ids []string
	for _, c := range d.Cells {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, ",") != strings.Join(wantIDs, ",") {
		t.Errorf("cell ids = %v, want %v", ids, wantIDs)
	}

	img := d.Cells[2].Outputs[1].Data["image/png"].(string)
	if got, err := base64.StdEncoding.DecodeString(img); err != nil || !bytes.Equal(got, nb.Turns[0].Cells[0].Images[0]) {
		t.Errorf("image/png does not decode back to the PNG bytes (err %v)", err)
	}
	if strings.ContainsAny(img, "\r\n") {
		t.Error("image/png base64 contains a line break")
	}
	if got := d.Cells[3].Outputs[0].EName; got != "KeyError" {
		t.Errorf("error output ename = %q, want KeyError", got)
	}
	if got := d.Cells[7].Source[len(d.Cells[7].Source)-1]; got != "**Error:** the run was cancelled" {
		t.Errorf("last line of the answer of turn 2 = %q, want the turn error", got)
	}
}

// A traceback the sandbox only printed must not become an invented error
// output: we do not know the exception's name or value.
func TestWrite_TracebackInStdoutStaysStream(t *testing.T) {
	d := decode(t, write(t, conversation(t)))
	outs := d.Cells[6].Outputs
	if len(outs) != 1 || outs[0].OutputType != "stream" {
		t.Fatalf("outputs = %+v, want one stream output", outs)
	}
	if !strings.HasPrefix(outs[0].Text[0], "Traceback (most recent call last):") {
		t.Errorf("stream text = %q, want the traceback", outs[0].Text)
	}
}

func TestLines(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", []string{}},
		{"a", []string{"a"}},
		{"a\n", []string{"a\n"}},
		{"a\nb", []string{"a\n", "b"}},
		{"a\n\nb\n", []string{"a\n", "\n", "b\n"}},
		{"\n", []string{"\n"}},
	}
	for _, tt := range tests {
		got := lines(tt.in)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("lines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestQuestionText(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Total?", "> **Question:** Total?"},
		{"", "> **Question:**"},
		{"one\n\ntwo\n", "> **Question:** one\n>\n> two"},
	}
	for _, tt := range tests {
		if got := questionText(tt.in); got != tt.want {
			t.Errorf("questionText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWrite_WriterError(t *testing.T) {
	err := Write(failingWriter{}, Notebook{Title: "x"})
	if err == nil || !strings.HasPrefix(err.Error(), "notebook: ") {
		t.Errorf("Write to a failing writer = %v, want a notebook: error", err)
	}
}

// TestWrite_FilesMappedBack: code that read an upload at the engine's path
// reads it by its name beside the notebook, absolute or relative, and the
// notebook says which files to put there; the files the code wrote in
// /mnt/data are written and read beside the notebook too, and the answer's
// links to them point there.
func TestWrite_FilesMappedBack(t *testing.T) {
	nb := Notebook{Title: "Sales", Files: map[string]string{
		"/mnt/data/assistant-XoFc-sales.csv":    "sales.csv",
		"/mnt/data/assistant-XoFc-sales.csv.gz": "sales.csv.gz",
	}, Turns: []Turn{{Question: "q", Cells: []Cell{{Code: "import pandas as pd\n" +
		"a = pd.read_csv('/mnt/data/assistant-XoFc-sales.csv')\n" +
		"b = pd.read_csv('assistant-XoFc-sales.csv.gz')\n" +
		"c = pd.read_csv('/mnt/data/out.csv')\nplt.savefig(os.path.join('/mnt/data', 'chart.png'))\nd = '/mnt/database'"}},
		Answer: "Saved as [chart.png](sandbox:/mnt/data/chart.png)."}}}
	d := decode(t, write(t, nb))
	if d.Cells[1].ID != "files" || strings.Join(d.Cells[1].Source, "") != "Put these files beside this notebook: sales.csv, sales.csv.gz." {
		t.Errorf("second cell %+v, want the files to put beside the notebook", d.Cells[1])
	}
	got := strings.Join(d.Cells[3].Source, "")
	want := "import pandas as pd\na = pd.read_csv('sales.csv')\nb = pd.read_csv('sales.csv.gz')\nc = pd.read_csv('./out.csv')\n" +
		"plt.savefig(os.path.join('.', 'chart.png'))\nd = '/mnt/database'"
	if got != want {
		t.Errorf("code:\n%s\nwant:\n%s", got, want)
	}
	if answer := strings.Join(d.Cells[4].Source, ""); answer != "Saved as [chart.png](chart.png)." {
		t.Errorf("answer %q, want its link to the chart beside the notebook", answer)
	}
	if nb.Turns[0].Cells[0].Code == got {
		t.Error("Write changed the caller's notebook")
	}
}
