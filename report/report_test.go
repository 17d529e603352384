package report

import (
	"archive/zip"
	"bytes"
	"image"
	"image/color"
	"image/png"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"
)

// chart is a real PNG of w×h pixels, filled with noise-free colour rows so
// it compresses to a size that grows with h.
func chart(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.RGBA{uint8(x * y), uint8(x + y), uint8(y), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// sample covers what an export meets: a loader (chat leaves out its
// repeats, so there is one), an empty
// cell, a table cut to its first rows, printed text with backticks, charts
// with awkward names, a chart no cell claims, an answer linking a chart
// and a file, markup in an answer, and a failed turn.
func sample(t testing.TB) Report {
	t.Helper()
	rows := make([][]string, 60)
	for i := range rows {
		rows[i] = []string{"r" + string(rune('a'+i%26)), "1|2", "3.5"}
	}
	loader := Cell{Code: "# load files\ndf = load('sales.csv')", Output: []Part{{Text: "Loaded sales.csv: 120 × 4\n"}}, Loader: true}
	return Report{
		Title: "Sales — 2025",
		Turns: []Turn{
			{
				Question: "Total by region?\nAnd as a chart.",
				Cells: []Cell{
					loader,
					{Code: "", Output: []Part{{Text: "\n"}}},
					{Code: "df.groupby('region').sum()", Output: []Part{
						{Text: "Totals:\n"},
						{Table: &Table{Columns: []Column{{Name: "region", Index: true}, {Name: "note"}, {Name: "total", Numeric: true}},
							Rows: rows, TotalRows: 1000, TotalColumns: 2}},
					}},
					{Code: "plt.savefig('/mnt/data/by region.png')", Output: []Part{{Text: "printed ``` fence\n"}},
						Charts: []Image{{Name: "by region.png", PNG: chart(t, 40, 20)}}},
				},
				Charts: []Image{{Name: "../lone.png", PNG: chart(t, 30, 10)}},
				Files:  []File{{Name: "out.csv", Data: []byte("a,b\n1,2\n")}, {Name: "model.pkl", Data: []byte("x")}, {Name: "huge.parquet"}},
				Answer: "See ![the chart](sandbox:/mnt/data/by%20region.png) and [the data](sandbox:/mnt/data/out.csv); [in the app](/artifacts/x), [docs](https://pandas.pydata.org/).\n\n**North** leads.<script>alert(1)</script>",
			},
			{
				Question: "```python\nprint(1)\n```",
				Cells:    []Cell{{Code: "print(1)", Output: []Part{{Text: "1\n"}}}},
				Error:    "The run failed.",
			},
		},
	}
}

func TestMarkdown(t *testing.T) {
	md, charts := Markdown(sample(t))
	for _, want := range []string{
		"# Sales — 2025\n",
		"## Files loaded\n\n<details><summary>Code that loads the files</summary>\n\n```python\n# load files\n",
		"```\n\n</details>\n\n```text\nLoaded sales.csv: 120 × 4\n```",
		"## 1. Total by region?\n\n> Total by region?\n> And as a chart.\n",
		"```python\ndf.groupby('region').sum()\n```",
		"| region | note | total |\n|---|---|--:|\n| ra | 1\\|2 | 3.5 |\n",
		"*Showing the first 50 of 1,000 rows.*",
		"````text\nprinted ``` fence\n````",
		"![by region.png](charts/01-by-region.png)",
		"![../lone.png](charts/02-lone.png)",
		"See ![the chart](charts/01-by-region.png) and [the data](files/01-out.csv); in the app, [docs](https://pandas.pydata.org/).",
		"Files: [model.pkl](files/02-model.pkl), “huge.parquet” (left out to keep this export small)\n",
		"## 2. Python code\n",
		"**Error:** The run failed.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q\n%s", want, md)
		}
	}
	if n := strings.Count(md, "# load files"); n != 1 {
		t.Errorf("the loader appears %d times, want once", n)
	}
	if i, j := strings.Index(md, "# load files"), strings.Index(md, "## 1."); i > j {
		t.Error("the loader is not at the top")
	}
	if n := strings.Count(md, "| ra |"); n != 2 { // rows 0 and 26 of the first 50
		t.Errorf("%d rows of ra, want 2 (the table is cut at 50 rows)", n)
	}
	if strings.Contains(md, "sandbox:") {
		t.Error("a sandbox link is left in the markdown")
	}
	if strings.Contains(md, "> ```python") {
		t.Error("a question that is only code is quoted above the same code")
	}
	var paths []string
	for _, a := range charts {
		paths = append(paths, a.Path)
	}
	if strings.Join(paths, " ") != "charts/01-by-region.png charts/02-lone.png files/01-out.csv files/02-model.pkl" {
		t.Fatalf("attached %v", paths)
	}
}

