package analyst

import (
	"fmt"
	"strings"
)

// overviewOfDoc says what a document is and what it holds, each measure from its profile.
func overviewOfDoc(d *Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** is %s", d.Key, d.label())
	switch d.Kind {
	case "image":
		overviewImage(&b, d)
	case "archive":
		overviewArchive(&b, d)
	case "code":
		overviewCode(&b, d)
	default:
		overviewText(&b, d)
	}
	return strings.TrimSpace(b.String())
}

func overviewImage(b *strings.Builder, d *Doc) {
	fmt.Fprintf(b, " of **%s × %s pixels** (mode %s)", fmtInt(d.Width), fmtInt(d.Height), d.Mode)
	if d.Frames > 1 {
		fmt.Fprintf(b, ", an animation of %d frames", d.Frames)
	}
	b.WriteString(".")
	if len(d.Colours) > 0 {
		b.WriteString(" Its main colours: " + colourList(d.Colours) + ".")
	}
}

func overviewArchive(b *strings.Builder, d *Doc) {
	fmt.Fprintf(b, " of **%s %s**:", fmtInt(len(d.Members)), plural(len(d.Members), "file", "files"))
	for i, m := range d.Members {
		if i == 40 {
			fmt.Fprintf(b, "\n- … and %d more", len(d.Members)-40)
			break
		}
		fmt.Fprintf(b, "\n- %s (%s)", inlineCode(m.Name), byteSize(m.Bytes))
		switch {
		case m.Error != "":
			b.WriteString(": could not be read, " + m.Error)
		case m.Read == "table":
			b.WriteString(": read as a table")
		case m.Read == "document":
			b.WriteString(": read as a document")
		default:
			b.WriteString(": not read (an archive inside the archive, or past the first 200 files)")
		}
	}
	if len(d.Tables) > 0 {
		fmt.Fprintf(b, "\n\nAsk about a table by its name, for example “how many rows are in %s?”", d.Tables[0])
	}
}

func overviewCode(b *strings.Builder, d *Doc) {
	fmt.Fprintf(b, " of **%s %s**.", fmtInt(d.Lines), plural(d.Lines, "line", "lines"))
	if d.Language == "CSS" {
		fmt.Fprintf(b, " It has **%s style %s**.", fmtInt(d.Rules), plural(d.Rules, "rule", "rules"))
		return
	}
	var parts []string
	if n := len(d.Functions); n > 0 {
		parts = append(parts, fmt.Sprintf("**%d %s** (%s)", n, plural(n, "function", "functions"), shortList(d.Functions, 8)))
	}
	if n := len(d.Classes); n > 0 {
		parts = append(parts, fmt.Sprintf("**%d %s** (%s)", n, plural(n, "class", "classes"), shortList(d.Classes, 8)))
	}
	if len(parts) > 0 {
		b.WriteString(" It defines " + strings.Join(parts, " and ") + ".")
	} else {
		b.WriteString(" It defines no functions or classes that I could find.")
	}
	if len(d.Imports) > 0 {
		b.WriteString(" It imports " + shortList(d.Imports, 10) + ".")
	}
}

func overviewText(b *strings.Builder, d *Doc) {
	switch {
	case d.Kind == "PDF":
		fmt.Fprintf(b, " of **%s %s** and **%s words**.", fmtInt(d.Pages), plural(d.Pages, "page", "pages"), fmtInt(d.Words))
		if d.Scanned {
			b.WriteString(" Its pages carry no text layer (a scanned document?), and the local engine does not read text from pictures.")
		}
	case d.Kind == "PowerPoint":
		fmt.Fprintf(b, " of **%s %s** and **%s words**.", fmtInt(d.Slides), plural(d.Slides, "slide", "slides"), fmtInt(d.Words))
	case d.Kind == "Word":
		fmt.Fprintf(b, " of **%s %s** and **%s words**.", fmtInt(d.Paragraphs), plural(d.Paragraphs, "paragraph", "paragraphs"), fmtInt(d.Words))
	case d.Kind == "XML":
		fmt.Fprintf(b, " with root element `%s` and **%s elements**.", d.Root, fmtInt(d.Elements))
	default:
		fmt.Fprintf(b, " of **%s %s** and **%s words**.", fmtInt(d.Lines), plural(d.Lines, "line", "lines"), fmtInt(d.Words))
	}
	if d.Title != "" {
		fmt.Fprintf(b, " Its title is “%s”.", d.Title)
	}
	if n := len(d.Headings); n > 0 {
		what := plural(n, "heading", "headings")
		if d.Kind == "PowerPoint" {
			what = plural(n, "slide title", "slide titles")
		}
		fmt.Fprintf(b, " Its %s: %s.", what, quotedShortList(d.Headings, 8))
	}
	if len(d.Tables) > 0 {
		fmt.Fprintf(b, " Its tables are read as tables you can ask about: %s.", quoteList(d.Tables))
	}
	if len(d.Excerpt) > 0 {
		b.WriteString("\n\nIt begins:\n")
		for _, l := range d.Excerpt[:min(len(d.Excerpt), 4)] {
			b.WriteString("\n> " + clip(strings.TrimSpace(l), 200))
		}
	}
}

