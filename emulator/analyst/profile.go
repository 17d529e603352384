package analyst

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/analyst-workbench/workbench/cellext"
	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// loaderPy is the loading cell's code after its FILES line: the loading helpers and result
// markers of loader.py, with documents.py's readers placed before the loop that loads FILES
// into the dicts `frames` and `documents` and reports the profile.
var loaderPy = withDocuments(loaderFile, documentsFile)

//go:embed loader.py
var loaderFile string

// documentsFile reads the files that are not tables: prose, code, slides, pages, images,
// archives.
//
//go:embed documents.py
var documentsFile string

// loadingLoop starts the part of loader.py that loads FILES; documents.py goes before it.
const loadingLoop = "# A live kernel keeps what it parsed"

// withDocuments places documents' code in loader just before its loading loop.
func withDocuments(loader, documents string) string {
	at := strings.Index(loader, loadingLoop)
	return loader[:at] + strings.TrimLeft(documents, "\n") + "\n\n" + loader[at:]
}

// profileHeader starts every profiling cell, so a planner can find its own first cell.
const profileHeader = "# workbench: load every data file"

// profileReport is the kind of report (wb_report) the loading cell makes of the profile.
const profileReport = "profile"

// Profile is what the loading cell found in /mnt/data.
type Profile struct {
	Frames []Frame `json:"frames"`
	// Docs are the attached files read as documents rather than tables (documents.py).
	Docs   []Doc             `json:"docs"`
	Failed map[string]string `json:"failed"`
	// proper maps each question of the conversation to the question proper, its constraints
	// cut out and its derived columns named (readSession), so that it is read once, against
	// the columns as they were when it was asked.
	proper map[string]string
	refs   map[string]refinements
}

// Frame is one loaded table: a file, or one sheet of a workbook.
type Frame struct {
	Key     string   `json:"key"` // the key in the kernel's `frames` dict
	File    string   `json:"file"`
	Sheet   string   `json:"sheet"`
	Rows    int      `json:"rows"`
	Columns []Column `json:"columns"`
	Head    [][]any  `json:"head"`
}

// Column describes one column of a Frame.
type Column struct {
	Name    string   `json:"name"`
	Kind    string   `json:"kind"` // num, date, cat, text, bool or list (cells holding lists)
	Dtype   string   `json:"dtype"`
	Missing int      `json:"missing"`
	Unique  int      `json:"unique"`
	Min     string   `json:"min"`
	Max     string   `json:"max"`
	Values  []string `json:"values"` // the most frequent values of a cat column
}

// isCode reports a numeric column that codes a category: integers with few distinct values
// (a passenger class, a rating, a number of cylinders), which analysts group by as they do by a
// label ("average fare by Pclass").
func (c *Column) isCode() bool {
	if c.Kind != "num" || !strings.HasPrefix(c.Dtype, "int") || c.Unique < 2 || c.Unique > maxCodes {
		return false
	}
	// Codes are small numbers; three budgets of 450,000 to 1,200,000 are amounts.
	lo, err1 := strconv.Atoi(c.Min)
	hi, err2 := strconv.Atoi(c.Max)
	return err1 == nil && err2 == nil && lo >= -1 && hi <= 100
}

// clockTimes reports a date column read from times of day alone ("8:00 pm"): pandas dates them
// all on the day they were read, so the first and the last fall on one day at different hours.
func (c *Column) clockTimes() bool {
	return c.Kind == "date" && len(c.Min) > 10 && len(c.Max) > 10 && c.Min[:10] == c.Max[:10] && c.Min != c.Max
}

// maxCodes is the most distinct values an integer column may have to be read as a code.
const maxCodes = 12

// The column predicates every part of the rules asks: which columns identify rows, which one
// is the time axis, which are quantities.

// isID reports a column that identifies rows: named as an id (idName), or named by letters
// glued to "id" that are no English word ("userid", not "paid" or "valid") with one value per
// row.
func isID(c *Column, rows int) bool {
	low := strings.ToLower(c.Name)
	return idName(c.Name) || strings.HasSuffix(low, "id") && c.Unique == rows && language.WordNet().POS(low) == 0
}

// idName reports whether a column's name says it identifies rows, "id" being a word of it: "id",
// "contract_id", "order id", "PassengerId", "userID"; not "paid", "valid" or "PAID".
func idName(name string) bool {
	low := strings.ToLower(name)
	if low == "id" || strings.HasSuffix(low, "_id") || strings.HasSuffix(low, " id") || strings.HasSuffix(low, "-id") {
		return true
	}
	camel := strings.HasSuffix(name, "Id") || strings.HasSuffix(name, "ID")
	return camel && len(name) > 2 && (unicode.IsLower(rune(name[len(name)-3])) || unicode.IsDigit(rune(name[len(name)-3])))
}

