package analyst

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Rules is the built-in planner: no model, no network, the same code for the same question on
// the same data. The zero value is ready to use.
type Rules struct{}

// Next returns the next cell of the turn, or the reply once the cells have run. A turn runs a
// loading cell, then the cells planned from its profile, then replies from their markers; a
// question with fenced python blocks runs those blocks instead, and one that only asks to see a
// variable that earlier code of the conversation defined shows it (askedVariable).
func (r *Rules) Next(_ context.Context, t *Turn) (Step, error) {
	if blocks := FencedBlocks(t.Question); len(blocks) > 0 {
		return FencedStep(blocks, t.Cells), nil
	}
	if name, ok := askedVariable(t.Question, t.History); ok {
		return variableStep(name, t.Cells), nil
	}
	start := profileCell(t.Cells)
	if start < 0 {
		return r.loadStep(t, "")
	}
	return r.analysisStep(t, start)
}

// loadStep starts a turn with the loading cell, or replies at once when there is nothing to load.
func (r *Rules) loadStep(t *Turn, note string) (Step, error) {
	files := inputFiles(t.Files, t.History)
	if len(files) == 0 {
		return Step{Text: withNote(note, noFilesReply(t.Files))}, nil
	}
	return Step{Code: profileCode(files, note), Loads: true, Own: true}, nil
}

func (r *Rules) analysisStep(t *Turn, start int) (Step, error) {
	load := t.Cells[start]
	note := noteOf(load.Code)
	if load.Error != nil {
		return Step{Text: withNote(note, fmt.Sprintf("Loading the files failed with %s: %s.", load.Error.Name, load.Error.Value))}, nil
	}
	p, err := parseProfile(load)
	if err != nil {
		// Say so rather than fail the turn: the output may have been cut at the kernel's cap.
		return Step{Text: withNote(note, "The files were loaded, but their profile could not be read ("+err.Error()+"). Try fewer or smaller files, or send a fenced ```python block.")}, nil
	}
	pl := makePlan(t.Question, t.History, p)
	ran := t.Cells[start+1:]
	if len(p.Frames) > 0 {
		note = joinNotes(note, unreadNote(p)) // a file that could not be read is said first
	}
	if pl.Reply != "" {
		return Step{Text: withNote(note, pl.Reply)}, nil
	}
	if len(ran) < len(pl.Cells) && (len(ran) == 0 || ran[len(ran)-1].Error == nil) {
		return Step{Code: pl.Cells[len(ran)], Own: true}, nil
	}
	return Step{Text: withNote(note, writeAnswer(&pl, ran))}, nil
}

// profileCell returns the index of the turn's last loading cell, or -1.
func profileCell(cells []Cell) int {
	for i := len(cells) - 1; i >= 0; i-- {
		if strings.HasPrefix(cells[i].Code, profileHeader) {
			return i
		}
	}
	return -1
}

// noteOf reads back the note a loading cell carries as a comment.
func noteOf(code string) string {
	for _, line := range strings.SplitN(code, "\n", 4) {
		if n, ok := strings.CutPrefix(line, "# note: "); ok {
			return n
		}
	}
	return ""
}

// joinNotes joins two notes of a reply, either of which may be empty.
func joinNotes(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + " " + b
}

// unreadNote says which files could not be read and why, in words, so that an answer from
// the other files is never taken for an answer from all of them.
func unreadNote(p *Profile) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(p.Failed)) {
		parts = append(parts, name+" could not be read, so this answer leaves it out: "+readError(p.Failed[name])+".")
	}
	return strings.Join(parts, " ")
}

// parserFields reads pandas' tokenizer error: "Expected 1 fields in line 3, saw 2".
var parserFields = regexp.MustCompile(`Expected (\d+) fields in line (\d+), saw (\d+)`)

// readError puts a loader's error in words an analyst can act on.
func readError(err string) string {
	if m := parserFields.FindStringSubmatch(err); m != nil {
		return fmt.Sprintf("line %s has %s fields where the lines before it have %s; check the separator, or lines above the header", m[2], m[3], m[1])
	}
	return err
}

func withNote(note, text string) string {
	if note == "" {
		return text
	}
	return "_Note: " + note + "_\n\n" + text
}

