package notebook

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// The structs below mirror the nbformat 4.5 JSON schema. Fields are declared
// in alphabetical order of their JSON names because encoding/json writes
// struct fields in declaration order and Jupyter writes sorted keys.

type document struct {
	Cells         []cell   `json:"cells"`
	Metadata      metadata `json:"metadata"`
	NBFormat      int      `json:"nbformat"`
	NBFormatMinor int      `json:"nbformat_minor"`
}

type metadata struct {
	Kernelspec   kernelspec   `json:"kernelspec"`
	LanguageInfo languageInfo `json:"language_info"`
	Title        string       `json:"title,omitempty"`
}

type kernelspec struct {
	DisplayName string `json:"display_name"`
	Language    string `json:"language"`
	Name        string `json:"name"`
}

type languageInfo struct {
	Name string `json:"name"`
}

// cell is a markdown or a code cell. They are two types because the schema
// requires execution_count (possibly null) and outputs on code cells only.
type cell any

type markdown struct {
	CellType string   `json:"cell_type"`
	ID       string   `json:"id"`
	Metadata struct{} `json:"metadata"`
	Source   []string `json:"source"`
}

type code struct {
	CellType       string   `json:"cell_type"`
	ExecutionCount *int     `json:"execution_count"`
	ID             string   `json:"id"`
	Metadata       struct{} `json:"metadata"`
	Outputs        []output `json:"outputs"`
	Source         []string `json:"source"`
}

// output is one of stream, display_data or error; omitempty drops the fields
// that belong to the other kinds.
type output struct {
	Data       map[string]any `json:"data,omitempty"`
	EName      *string        `json:"ename,omitempty"`
	EValue     *string        `json:"evalue,omitempty"`
	Metadata   *struct{}      `json:"metadata,omitempty"`
	Name       string         `json:"name,omitempty"`
	OutputType string         `json:"output_type"`
	Text       []string       `json:"text,omitempty"`
	Traceback  *[]string      `json:"traceback,omitempty"`
}

func build(nb Notebook) document {
	doc := document{
		Cells: []cell{},
		Metadata: metadata{
			Kernelspec:   kernelspec{DisplayName: "Python 3", Language: "python", Name: "python3"},
			LanguageInfo: languageInfo{Name: "python"},
			Title:        nb.Title,
		},
		NBFormat:      4,
		NBFormatMinor: 5,
	}
	if nb.Title != "" {
		doc.Cells = append(doc.Cells, markdownCell("title", "# "+nb.Title))
	}
	local := localPaths(nb.Files)
	if names := fileNames(nb.Files); len(names) > 0 {
		doc.Cells = append(doc.Cells, markdownCell("files", "Put these files beside this notebook: "+strings.Join(names, ", ")+"."))
	}
	for i, t := range nb.Turns {
		doc.Cells = append(doc.Cells, turnCells(i+1, t, local)...)
	}
	return doc
}

// localPaths rewrites the engine's paths of the uploads to the names beside
// the notebook: the full /mnt/data path, then the same relative to
// /mnt/data (the sandbox's working directory), longest first so that no
// path is cut into.
func localPaths(files map[string]string) *strings.Replacer {
	engine := slices.Collect(maps.Keys(files))
	slices.SortFunc(engine, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	var pairs []string
	for _, p := range engine {
		pairs = append(pairs, p, files[p])
	}
	for _, p := range engine {
		if rel, ok := strings.CutPrefix(p, "/mnt/data/"); ok {
			pairs = append(pairs, rel, files[p])
		}
	}
	return strings.NewReplacer(pairs...)
}

// fileNames lists the names beside the notebook, sorted, each once.
func fileNames(files map[string]string) []string {
	names := slices.Sorted(maps.Values(files))
	return slices.Compact(names)
}

// turnCells lays out one turn as question, code cells, answer. Ids such as
// "t3-c2" are stable across exports of the same conversation, which keeps
// golden files and diffs between exports meaningful.
func turnCells(n int, t Turn, local *strings.Replacer) []cell {
	head := questionText(t.Question)
	if t.EditedBy != "" {
		head = "*Edited by " + t.EditedBy + ": their own code, run as written.*"
	}
	cells := []cell{markdownCell(fmt.Sprintf("t%d-q", n), head)}
	for i, c := range t.Cells {
		c.Code = besideNotebook(local.Replace(c.Code))
		cells = append(cells, codeCell(fmt.Sprintf("t%d-c%d", n, i+1), c))
	}
	if answer := strings.ReplaceAll(answerText(t.Answer, t.Error), "sandbox:/mnt/data/", ""); answer != "" { // links to the files the code wrote beside it
		cells = append(cells, markdownCell(fmt.Sprintf("t%d-a", n), answer))
	}
	return cells
}

// mountDir is the sandbox's /mnt/data as a directory of its own, not the
// start of a longer name.
var mountDir = regexp.MustCompile(`/mnt/data\b`)

// besideNotebook points the code's other paths in /mnt/data (the files it
// writes, and reads back) at the notebook's directory, where the uploads
// are put: run outside the sandbox, the code then finds and writes them
// there instead of failing on a directory that does not exist.
func besideNotebook(code string) string { return mountDir.ReplaceAllString(code, ".") }

// questionText quotes every line so a multi-line question stays one quote
// block in the rendered markdown.
func questionText(q string) string {
	lines := strings.Split(strings.TrimRight(q, "\n"), "\n")
	lines[0] = "**Question:** " + lines[0]
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

func answerText(answer, turnErr string) string {
	parts := []string{}
	if a := strings.TrimRight(answer, "\n"); a != "" {
		parts = append(parts, a)
	}
	if turnErr != "" {
		parts = append(parts, "**Error:** "+turnErr)
	}
	return strings.Join(parts, "\n\n")
}

func markdownCell(id, text string) cell {
	return markdown{CellType: "markdown", ID: id, Source: lines(text)}
}

func codeCell(id string, c Cell) cell {
	var count *int
	if c.ExecutionCount > 0 {
		count = &c.ExecutionCount
	}
	return code{CellType: "code", ExecutionCount: count, ID: id, Outputs: outputs(c), Source: lines(c.Code)}
}

// outputs orders stdout, then figures, then the exception, which is the order
// Jupyter shows them when a cell prints, plots and finally raises.
func outputs(c Cell) []output {
	outs := []output{}
	if c.Stdout != "" {
		outs = append(outs, output{Name: "stdout", OutputType: "stream", Text: lines(c.Stdout)})
	}
	for _, png := range c.Images {
		outs = append(outs, imageOutput(png))
	}
	if c.Error != nil {
		outs = append(outs, errorOutput(*c.Error))
	}
	return outs
}

func imageOutput(png []byte) output {
	return output{
		Data: map[string]any{
			// StdEncoding has no line breaks, which nbformat and browsers
			// both accept; Jupyter itself writes image/png the same way.
			"image/png":  base64.StdEncoding.EncodeToString(png),
			"text/plain": []string{"<Figure>"},
		},
		Metadata:   &struct{}{},
		OutputType: "display_data",
	}
}

func errorOutput(e CellError) output {
	tb := e.Traceback
	if tb == nil {
		tb = []string{} // the schema requires the array even when empty
	}
	return output{EName: &e.Name, EValue: &e.Value, OutputType: "error", Traceback: &tb}
}

// lines splits text the way Jupyter stores multi-line strings: every line
// keeps its newline except the last, and empty text is an empty list.
func lines(text string) []string {
	parts := strings.SplitAfter(text, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}
