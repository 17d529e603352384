package chat

import (
	"context"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/store"
)

// FileRequest is what a question asks for as a file, read by AskedForFile.
type FileRequest struct {
	// Asked is set when the question asks for a file at all.
	Asked bool
	// Exts are the extensions of the formats the question names, without
	// the dot ("csv", "xlsx", "xls"), in the order named; empty when it names none ("download
	// the cleaned data"), and then any file answers it.
	Exts []string
}

// AskedForFile decides whether a question asks for a file ("save … as
// CSV", "export to Excel", "give me a PNG", "download …"), so that an
// answer with none can say so. It reads the words outside code: an
// imperative verb of output, a format after "as", "to" or "into" (unless
// that reads input: "load it as CSV"), a verb of making followed closely
// by a format or "file", or a download link. A mere mention of a file or
// a format ("how many rows are saved in the file") asks for nothing.
func AskedForFile(question string) FileRequest {
	words := questionWords(question)
	req := FileRequest{}
	for i, w := range words {
		if exts, ok := formats[w]; ok {
			req.Exts = append(req.Exts, exts...)
			req.Asked = req.Asked || formatAsTarget(words, i)
		}
		req.Asked = req.Asked || w == "file" && newFileAsTarget(words, i)
		req.Asked = req.Asked || outputCommand(words, i) || makesFile(words, i) || w == "downloadable" ||
			w == "download" && i+1 < len(words) && words[i+1] == "link"
	}
	if !req.Asked {
		return FileRequest{}
	}
	req.Exts = firstOfEach(req.Exts)
	return req
}

// MetBy reports whether the files an answer names give what was asked:
// one of the formats named, or any file when none was.
func (f FileRequest) MetBy(names []string) bool {
	for _, name := range names {
		ext := strings.TrimPrefix(strings.ToLower(path.Ext(name)), ".")
		if len(f.Exts) == 0 || slices.Contains(f.Exts, ext) {
			return true
		}
	}
	return false
}

// Rephrased is the question put so that the agent cannot miss that it
// must write a file, and cite it (the troubleshooting advice for "no file
// is generated": request the file explicitly).
func (f FileRequest) Rephrased(question string) string {
	name := "result.csv"
	if len(f.Exts) > 0 {
		name = "result." + f.Exts[0]
		if isImageExt(name) {
			name = "chart." + f.Exts[0]
		}
	}
	ask := "Write it to a file in /mnt/data named " + name + " and link that file in your answer."
	q := strings.TrimSpace(question)
	if strings.Contains(q, "\n") { // code or a list: the request goes in a paragraph of its own
		return q + "\n\n" + ask
	}
	return strings.TrimRight(q, " .?!") + ". " + ask
}

// checkFileMade tells the user when the question asked for a file and the
// turn, which completed, made none: neither kept nor failed to copy.
func (r *runner) checkFileMade(ctx context.Context) {
	req := AskedForFile(r.question)
	if !req.Asked || r.end.Status != store.RunCompleted {
		return
	}
	var names []string
	for _, a := range r.answer.Artifacts {
		names = append(names, a.Name)
	}
	for _, m := range r.answer.Missing {
		names = append(names, m.Name)
	}
	if !req.MetBy(names) {
		r.emit(ctx, Event{Type: EventNoFile, Text: req.Rephrased(r.question)})
	}
}

// formats maps the words that name a file format to its extensions.
var formats = map[string][]string{
	"csv": {"csv"}, "tsv": {"tsv"},
	"excel": {"xlsx", "xls"}, "xlsx": {"xlsx"}, "xls": {"xls"}, "spreadsheet": {"xlsx", "xls", "csv"}, "workbook": {"xlsx", "xls"},
	"png": {"png"}, "jpg": {"jpg", "jpeg"}, "jpeg": {"jpg", "jpeg"}, "svg": {"svg"}, "gif": {"gif"},
	"image": {"png", "jpg", "jpeg", "svg", "gif", "webp"},
	"pdf":   {"pdf"}, "json": {"json"}, "parquet": {"parquet"}, "zip": {"zip"}, "html": {"html"}, "txt": {"txt"},
	"docx": {"docx"}, "pptx": {"pptx"}, "powerpoint": {"pptx"},
}