// linkRef finds the images and links of a Markdown file.
var linkRef = regexp.MustCompile(`(!?)\[[^\]]*\]\(([^)]+)\)`)

func TestMarkdownZipHasEveryFileItLinks(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteMarkdownZip(&buf, sample(t), "sales-2025.md"); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		files[f.Name] = b
	}
	md, ok := files["sales-2025.md"]
	if !ok {
		t.Fatalf("no markdown in %v", zr.File)
	}
	referenced := map[string]bool{}
	for _, m := range linkRef.FindAllStringSubmatch(string(md), -1) {
		if strings.HasPrefix(m[2], "https:") {
			continue // a link out, left as the answer wrote it
		}
		referenced[m[2]] = true
		if _, ok := files[m[2]]; !ok {
			t.Errorf("%s is linked but not in the zip", m[2])
		}
		if m[1] == "!" && !bytes.HasPrefix(files[m[2]], []byte(pngSignature)) {
			t.Errorf("%s is shown but not a PNG in the zip", m[2])
		}
	}
	for name := range files {
		if name != "sales-2025.md" && !referenced[name] {
			t.Errorf("%s is in the zip but nothing shows it", name)
		}
	}
	if len(referenced) != 4 {
		t.Errorf("%d charts and files referenced, want 4: %v", len(referenced), referenced)
	}
}

func TestHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteHTML(&buf, sample(t), DefaultMaxHTML); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; img-src data:; style-src &#39;unsafe-inline&#39;">`,
		"<title>Sales — 2025</title>",
		`<h2><span class="n">1.</span> Total by region?</h2>`,
		`<details class="code"><summary>Code</summary><pre class="chroma">`,
		`<th class="index">region</th><th>note</th><th class="num">total</th>`,
		`<tr><td>ra</td><td>1|2</td><td class="num">3.5</td></tr>`,
		`<p class="table-note">Showing the first 50 of 1,000 rows.</p>`,
		"<pre class=\"output\">printed ``` fence</pre>",
		`<img src="data:image/png;base64,iVBORw0KGgo`,
		`<figcaption>by region.png</figcaption>`,
		`<strong>North</strong> leads.`,
		"and the data; in the app, <a href=\"https://pandas.pydata.org/\"",
		`<strong>Error:</strong> The run failed.`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	if strings.Contains(strings.ToLower(page), "<script") {
		t.Error("the report has a script element")
	}
	if m := regexp.MustCompile(`(?i)(src="(https?:|//|/)|href="/)`).FindString(page); m != "" {
		t.Errorf("the report loads from or links into the app: %s", m)
	}
	if strings.Contains(page, "sandbox:") {
		t.Error("a sandbox link is left in the report")
	}
	if n := strings.Count(page, "# load files"); n != 1 {
		t.Errorf("the loader appears %d times, want once", n)
	}
	if n := strings.Count(page, `<div class="cell">`); n != 4 { // loader, table, chart, print(1)
		t.Errorf("%d cells, want 4 (the empty one left out)", n)
	}
	if n := strings.Count(page, "<img "); n != 2 {
		t.Errorf("%d images, want 2 (the answer's image is text)", n)
	}
	if n := strings.Count(page, `<blockquote class="question">`); n != 1 {
		t.Errorf("%d questions quoted, want 1 (the other is only code)", n)
	}
}