// numericColumns lists the frame's numeric columns that are not identifiers.
func numericColumns(f *Frame) []string {
	var out []string
	for i := range f.Columns {
		if c := &f.Columns[i]; c.Kind == "num" && !isID(c, f.Rows) {
			out = append(out, c.Name)
		}
	}
	return out
}

// dateColumn picks the frame's time axis: a date column, preferring one named like a date.
func dateColumn(f *Frame) string {
	found := ""
	for _, c := range f.Columns {
		if c.Kind != "date" {
			continue
		}
		if strings.Contains(strings.ToLower(c.Name), "date") {
			return c.Name
		}
		if found == "" {
			found = c.Name
		}
	}
	if found == "" {
		return yearAxis(f) // a wide table's Year column
	}
	return found
}

// dataExt lists the extensions the loader reads.
var dataExt = map[string]bool{".csv": true, ".tsv": true, ".txt": true, ".xlsx": true, ".xlsm": true,
	".xls": true, ".json": true, ".jsonl": true, ".ndjson": true, ".dat": true}

// mountedName matches the mount name of an upload, "<file_id>-<filename>", as the hosted
// service (and the emulator, after it) puts it in /mnt/data; loader.py's _MOUNTED is the same.
var mountedName = regexp.MustCompile(`^(?:file|assistant)-[A-Za-z0-9]{16,}-(.+)$`)

// shownName is the name people know a file by: its filename, without the mount's id prefix.
func shownName(name string) string {
	if m := mountedName.FindStringSubmatch(name); m != nil {
		return m[1]
	}
	return name
}

// writtenLink finds files that earlier replies cited as written by the assistant.
var writtenLink = regexp.MustCompile(`\(sandbox:/mnt/data/([^)]+)\)`)

// inputFiles picks the files to load: tables and documents (isInput), minus the files this assistant
// wrote in earlier turns (its exports must not be mistaken for the analyst's data).
func inputFiles(files []string, history []Message) []string {
	written := map[string]bool{}
	for _, m := range history {
		if m.Role != "assistant" {
			continue
		}
		for _, sub := range writtenLink.FindAllStringSubmatch(m.Text, -1) {
			written[sub[1]] = true
		}
	}
	var out []string
	for _, f := range files {
		// A .vl.json is a chart's interactive twin (sandbox/worker.py's wb_vega_lite), not data.
		if isInput(f) && !written[f] && !hidden(f) && !strings.HasSuffix(f, ".vl.json") {
			out = append(out, f)
		}
	}
	return out
}

// hidden reports a file whose name, or one of whose folders, starts with a
// dot: the kernel's own files (the full CSV of a table result is under .wb/).
func hidden(name string) bool {
	for _, part := range strings.Split(name, "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// profileCode is the first cell of a turn: load the files, print the profile. note, if any,
// becomes a comment line, so a later call can read it back from the code.
func profileCode(files []string, note string) string {
	var b strings.Builder
	b.WriteString(loaderPy[:strings.Index(loaderPy, "\n")+1])
	if note != "" {
		fmt.Fprintf(&b, "# note: %s\n", strings.ReplaceAll(note, "\n", " "))
	}
	b.WriteString("FILES = [")
	for i, f := range files {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(pyStr(f))
	}
	b.WriteString("]\n")
	b.WriteString(loaderPy[strings.Index(loaderPy, "\n")+1:])
	return b.String()
}

// parseProfile reads the profile the loading cell reported.
func parseProfile(load Cell) (*Profile, error) {
	for _, r := range load.Reports {
		if r.Kind != profileReport {
			continue
		}
		var p Profile
		if err := json.Unmarshal(r.Body, &p); err != nil {
			return nil, fmt.Errorf("analyst: parse profile: %w", err)
		}
		return &p, nil
	}
	return nil, fmt.Errorf("analyst: the loading cell reported no profile")
}

// Loaded is what the loading cell c reported it loaded, as the engine tells the app beside the
// cell's output (cellext.Load): each table with its shape, each document with its kind, each
// file it could not load with why. Nil when c reported no profile.
func Loaded(c Cell) []cellext.Load {
	p, err := parseProfile(c)
	if err != nil {
		return nil
	}
	var out []cellext.Load
	for _, f := range p.Frames {
		out = append(out, cellext.Load{Name: f.Key, Rows: f.Rows, Columns: len(f.Columns)})
	}
	for _, d := range p.Docs {
		out = append(out, cellext.Load{Name: d.Key, Document: d.Kind})
	}
	for _, name := range slices.Sorted(maps.Keys(p.Failed)) {
		out = append(out, cellext.Load{Name: name, Error: p.Failed[name]})
	}
	return out
}

// pyStr quotes s as a Python string literal.
func pyStr(s string) string {
	return strconv.Quote(s)
}