// outputVerbs write a file when said as a command ("write" is left out:
// "write a summary" asks for prose; "write it to a file" is read by
// formatAsTarget).
var outputVerbs = []string{"save", "export", "download"}

// commandStarts are the words after which a verb is a command: the start
// of a clause, "please …", "can you …", "I want to …".
var commandStarts = []string{"", ",", ";", ".", "!", "?", "please", "and", "then", "also", "now", "just", "you", "to", "pls", "kindly"}

// makingVerbs make something that is a file when a format or "file"
// follows closely ("give me a PNG", "create an Excel file").
var makingVerbs = []string{"give", "make", "create", "produce", "generate", "send", "return", "provide", "build"}

// inputVerbs read: "load it as CSV" asks for no file.
var inputVerbs = []string{"read", "load", "loaded", "open", "parse", "import", "treat", "interpret"}

// outputCommand reports an output verb said as a command ("save it",
// "and export …"); "are saved" is no command.
func outputCommand(words []string, i int) bool {
	return slices.Contains(outputVerbs, words[i]) && slices.Contains(commandStarts, at(words, i-1))
}

// formatAsTarget reports a format named as what to produce: after "as",
// "to" or "into" within three words ("as an Excel file"), or before
// "format" ("in CSV format"), unless a verb of input governs it.
func formatAsTarget(words []string, i int) bool {
	if at(words, i+1) == "format" {
		return true
	}
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if w := words[j]; w == "as" || w == "to" || w == "into" {
			return !slices.ContainsFunc(words[max(0, j-3):j], func(v string) bool { return slices.Contains(inputVerbs, v) })
		}
	}
	return false
}

// newFileAsTarget reports "file" said as what to produce, a file that is
// not there yet: "to a file", "as a new file", "into an Excel file";
// "compare it to the file" names one that exists.
func newFileAsTarget(words []string, i int) bool {
	for j := i - 1; j >= max(0, i-4); j-- {
		switch words[j] {
		case "as", "to", "into":
			between := words[j+1 : i]
			return slices.Contains(between, "a") || slices.Contains(between, "an")
		}
	}
	return false
}

// makesFile reports a verb of making followed within three words by a
// format or "file".
func makesFile(words []string, i int) bool {
	if !slices.Contains(makingVerbs, words[i]) {
		return false
	}
	for _, w := range words[i+1 : min(len(words), i+4)] {
		if _, ok := formats[w]; ok || w == "file" {
			return true
		}
	}
	return false
}

// firstOfEach keeps the first of each extension, in order: the first is
// the one Rephrased names.
func firstOfEach(exts []string) []string {
	var out []string
	for _, e := range exts {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func at(words []string, i int) string {
	if i < 0 || i >= len(words) {
		return ""
	}
	return words[i]
}

var (
	fencedCode = regexp.MustCompile("(?s)```.*?(```|$)")
	inlineCode = regexp.MustCompile("`[^`]*`")
	// fileName is a name with an extension, as of an uploaded file: it
	// says which file, not which format to write.
	fileName = regexp.MustCompile(`[\p{L}\p{N}_-]+\.[A-Za-z0-9]{1,5}\b`)
	word     = regexp.MustCompile(`[\p{L}\p{N}]+|[,;.!?]`)
)

// questionWords are the question's words in lower case, with its code and
// file names left out and its punctuation that ends a clause kept as words.
func questionWords(q string) []string {
	q = fencedCode.ReplaceAllString(q, " ")
	q = inlineCode.ReplaceAllString(q, " ")
	q = fileName.ReplaceAllString(q, " ")
	return word.FindAllString(strings.ToLower(q), -1)
}
