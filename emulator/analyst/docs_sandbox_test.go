package analyst

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mountPrefix is how the emulator mounts an upload: "<file id>-<filename>".
const mountPrefix = "file-0123456789abcdefABCD-"

// docKernel starts a session holding the fixtures of testdata/docs, mounted as uploads are.
func docKernel(t *testing.T, names ...string) (*kernel, []string) {
	t.Helper()
	k := newKernelFrom(t, "testdata/docs", nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mounted []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join("testdata", "docs", n))
		if err != nil {
			t.Fatal(err)
		}
		if err := k.sess.PutFile(ctx, mountPrefix+n, bytes.NewReader(b)); err != nil {
			t.Fatalf("put %s: %v", n, err)
		}
		mounted = append(mounted, mountPrefix+n)
	}
	return k, mounted
}

// converse runs one turn of the rules against the kernel and returns the reply and the cells.
func converse(t *testing.T, k *kernel, files []string, question string) (string, []Cell) {
	t.Helper()
	turn := &Turn{Question: question, Files: files}
	for range 12 {
		step, err := (&Rules{}).Next(context.Background(), turn)
		if err != nil {
			t.Fatal(err)
		}
		if step.Code == "" {
			return step.Text, turn.Cells
		}
		turn.Cells = append(turn.Cells, k.exec(step.Code))
	}
	t.Fatalf("%q: the turn did not end", question)
	return "", nil
}

// TestEveryListedType_Sandbox is issue 38 item 2: each type the Code Interpreter article lists
// (and .xls) is read by the local engine, never "no data file": an overview and a plain
// question each, answered from the file's content.
func TestEveryListedType_Sandbox(t *testing.T) {
	for _, tc := range []struct {
		file     string
		overview []string // in the answer to "what is in <file>?"
		question string
		want     []string
	}{
		{"notes.md", []string{"Markdown file", "**8 lines**", "“Quarterly notes”", "“Risks”"},
			"what does it say about the budget?", []string{"**2 lines**", "budget for 2024 grew", "budget review is in June", "line 3"}},
		{"minutes.txt", []string{"a text file", "**6 lines**", "Minutes of the planning meeting"},
			"does it mention Leeds?", []string{"**Yes**", "warehouse to Leeds"}},
		{"paper.tex", []string{"TeX file", "“Demand under uncertainty”", "“Introduction”", "“Data”"},
			"how many sections are there?", []string{"**3 headings**"}},
		{"etl.py", []string{"Python source file", "**3 functions**", "`Loader`", "`pandas`"},
			"which functions does it define?", []string{"`read`", "`clean`", "`main`"}},
		{"app.js", []string{"JavaScript source file", "`total`", "`average`", "`fs/promises`"},
			"what does it import?", []string{"`fs/promises`", "`path`"}},
		{"app.ts", []string{"TypeScript source file", "`handler`", "`double`"},
			"how many lines are there?", []string{"**7 lines**"}},
		{"Main.java", []string{"Java source file", "`main`", "`count`", "`java.util.List`"},
			"list the classes", []string{"`Main`"}},
		{"stats.c", []string{"C source file", "`mean`", "`stdio.h`"},
			"what does it include?", []string{"`stdio.h`", "`stats.h`"}},
		{"grid.cpp", []string{"C++ source file", "`area`", "`Grid`"},
			"how many functions does it define?", []string{"**3 functions**"}},
		{"index.php", []string{"PHP source file", "`greet`", "`config.php`"},
			"what does it say about Ana?", []string{"**1 line**", "greet(\"Ana\")"}},
		{"report.rb", []string{"Ruby source file", "`total`", "`Report`", "`csv`"},
			"show the first 3 lines", []string{"```text\nrequire 'csv'\nrequire_relative 'helpers'\nclass Report\n```"}},
		{"style.css", []string{"CSS source file", "**3 style rules**"},
			"how many words are in it?", []string{"words**"}},
		{"page.html", []string{"HTML file", "“Branch sales”", "`page.html (table 1)`"},
			"what does it say about Leeds?", []string{"budget was met in Leeds", "Leeds"}},
		{"catalog.xml", []string{"XML file", "`catalog`", "**13 elements**"},
			"how many books are there?", []string{"**3** rows"}},
		{"policy.docx", []string{"Word document", "“Travel policy”", "“Budget”", "`policy.docx (table 1)`"},
			"what does it say about trains?", []string{"trips under four hours", "paragraph 2"}},
		{"deck.pptx", []string{"PowerPoint deck", "**2 slides**", "“Q1 results”", "“Next steps”"},
			"what does it say about the budget?", []string{"slide 2", "cut the budget for travel"}},
		{"report.pdf", []string{"PDF document", "**2 pages**", "Annual report"},
			"how many pages does it have?", []string{"**2 pages**"}},
		{"logo.png", []string{"PNG image", "**40 × 20 pixels**", "`#ffffff` (75%)", "`#0000ff` (25%)"},
			"how big is the image?", []string{"**40 × 20 pixels**"}},
		{"photo.jpg", []string{"JPEG image", "**40 × 20 pixels**"},
			"what are its main colours?", []string{"`#ffffff` (75%)", "(25%)"}},
		{"spinner.gif", []string{"GIF image", "**16 × 16 pixels**", "3 frames"},
			"show the picture", nil},
		{"bundle.zip", []string{"ZIP archive", "**3 files**", "`sales.csv` (", "read as a table", "`staff/staff.csv`"},
			"how many rows are in bundle.zip/sales.csv?", []string{"3 rows"}},
		{"bundle.tar", []string{"TAR archive", "**2 files**", "`notes.md`"},
			"total sales", []string{"35"}},
		{"history.xls", []string{"**history.xls:2023** has 2 rows", "**history.xls:2024** has 3 rows"},
			"how many rows are in history.xls:2024?", []string{"history.xls:2024 has **3 rows**"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			t.Parallel()
			k, files := docKernel(t, tc.file)
			over, cells := converse(t, k, files, "what is in "+tc.file+"?")
			for _, w := range tc.overview {
				if !strings.Contains(over, w) {
					t.Errorf("overview lacks %q:\n%s", w, over)
				}
			}
			if strings.Contains(over, "no data file") || strings.Contains(over, "could not") {
				t.Errorf("overview declines:\n%s", over)
			}
			if imageExt[strings.ToLower(filepath.Ext(tc.file))] && !wroteFile(cells, ".png") {
				t.Errorf("the image is not shown: no PNG written")
			}
			got, cells := converse(t, k, files, tc.question)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q: the answer lacks %q:\n%s", tc.question, w, got)
				}
			}
			if tc.want == nil && !wroteFile(cells, ".png") {
				t.Errorf("%q: no picture drawn:\n%s", tc.question, got)
			}
		})
	}
}

