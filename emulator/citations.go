package emulator

import (
	"bytes"
	"context"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// sandboxLink matches a markdown link to a file of the container: [label](sandbox:/mnt/data/x).
var sandboxLink = regexp.MustCompile(`\[[^\]\n]*\]\(sandbox:(/mnt/data/[^)\s]+)\)`)

// citeFiles makes sure every file the turn wrote is linked from text, appending links for those
// the planner did not mention, and returns the container_file_citation annotation of every
// link to a known file. Indices count characters (code points), not bytes (UNCONFIRMED which
// unit the hosted service uses; OpenAI's Python examples slice str with them).
func citeFiles(text string, c *container, written []*containerFile) (string, []any) {
	if c == nil {
		return text, []any{}
	}
	var missing []string
	for _, f := range written {
		if !strings.Contains(text, "(sandbox:"+f.Path+")") && !isChartTwin(f, written) && !kernelOwn(f) {
			missing = append(missing, "- ["+f.name()+"](sandbox:"+f.Path+")")
		}
	}
	if len(missing) > 0 {
		if text != "" {
			text += "\n\n"
		}
		text += "Files written:\n" + strings.Join(missing, "\n")
	}
	annotations := []any{}
	for _, m := range sandboxLink.FindAllStringSubmatchIndex(text, -1) {
		path := text[m[2]:m[3]]
		f := c.fileByName(strings.TrimPrefix(path, "/mnt/data/"))
		if f == nil {
			continue
		}
		start := utf8.RuneCountInString(text[:m[0]])
		end := start + utf8.RuneCountInString(text[m[0]:m[1]])
		annotations = append(annotations, map[string]any{
			"type": "container_file_citation", "container_id": c.id, "file_id": f.ID,
			"filename": f.name(), "start_index": start, "end_index": end,
		})
	}
	return text, annotations
}

// kernelOwn reports a file the kernel keeps for itself in a hidden folder (a table result's
// full CSV under .wb/, a shown figure): the app copies it out and shows it where it belongs (the
// table's download link), so the reply does not list it as a file the code wrote.
func kernelOwn(f *containerFile) bool {
	for _, part := range strings.Split(f.name(), "/") {
		if strings.HasPrefix(part, ".") {
			return true
		}
	}
	return false
}

// figureDir is where the emulator keeps, as a container file of its own, the image of each
// figure a cell showed. The hosted service makes one per shown figure, "cfile_….png" named
// after its id, and cites it at start_index 0, end_index 0 before the citations of the files
// the code saved (recorded twice: azure-sdk-assets python/…/sample_agent_code_interpreter_with_files].json
// @ c6752cf and …test_code_interpreter_with_file_in_conversation.json @ 1fcc291; see
// shared/reference/foundry-recorded.md 6c). Where it keeps them is UNCONFIRMED; a hidden folder
// keeps them out of the analyst's way, as .wb/result-N.csv.
const figureDir = ".wb/figures/"

// putFigure keeps a shown figure's PNG as a container file named after its id.
func (c *container) putFigure(ctx context.Context, png []byte, now time.Time) (*containerFile, error) {
	id := newID("cfile_")
	cf, err := c.put(ctx, figureDir+id+".png", bytes.NewReader(png), "assistant", now)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	cf.ID = id // the file is new and not yet shown to anyone: it takes the id of its name
	c.mu.Unlock()
	return cf, nil
}

// figureCitations are the 0..0 citations of the figures the turn's cells showed.
func figureCitations(c *container, figures []*containerFile) []any {
	out := make([]any, 0, len(figures))
	for _, f := range figures {
		out = append(out, map[string]any{"type": "container_file_citation", "container_id": c.id, "file_id": f.ID,
			"filename": path.Base(f.Path), "start_index": 0, "end_index": 0})
	}
	return out
}

// textChunks splits text into deltas of a few words each, as a model streams tokens.
func textChunks(text string) []string {
	const wordsPerDelta = 3
	var chunks []string
	words, start := 0, 0
	for i, r := range text {
		if r == ' ' || r == '\n' {
			words++
			if words == wordsPerDelta {
				chunks = append(chunks, text[start:i+1])
				start, words = i+1, 0
			}
		}
	}
	if start < len(text) {
		chunks = append(chunks, text[start:])
	}
	return chunks
}

// codeChunks splits code into at most four deltas, at line ends when there are lines enough.
func codeChunks(code string) []string {
	const parts = 4
	lines := strings.SplitAfter(code, "\n")
	if len(lines) < parts {
		return splitRunes(code, min(parts, max(1, utf8.RuneCountInString(code)/8)))
	}
	per := (len(lines) + parts - 1) / parts
	var chunks []string
	for i := 0; i < len(lines); i += per {
		chunks = append(chunks, strings.Join(lines[i:min(i+per, len(lines))], ""))
	}
	return chunks
}

// splitRunes cuts s into n pieces of about equal length without splitting a character.
func splitRunes(s string, n int) []string {
	runes := []rune(s)
	if n <= 1 || len(runes) < n {
		return []string{s}
	}
	var chunks []string
	size := (len(runes) + n - 1) / n
	for i := 0; i < len(runes); i += size {
		chunks = append(chunks, string(runes[i:min(i+size, len(runes))]))
	}
	return chunks
}

// isChartTwin reports a chart's Vega-Lite spec written beside its PNG
// (name.vl.json beside name.png, see sandbox/worker.py): it is the same
// chart, drawn interactive by the app, not a file to list.
func isChartTwin(f *containerFile, written []*containerFile) bool {
	base, ok := strings.CutSuffix(f.Path, ".vl.json")
	if !ok {
		return false
	}
	for _, g := range written {
		if g.Path == base+".png" {
			return true
		}
	}
	return false
}