// FencedStep runs the fenced blocks in order, stopping at the first that
// fails, then says how each went. The page shows each cell's output under
// its code, so the reply does not print it again: a one-line result is
// quoted, anything longer is pointed at. Both of the emulator's planners
// (the built-in analyst and the fenced-only one) reply through it.
func FencedStep(blocks []string, cells []Cell) Step {
	if len(cells) < len(blocks) && (len(cells) == 0 || cells[len(cells)-1].Error == nil) {
		return Step{Code: blocks[len(cells)]}
	}
	var b strings.Builder
	for i, c := range cells {
		if len(cells) > 1 {
			fmt.Fprintf(&b, "Cell %d ", i+1)
		} else {
			b.WriteString("The code ")
		}
		out := strings.TrimRight(c.Stdout+c.Value, "\n")
		switch {
		case c.Error != nil:
			fmt.Fprintf(&b, "failed with %s: %s.\n\n", c.Error.Name, c.Error.Value)
		case out == "":
			b.WriteString("ran without printing anything.\n\n")
		case !strings.Contains(out, "\n") && len(out) <= maxQuotedOutput && !strings.Contains(out, "`"):
			fmt.Fprintf(&b, "printed `%s`.\n\n", out)
		default:
			b.WriteString("ran; what it printed is shown under its code above.\n\n")
		}
	}
	if len(cells) < len(blocks) {
		fmt.Fprintf(&b, "The remaining %d block(s) did not run because of the error.", len(blocks)-len(cells))
	}
	return Step{Text: strings.TrimRight(b.String(), "\n")}
}

// maxQuotedOutput is the longest one-line output a reply quotes.
const maxQuotedOutput = 120

// noFilesReply answers a turn without a data file: what the analyst can do once one is
// attached, since "what can you do?" is the usual first question, and what is there instead.
func noFilesReply(files []string) string {
	var b strings.Builder
	b.WriteString("There is no data file to analyse yet: attach a CSV, Excel or JSON file and ask about it in plain words. ")
	b.WriteString("Then " + capabilities + " ")
	b.WriteString("A fenced ```python block runs exactly as written, with or without a file.")
	if len(files) > 0 {
		shown := make([]string, len(files))
		for i, f := range files {
			shown[i] = shownName(f)
		}
		fmt.Fprintf(&b, "\n\nThe files attached now are not tables I can read: %s.", strings.Join(shown, ", "))
	}
	return b.String()
}

func noDataReply(p *Profile) string {
	var b strings.Builder
	b.WriteString("None of the files could be loaded as a table.")
	for _, name := range slices.Sorted(maps.Keys(p.Failed)) {
		fmt.Fprintf(&b, "\n- %s: %s", name, readError(p.Failed[name]))
	}
	return b.String()
}

// capabilities is said when a question is out of reach or asks for help.
const capabilities = "I can give an overview, list columns and types, show the first rows, count rows, " +
	"find missing values, describe a column, count values, compute mean/median/sum/min/max/std overall or by group, " +
	"find when a column peaked, rank the top or bottom N, filter and sort rows, pivot, resample by week, month or year, " +
	"measure growth and trends, correlations, outliers, draw line, bar, horizontal bar, histogram, box, scatter, pie, " +
	"area and heatmap charts, join two files on a shared column, run the usual statistical tests, fit a linear " +
	"or logistic regression or k-means clusters, and save results as CSV or Excel. Attached documents, " +
	"images and archives are read too: their lines, words, pages, headings, functions, what they say about a word."

func helpReply(p *Profile) string {
	reply := capabilities + "\n\nLoaded: " + frameList(p) + ".\n\nTry for example “average " +
		exampleColumn(p) + " by " + exampleCategory(p) + "” or “plot " + exampleColumn(p) + " over time”."
	if len(p.Docs) > 0 {
		reply += "\n\n" + documentsNote(p)
	}
	return reply
}

// beyondReply says plainly that a forecast, a model or a cause is out of reach, and offers
// what the data can show instead, as questions to click.
func beyondReply(q *Query, p *Profile) string {
	f := queryFrame(p, q)
	if q.stat.decline != "" {
		return statDeclineReply(q, f)
	}
	col := exampleColumn(p)
	if nums := numericOf(q, f); len(nums) > 0 {
		col = nums[0]
	}
	var alt []string
	if dateColumn(f) != "" {
		alt = append(alt, "plot "+col+" over time", "growth of "+col, "monthly average "+col)
	}
	if c := firstCategory(f); c != "" {
		alt = append(alt, "average "+col+" by "+c)
	}
	alt = append(alt, "describe "+col)
	return "That is beyond the built-in rules of the local engine: they compute from the data as it is, " +
		"and do not forecast or explain causes; of models they fit only those asked for by name (a linear or " +
		"logistic regression, k-means clusters). What the data can show instead:" +
		suggestionList(alt[:min(len(alt), maxSuggestions)]) + "\n\nLoaded: " + frameList(p) + "."
}

func frameList(p *Profile) string {
	var parts []string
	for _, f := range p.Frames {
		parts = append(parts, fmt.Sprintf("%s (%s rows; columns %s)", f.Key, fmtInt(f.Rows), quoteList(columnNames(&f))))
	}
	return strings.Join(parts, "; ")
}

func exampleColumn(p *Profile) string {
	if nums := numericColumns(&p.Frames[0]); len(nums) > 0 {
		return nums[0]
	}
	return p.Frames[0].Columns[0].Name
}

func exampleCategory(p *Profile) string {
	if c := firstCategory(&p.Frames[0]); c != "" {
		return c
	}
	return p.Frames[0].Columns[0].Name
}
