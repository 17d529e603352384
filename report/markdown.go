package report

import (
	"archive/zip"
	"fmt"
	"io"
	"net/url"
	"path"
	"regexp"
	"strings"
	"unicode"

	"github.com/analyst-workbench/workbench/markdown/fence"
)

// WriteMarkdownZip writes r as a zip: name (such as "sales.md") and, beside
// it, every chart it shows (in charts/) and every other file it links (in
// files/), each by a relative path, so the folder reads the same in any
// Markdown viewer. Every entry is dated when the report was made: a zero
// date would show as 1980 in a file manager.
func WriteMarkdownZip(w io.Writer, r Report, name string) error {
	md, attached := Markdown(r)
	zw := zip.NewWriter(w)
	f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: r.Exported})
	if err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	if _, err := io.WriteString(f, md); err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	for _, a := range attached {
		method := zip.Deflate
		if strings.HasPrefix(a.Path, "charts/") {
			method = zip.Store // PNGs are compressed already: storing is faster and no larger
		}
		f, err := zw.CreateHeader(&zip.FileHeader{Name: a.Path, Method: method, Modified: r.Exported})
		if err != nil {
			return fmt.Errorf("report: zip: %w", err)
		}
		if _, err := f.Write(a.Data); err != nil {
			return fmt.Errorf("report: zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	return nil
}

// Attachment is a chart or file the Markdown refers to, at Path relative
// to it.
type Attachment struct {
	Path string
	Data []byte
}

// Markdown renders r as GitHub-flavoured Markdown and returns the charts
// and files it refers to, each once, in the order they appear.
func Markdown(r Report) (string, []Attachment) {
	m := &mdWriter{byName: map[string]string{}}
	title := r.Title
	if strings.TrimSpace(title) == "" {
		title = "Conversation"
	}
	m.line("# " + escapeText(oneLine(title)))
	loaders, turns := split(r)
	if len(loaders) > 0 {
		m.line("", "## Files loaded")
		for _, c := range loaders {
			m.loader(c)
		}
	}
	for i, t := range r.Turns {
		m.turn(t.number(i), t, turns[i])
	}
	return m.b.String(), m.attached
}

// mdWriter builds the Markdown and the list of files it refers to.
type mdWriter struct {
	b              strings.Builder
	attached       []Attachment
	charts, others int
	// byName maps a chart's or file's saved name to its path in the zip,
	// for the answers' sandbox links; a later one of the same name wins.
	byName map[string]string
}

// line writes lines, each followed by a newline.
func (m *mdWriter) line(lines ...string) {
	for _, l := range lines {
		m.b.WriteString(l)
		m.b.WriteByte('\n')
	}
}

func (m *mdWriter) turn(n int, t Turn, cells []Cell) {
	m.line("", fmt.Sprintf("## %d. %s", n, escapeText(t.heading())))
	switch {
	case t.EditedBy != "":
		m.line("", "*"+stepNote+"*")
	case t.showsQuestion():
		m.line("", quote(safeMarkdown(t.Question)))
	}
	for _, c := range cells {
		m.cell(c)
	}
	m.images(t.Charts)
	files := m.files(t.Files)
	answer := safeMarkdown(rewriteSandboxLinks(strings.TrimSpace(t.Answer), m.byName))
	if answer != "" {
		m.line("", answer)
	}
	// A file the answer does not link is linked here, so nothing in the
	// zip goes unmentioned.
	var unlinked []string
	for _, f := range files {
		if !strings.Contains(answer, "]("+f.path+")") {
			unlinked = append(unlinked, f.link)
		}
	}
	if len(unlinked) > 0 {
		m.line("", "Files: "+strings.Join(unlinked, ", "))
	}
	if t.Error != "" {
		m.line("", "**Error:** "+escapeText(oneLine(t.Error)))
	}
}

// loader writes a loader cell with its code folded in a details element,
// which GitHub and most viewers show closed: it is long, and the same in
// every conversation.
func (m *mdWriter) loader(c Cell) {
	code := c.Code
	c.Code = ""
	m.line("", "<details><summary>Code that loads the files</summary>", "", fenced("python", code), "", "</details>")
	m.cell(c)
}

func (m *mdWriter) cell(c Cell) {
	if strings.TrimSpace(c.Code) != "" {
		m.line("", fenced("python", c.Code))
	}
	for _, p := range c.Output {
		if p.Table != nil {
			m.line("", gfmTable(p.Table))
			if note := p.Table.cutNote(); note != "" {
				m.line("", "*"+note+"*")
			}
		} else if strings.TrimSpace(p.Text) != "" {
			m.line("", fenced("text", strings.Trim(p.Text, "\n")))
		}
	}
	m.images(c.Charts)
}

// images writes each chart as an image in charts/, named in order.
func (m *mdWriter) images(charts []Image) {
	for _, img := range charts {
		if img.PNG == nil {
			m.line("", "*Chart “"+escapeText(img.Name)+"” left out to keep this export small.*")
			continue
		}
		m.charts++
		p := fmt.Sprintf("charts/%02d-%s", m.charts, fileName(img.Name, ".png"))
		m.attached = append(m.attached, Attachment{Path: p, Data: img.PNG})
		m.byName[path.Base(img.Name)] = p
		m.line("", "!["+escapeText(img.Name)+"]("+p+")")
	}
}

// zipped is a file put in files/: its path, and a link to it (or a note
// when it was left out).
type zipped struct{ path, link string }

// files puts the turn's files in files/, named in order.
func (m *mdWriter) files(files []File) []zipped {
	var out []zipped
	for _, f := range files {
		if f.Data == nil {
			out = append(out, zipped{link: "“" + escapeText(f.Name) + "” (left out to keep this export small)"})
			continue
		}
		m.others++
		p := fmt.Sprintf("files/%02d-%s", m.others, fileName(f.Name, ""))
		m.attached = append(m.attached, Attachment{Path: p, Data: f.Data})
		m.byName[path.Base(f.Name)] = p
		out = append(out, zipped{path: p, link: "[" + escapeText(path.Base(f.Name)) + "](" + p + ")"})
	}
	return out
}

// fenced puts text in a code fence no line of it can close early.
func fenced(lang, text string) string {
	return fence.Wrap(strings.TrimRight(text, "\n"), lang)
}

// gfmTable writes a table as a GitHub table: numbers right-aligned, pipes
// and line breaks in values escaped so a value cannot break the grid.
func gfmTable(t *Table) string {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			b.WriteString(" " + tableText(c) + " |")
		}
		b.WriteString("\n")
	}
	names := make([]string, len(t.Columns))
	rule := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		names[i], rule[i] = c.Name, "---"
		if c.Numeric {
			rule[i] = "--:"
		}
	}
	row(names)
	b.WriteString("|" + strings.Join(rule, "|") + "|\n")
	for _, r := range t.shown() {
		row(r)
	}
	return strings.TrimRight(b.String(), "\n")
}