// TestArchiveMemberCannotClimbOut_Sandbox: a member named "../escape.txt" is read under a
// plain name in /tmp, never written where its path points, and nothing is left in /tmp.
func TestArchiveMemberCannotClimbOut_Sandbox(t *testing.T) {
	k, files := docKernel(t, "bundle.zip")
	if reply, _ := converse(t, k, files, "what is in bundle.zip?"); !strings.Contains(reply, "**3 files**") {
		t.Fatalf("the hidden-path member changed the listing:\n%s", reply)
	}
	c := k.exec("import os\nprint(os.path.exists('/mnt/escape.txt'), os.path.exists('/escape.txt'), sorted(os.listdir('/tmp')))")
	if !strings.HasPrefix(c.Stdout, "False False") || strings.Contains(c.Stdout, "wb-unpack-") {
		t.Errorf("unpacking left or wrote: %q", c.Stdout)
	}
}

// TestDocumentPhrasings_Sandbox holds the ways people name and ask about documents: by kind
// ("the pdf", "the image", "the zip"), by what a deck has ("which slides mention …"), for a
// title, for the text itself.
func TestDocumentPhrasings_Sandbox(t *testing.T) {
	k, files := docKernel(t, "report.pdf", "etl.py", "deck.pptx", "photo.jpg", "bundle.zip")
	for q, want := range map[string][]string{
		"Which slides mention revenue?":           {"of **deck.pptx** mentions “revenue”", "*slide 1*"},
		"what's the title of the pdf?":            {"**report.pdf**", "“Annual report”"},
		"what is the title of the presentation?":  {"first slide is titled “Q1 results”"},
		"extract the text from the pdf":           {"```text\nAnnual report\nRevenue grew to 4 million."},
		"describe the image":                      {"**photo.jpg** is a JPEG image of **40 × 20 pixels**"},
		"show me the picture":                     {"**photo.jpg** as attached (40 × 20 pixels)"},
		"what does the zip contain?":              {"**bundle.zip** is a ZIP archive of **3 files**"},
		"List all functions in etl.py":            {"**etl.py** has **3 functions**", "`clean`"},
		"How many words does report.pdf contain?": {"**report.pdf** has **13 words**"},
		"search for budget":                       {"*page 2*: The budget for hiring doubles.", "*slide 2*"},
	} {
		got, _ := converse(t, k, files, q)
		for _, w := range want {
			if !strings.Contains(got, w) {
				t.Errorf("%q: the answer lacks %q:\n%s", q, w, got)
			}
		}
		if strings.HasPrefix(q, "Which slides") && strings.Contains(got, "report.pdf") {
			t.Errorf("%q searched more than the decks:\n%s", q, got)
		}
	}
}
