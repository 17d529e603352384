package analyst

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// docPlan answers a question about documents: from the profile when it holds the answer (counts,
// lists, an image's size), else with a cell that searches, shows lines or draws the image.
func docPlan(a docAsk, p *Profile) plan {
	if len(a.docs) == 0 {
		return plan{Reply: noDocHasReply(&a, p)}
	}
	switch a.kind {
	case docCount, docList:
		return plan{Reply: unitReply(&a)}
	case docSize, docColours:
		return plan{Reply: imageReply(&a)}
	case docFind:
		return plan{Cells: []string{fmt.Sprintf("_doc_find(%s, %s, yesno=%s)", pyList(docKeys(a.docs)), pyList(a.terms), pyBool(a.yesNo))}}
	case docShow:
		var cells []string
		for _, d := range a.docs[:min(len(a.docs), 3)] {
			start := 1
			if a.last {
				start = -a.n
			}
			cells = append(cells, fmt.Sprintf("_doc_lines(%s, %d, %d)", pyStr(d.Key), start, a.n))
		}
		return plan{Cells: []string{strings.Join(cells, "\n")}}
	case docPicture:
		var shown []string
		for _, d := range a.docs {
			shown = append(shown, fmt.Sprintf("**%s** as attached (%s × %s pixels).", d.Key, fmtInt(d.Width), fmtInt(d.Height)))
		}
		return picturePlan(a.docs, strings.Join(shown, " "))
	case docTitle:
		return plan{Reply: titleReply(&a)}
	case docUnclear:
		return plan{Reply: unclearDocReply(&a, p)}
	}
	var b strings.Builder
	for _, d := range a.docs {
		writePara(&b, overviewOfDoc(d))
	}
	return picturePlan(a.docs, strings.TrimSpace(b.String()))
}

// picturePlan shows each attached image among docs (an archive's images are not kept), after lead.
func picturePlan(docs []*Doc, lead string) plan {
	var cells []string
	for _, d := range docs {
		if d.isImage() && !strings.Contains(d.Key, "/") {
			cells = append(cells, fmt.Sprintf("_doc_picture(%s, %s)", pyStr(d.Key), pyStr(previewName(d.Key))))
		}
	}
	if len(cells) == 0 {
		return plan{Reply: lead}
	}
	return plan{Lead: lead, Cells: []string{strings.Join(cells, "\n")}}
}

// unsafeName matches what a file name written by the analyst should not hold.
var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// previewName is the file an image is shown through: a PNG named after it.
func previewName(key string) string {
	stem := strings.TrimSuffix(key, path.Ext(key))
	return "preview_" + strings.Trim(unsafeName.ReplaceAllString(stem, "_"), "_") + ".png"
}

func docKeys(docs []*Doc) []string {
	out := make([]string, len(docs))
	for i, d := range docs {
		out[i] = d.Key
	}
	return out
}

// unitValue returns how many of unit a document has, and whether the measure applies to it.
func unitValue(d *Doc, unit string) (int, bool) {
	textual := d.Kind != "image" && d.Kind != "archive"
	switch unit {
	case "line":
		return d.Lines, textual && d.Kind != "Word" && d.Kind != "PowerPoint"
	case "word":
		return d.Words, textual
	case "char":
		return d.Chars, textual
	case "page":
		return d.Pages, d.Kind == "PDF"
	case "slide":
		return d.Slides, d.Kind == "PowerPoint"
	case "heading":
		return len(d.Headings), d.Kind == "Markdown" || d.Kind == "TeX" || d.Kind == "HTML" || d.Kind == "Word" || d.Kind == "PowerPoint"
	case "function":
		return len(d.Functions), d.Kind == "code" && d.Language != "CSS"
	case "class":
		return len(d.Classes), d.Kind == "code" && d.Language != "CSS"
	case "import":
		return len(d.Imports), d.Kind == "code" && d.Language != "CSS"
	case "member":
		return len(d.Members), d.Kind == "archive"
	case "paragraph":
		return d.Paragraphs, d.Kind == "Word"
	case "table":
		return len(d.Tables), d.Kind == "HTML" || d.Kind == "Word" || d.Kind == "XML" || d.Kind == "archive"
	case "rule":
		return d.Rules, d.Language == "CSS"
	case "element":
		return d.Elements, d.Kind == "XML"
	case "tag":
		return len(d.Tags), d.Kind == "XML"
	}
	return 0, false
}