// tableText escapes a value for a GitHub table cell.
func tableText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(escapeText(s), "|", `\|`)
}

// escapeText escapes the characters that would turn plain text into markup.
var mdSpecial = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)

func escapeText(s string) string { return mdSpecial.Replace(s) }

// quote writes a question as a block quote, every line quoted so a
// multi-line question stays one quote.
func quote(q string) string {
	lines := strings.Split(strings.TrimRight(q, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}

// sandboxLink matches a Markdown link or image to a file of the code
// interpreter's session, which means nothing outside the app.
var sandboxLink = regexp.MustCompile(`(!?)\[([^\]]*)\]\(<?sandbox:/mnt/data/([^)>]+)>?\)`)

// appLink matches a Markdown link to a page of the app ("/artifacts/…"),
// which leads nowhere from a file.
var appLink = regexp.MustCompile(`!?\[([^\]]*)\]\(<?/[^)]*\)`)

// rewriteSandboxLinks points the answer's links to charts and files at
// their copies beside the Markdown; links to other files of the session
// or to pages of the app become their text.
func rewriteSandboxLinks(answer string, byName map[string]string) string {
	answer = appLink.ReplaceAllString(answer, "$1")
	return sandboxLink.ReplaceAllStringFunc(answer, func(s string) string {
		m := sandboxLink.FindStringSubmatch(s)
		name := m[3]
		if u, err := url.PathUnescape(name); err == nil {
			name = u
		}
		if p, ok := byName[path.Base(name)]; ok {
			return m[1] + "[" + m[2] + "](" + p + ")"
		}
		return m[2]
	})
}

// fileName makes a chart's or file's name safe as a file name in a zip on
// any system: letters, digits, dot, hyphen and underscore; other runs
// become one hyphen. ext, when set, is added unless the name has it.
func fileName(name, ext string) string {
	name = path.Base(strings.ReplaceAll(name, `\`, "/"))
	var b strings.Builder
	dash := false
	for _, r := range name {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-') {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" || ext != "" && strings.EqualFold("."+s, ext) {
		s = "file"
	}
	if !strings.HasSuffix(strings.ToLower(s), ext) {
		s += ext
	}
	return s
}

// onlyCode reports whether a question is nothing but code, which its
// cells show already.
func onlyCode(q string) bool { return Heading(q) == codeHeading }

// codeHeading heads a step whose question is only code.
const codeHeading = "Python code"

// Heading is the first line of a question with words in it, cut to 100
// runes: the heading of its step. A question that is only code is
// "Python code".
func Heading(s string) string {
	fence := false
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fence = !fence
			continue
		}
		if l != "" && !fence {
			if r := []rune(l); len(r) > 100 {
				return string(r[:99]) + "…"
			}
			return l
		}
	}
	return codeHeading
}

// oneLine joins s's lines with spaces, for a heading.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