// shortList quotes the first max names as code, saying how many more there are.
func shortList(names []string, max int) string {
	q := make([]string, 0, min(len(names), max))
	for _, n := range names[:min(len(names), max)] {
		q = append(q, inlineCode(n))
	}
	s := strings.Join(q, ", ")
	if len(names) > max {
		s += fmt.Sprintf(" and %d more", len(names)-max)
	}
	return s
}

// quotedShortList quotes the first max phrases in quotation marks.
func quotedShortList(items []string, max int) string {
	q := make([]string, 0, min(len(items), max))
	for _, it := range items[:min(len(items), max)] {
		q = append(q, "“"+clip(it, 80)+"”")
	}
	s := strings.Join(q, ", ")
	if len(items) > max {
		s += fmt.Sprintf(" and %d more", len(items)-max)
	}
	return s
}

// byteSize writes a size in bytes for people.
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// docFindSentence says where a document mentions the words searched for.
func docFindSentence(m marker) string {
	terms := m.list("terms")
	words := make([]string, len(terms))
	for i, t := range terms {
		words[i] = "“" + fmt.Sprint(t) + "”"
	}
	said := strings.Join(words, " and ")
	total, _ := m.num("total")
	yes := m["yesno"] == true
	var b strings.Builder
	if total == 0 {
		if yes {
			b.WriteString("**No**: ")
		}
		fmt.Fprintf(&b, "nothing in %s mentions %s", boldOr(m.list("docs")), said)
		if len(terms) > 1 {
			b.WriteString(" on the same line")
			if each, ok := m["each"].(map[string]any); ok {
				var parts []string
				for _, t := range terms {
					n, _ := each[fmt.Sprint(t)].(float64)
					parts = append(parts, fmt.Sprintf("“%v” is on %s %s", t, fmtInt(int(n)), plural(int(n), "line", "lines")))
				}
				b.WriteString(" (" + strings.Join(parts, ", ") + ")")
			}
		}
		b.WriteString(".")
		return capital(b.String())
	}
	if yes {
		b.WriteString("**Yes**: ")
	}
	fmt.Fprintf(&b, "%s of **%s** %s %s", countOf(int(total), "line", "lines"), m.str("doc"), plural(int(total), "mentions", "mention"), said)
	hits := m.list("hits")
	b.WriteString(":")
	for _, h := range hits {
		pair, _ := h.([]any)
		if len(pair) == 2 {
			fmt.Fprintf(&b, "\n- *%v*: %s", pair[0], quoteLine(fmt.Sprint(pair[1])))
		}
	}
	if int(total) > len(hits) {
		fmt.Fprintf(&b, "\n- … and %d more", int(total)-len(hits))
	}
	if others, _ := m.num("others"); others > 0 {
		fmt.Fprintf(&b, "\n\nNo line of the %s does.", plural(int(others), "other attached document", fmt.Sprintf("other %d attached documents", int(others))))
	}
	return capital(b.String())
}

// docLinesSentence shows lines of a document in a text block.
func docLinesSentence(m marker) string {
	lines := m.list("lines")
	total, _ := m.num("total")
	var b strings.Builder
	end := "first"
	if m["last"] == true {
		end = "last"
	}
	fmt.Fprintf(&b, "The %s %s of the %s %s with text in **%s**:\n\n```text", end, fmtInt(len(lines)), fmtInt(int(total)), plural(int(total), "line", "lines"), m.str("doc"))
	for _, l := range lines {
		pair, _ := l.([]any)
		if len(pair) == 2 {
			b.WriteString("\n" + strings.ReplaceAll(fmt.Sprint(pair[1]), "```", "'''"))
		}
	}
	b.WriteString("\n```")
	return b.String()
}

// boldOr writes names in bold joined by "or".
func boldOr(names []any) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("**%v**", n)
	}
	if len(q) > 1 {
		return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
	}
	return strings.Join(q, "")
}

// countOf writes "**3 lines**".
func countOf(n int, one, many string) string {
	return fmt.Sprintf("**%s %s**", fmtInt(n), plural(n, one, many))
}

// quoteLine makes a line of a document safe to show inside a Markdown list item.
func quoteLine(s string) string {
	r := strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "<", "&lt;", "[", "\\[", "]", "\\]", "#", "\\#")
	return r.Replace(strings.TrimSpace(s))
}