// unitItems returns the names a list of unit shows.
func unitItems(d *Doc, unit string) []string {
	switch unit {
	case "heading", "slide":
		return d.Headings
	case "function":
		return d.Functions
	case "class":
		return d.Classes
	case "import":
		return d.Imports
	case "table":
		return d.Tables
	case "tag":
		return d.Tags
	case "member":
		names := make([]string, len(d.Members))
		for i, m := range d.Members {
			names[i] = m.Name
		}
		return names
	}
	return nil
}

// unitNames are a unit's words for people, one and many.
var unitNames = map[string][2]string{
	"line": {"line", "lines"}, "word": {"word", "words"}, "char": {"character", "characters"},
	"page": {"page", "pages"}, "slide": {"slide", "slides"}, "heading": {"heading", "headings"},
	"function": {"function", "functions"}, "class": {"class", "classes"}, "import": {"import", "imports"},
	"member": {"file", "files"}, "paragraph": {"paragraph", "paragraphs"}, "table": {"table", "tables"},
	"rule": {"rule", "rules"}, "element": {"element", "elements"}, "tag": {"distinct tag", "distinct tags"},
}

func unitName(unit string, n int) string {
	return plural(n, unitNames[unit][0], unitNames[unit][1])
}

// unitReply counts or lists the unit in each document asked about.
func unitReply(a *docAsk) string {
	var b strings.Builder
	for _, d := range a.docs {
		n, _ := unitValue(d, a.unit)
		fmt.Fprintf(&b, "**%s** has **%s %s**", d.Key, fmtInt(n), unitName(a.unit, n))
		items := unitItems(d, a.unit)
		if d.Kind == "PowerPoint" && a.unit == "heading" {
			b.WriteString(" (its slides' titles)")
		}
		if len(items) == 0 || a.kind == docCount && len(items) > 12 {
			b.WriteString(".\n\n")
			continue
		}
		b.WriteString(":")
		writeItems(&b, items, 40)
		b.WriteString("\n\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// writeItems writes names as a list, the first max of them.
func writeItems(b *strings.Builder, items []string, max int) {
	for _, it := range items[:min(len(items), max)] {
		b.WriteString("\n- " + inlineCode(it))
	}
	if len(items) > max {
		fmt.Fprintf(b, "\n- … and %d more", len(items)-max)
	}
}

// inlineCode quotes a name as code, whatever backticks it holds.
func inlineCode(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// imageReply says an image's size or main colours.
func imageReply(a *docAsk) string {
	var b strings.Builder
	for _, d := range a.docs {
		if a.kind == docSize {
			fmt.Fprintf(&b, "**%s** is **%s × %s pixels** (%s, mode %s).\n\n", d.Key, fmtInt(d.Width), fmtInt(d.Height), d.Format, d.Mode)
		} else {
			fmt.Fprintf(&b, "The main colours of **%s**: %s.\n\n", d.Key, colourList(d.Colours))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func colourList(cs []Colour) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = fmt.Sprintf("`%s` (%d%%)", c.Hex, c.Share)
	}
	return strings.Join(parts, ", ")
}

// titleReply gives each document's title: its own (metadata, \title, <title>), else its
// first heading, said as such, else its first line, said as such.
func titleReply(a *docAsk) string {
	var b strings.Builder
	for _, d := range a.docs {
		switch {
		case d.Title != "":
			fmt.Fprintf(&b, "The title of **%s** is “%s”.\n\n", d.Key, d.Title)
		case len(d.Headings) > 0 && d.Kind == "PowerPoint":
			fmt.Fprintf(&b, "**%s** names no title of its own; its first slide is titled “%s”.\n\n", d.Key, d.Headings[0])
		case len(d.Headings) > 0:
			fmt.Fprintf(&b, "**%s** names no title of its own; its first heading is “%s”.\n\n", d.Key, d.Headings[0])
		case len(d.Excerpt) > 0:
			fmt.Fprintf(&b, "**%s** names no title and has no headings; its first line is “%s”.\n\n", d.Key, clip(d.Excerpt[0], 200))
		default:
			fmt.Fprintf(&b, "**%s** has no title and no text.\n\n", d.Key)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// noDocHasReply says that no attached document has what was asked, and what they are.
func noDocHasReply(a *docAsk, p *Profile) string {
	what := map[docAskKind]string{docTitle: "a title", docPicture: "an image to show", docSize: "an image to measure",
		docColours: "an image to read colours from", docFind: "text to search", docShow: "lines to show"}[a.kind]
	if what == "" {
		what = unitNames[a.unit][1]
	}
	return "None of the attached files has " + what + ". Attached: " + docNames(allDocs(p)) + "."
}

// docNames names each document with its type.
func docNames(docs []*Doc) string {
	parts := make([]string, len(docs))
	for i, d := range docs {
		parts[i] = d.Key + " (" + d.label() + ")"
	}
	return strings.Join(parts, ", ")
}

// allDocs returns the profile's documents as pointers.
func allDocs(p *Profile) []*Doc {
	out := make([]*Doc, len(p.Docs))
	for i := range p.Docs {
		out[i] = &p.Docs[i]
	}
	return out
}

// alsoDocuments is the note an overview or a request for help over the tables adds when
// documents are attached too, so that they are not forgotten.
func alsoDocuments(pl *plan, p *Profile) string {
	if len(p.Docs) == 0 || pl.Reply != "" || pl.Query.Intent != intentOverview {
		return ""
	}
	return documentsNote(p)
}

// documentsNote names the documents attached and what to ask of them.
func documentsNote(p *Profile) string {
	return "Also attached, read as documents: " + docNames(allDocs(p)) + ". Ask what one says about a word, " +
		"or for its headings, pages or functions, naming it: “summarize " + p.Docs[0].Key + "”."
}

// unclearDocReply asks back about a question on documents that asks none of the things the
// engine reads from them, offering those it can answer as questions to click.
func unclearDocReply(a *docAsk, p *Profile) string {
	var offers []string
	for _, d := range a.docs {
		offers = append(offers, docOffers(d)...)
	}
	return "I could not tell what this asks of " + docNames(a.docs) + ". For a document the local engine " +
		"counts and lists what it holds (lines, words, pages, headings, functions, imports, an archive's files), " +
		"finds what it says about a word, shows its first lines, and shows an image with its size and colours. " +
		"For example:" + suggestionList(offers[:min(len(offers), maxSuggestions)])
}

// docOffers are questions the engine answers about a document.
func docOffers(d *Doc) []string {
	switch {
	case d.isImage():
		return []string{"show " + d.Key, "what are the main colours of " + d.Key + "?"}
	case d.Kind == "archive":
		return []string{"what is in " + d.Key + "?"}
	case d.Kind == "code":
		return []string{"which functions does " + d.Key + " define?", "what does " + d.Key + " import?"}
	}
	offers := []string{"summarize " + d.Key, "show the first 10 lines of " + d.Key}
	if w := firstContentWord(d); w != "" {
		offers = append(offers, "what does "+d.Key+" say about "+w+"?")
	}
	return offers
}

// firstContentWord is a word of the document's first heading or line worth searching for.
func firstContentWord(d *Doc) string {
	src := d.Excerpt
	if len(d.Headings) > 0 {
		src = d.Headings
	}
	for _, line := range src {
		for _, w := range strings.Fields(line) {
			w = strings.Trim(w, ".,;:!?()[]{}\"'#*`")
			if len(w) >= 5 {
				return strings.ToLower(w)
			}
		}
	}
	return ""
}