func TestHTMLLeavesOutWhatDoesNotFit(t *testing.T) {
	r := sample(t)
	big := chart(t, 600, 400)
	r.Turns[1].Cells[0].Charts = []Image{{Name: "huge.png", PNG: big}}
	var small bytes.Buffer
	if err := WriteHTML(&small, sample(t), DefaultMaxHTML); err != nil {
		t.Fatal(err)
	}
	limit := int64(small.Len()) + int64(len(big)) // the base64 form is a third larger: it cannot fit
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, limit); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if int64(buf.Len()) > limit {
		t.Errorf("report is %d bytes, over the %d limit", buf.Len(), limit)
	}
	if !strings.Contains(page, "1 chart was left out to keep this report under") || !strings.Contains(page, "huge.png") {
		t.Error("the report does not say what it left out")
	}
	if !strings.Contains(page, `Chart “huge.png” left out`) {
		t.Error("no note where the chart was")
	}
	if n := strings.Count(page, "<img "); n != 2 {
		t.Errorf("%d images, want the 2 that fit", n)
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{
		"by region.png":       "by-region.png",
		"../../etc/passwd":    "passwd.png",
		`C:\x\résumé.png`:     "r-sum-.png",
		"":                    "file.png",
		"Umsatz 2025 (€).png": "Umsatz-2025-.png",
	} {
		if got := fileName(in, ".png"); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

// A chart the caller left out (nil PNG) is named where it was, in both
// forms, and nothing in the zip points at it.
func TestChartLeftOutByCaller(t *testing.T) {
	r := sample(t)
	r.Turns[0].Cells[3].Charts = []Image{{Name: "by region.png"}}
	md, charts := Markdown(r)
	if !strings.Contains(md, "*Chart “by region.png” left out to keep this export small.*") {
		t.Errorf("markdown does not name the chart left out:\n%s", md)
	}
	if len(charts) != 3 || charts[0].Path != "charts/01-lone.png" || strings.Contains(md, "by-region.png") {
		t.Errorf("attached %d, first %s; the chart left out must have no file", len(charts), charts[0].Path)
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, DefaultMaxHTML); err != nil {
		t.Fatal(err)
	}
	if page := buf.String(); !strings.Contains(page, "1 chart was left out") || !strings.Contains(page, `Chart “by region.png” left out`) {
		t.Error("the HTML report does not name the chart left out")
	}
}

// A step (code the analyst edited and ran) is headed by who edited it and
// says what it is instead of quoting its code as a question.
func TestStep(t *testing.T) {
	r := Report{Title: "t", Turns: []Turn{{Question: "y = x * 2\nprint(y)", EditedBy: "ana",
		Cells: []Cell{{Code: "y = x * 2\nprint(y)", Output: []Part{{Text: "84\n"}}}}}}}
	md, _ := Markdown(r)
	if !strings.Contains(md, "## 1. Edited by ana\n\n*Their own code, run as written.*\n\n```python\ny = x * 2") || strings.Contains(md, "> y = x") {
		t.Errorf("markdown of a step:\n%s", md)
	}
	var buf bytes.Buffer
	if err := WriteHTML(&buf, r, DefaultMaxHTML); err != nil {
		t.Fatal(err)
	}
	if page := buf.String(); !strings.Contains(page, `<span class="n">1.</span> Edited by ana</h2>`) ||
		!strings.Contains(page, "<em>Their own code, run as written.</em>") {
		t.Error("the HTML report does not head the step with its editor")
	}
}

// TestMarkdownZipEntriesAreDated is issue 40's minor: every entry of the zip carries the time the
// report was made, not the zero date a file manager shows as 1980.
func TestMarkdownZipEntriesAreDated(t *testing.T) {
	r := sample(t)
	r.Exported = time.Date(2026, 12, 6, 9, 30, 0, 0, time.UTC)
	var buf bytes.Buffer
	if err := WriteMarkdownZip(&buf, r, "sales-2025.md"); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) < 2 {
		t.Fatalf("only %d entries", len(zr.File))
	}
	for _, f := range zr.File {
		if !f.Modified.Equal(r.Exported) {
			t.Errorf("%s is dated %v, want %v", f.Name, f.Modified, r.Exported)
		}
	}
}
