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
)

// WriteMarkdownZip writes r as a zip: name (such as "sales.md") and, beside
// it in charts/, every chart the Markdown shows, each referenced by a
// relative path, so the folder reads the same in any Markdown viewer.
func WriteMarkdownZip(w io.Writer, r Report, name string) error {
	md, charts := Markdown(r)
	zw := zip.NewWriter(w)
	f, err := zw.Create(name)
	if err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	if _, err := io.WriteString(f, md); err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	for _, c := range charts {
		// PNGs are compressed already; storing them is faster and no larger.
		f, err := zw.CreateHeader(&zip.FileHeader{Name: c.Path, Method: zip.Store})
		if err != nil {
			return fmt.Errorf("report: zip: %w", err)
		}
		if _, err := f.Write(c.PNG); err != nil {
			return fmt.Errorf("report: zip: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("report: zip: %w", err)
	}
	return nil
}

// ChartFile is a chart the Markdown refers to, at Path relative to it.
type ChartFile struct {
	Path string
	PNG  []byte
}

// Markdown renders r as GitHub-flavoured Markdown and returns the charts it
// refers to, each once, in the order they appear.
func Markdown(r Report) (string, []ChartFile) {
	m := &mdWriter{byName: map[string]string{}}
	title := r.Title
	if strings.TrimSpace(title) == "" {
		title = "Conversation"
	}
	m.line("# " + oneLine(title))
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
	return m.b.String(), m.charts
}

// mdWriter builds the Markdown and the list of charts it refers to.
type mdWriter struct {
	b      strings.Builder
	charts []ChartFile
	// byName maps a chart's saved name to its path in the zip, for the
	// answers' sandbox links; a later chart of the same name wins.
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
	m.line("", fmt.Sprintf("## %d. %s", n, oneLine(Heading(t.Question))))
	if !onlyCode(t.Question) {
		m.line("", quote(t.Question))
	}
	for _, c := range cells {
		m.cell(c)
	}
	m.images(t.Charts)
	if a := strings.TrimSpace(t.Answer); a != "" {
		m.line("", rewriteSandboxLinks(a, m.byName))
	}
	if t.Error != "" {
		m.line("", "**Error:** "+oneLine(t.Error))
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
		p := fmt.Sprintf("charts/%02d-%s", len(m.charts)+1, fileName(img.Name))
		m.charts = append(m.charts, ChartFile{Path: p, PNG: img.PNG})
		m.byName[path.Base(img.Name)] = p
		m.line("", "!["+escapeText(img.Name)+"]("+p+")")
	}
}

// fenced puts text in a code fence longer than any backtick run in it, so
// no line of output can close it early.
func fenced(lang, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
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

// rewriteSandboxLinks points the answer's links to charts at their copies
// beside the Markdown; links to anything else become their text.
func rewriteSandboxLinks(answer string, byName map[string]string) string {
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

// fileName makes a chart's name safe as a file name in a zip on any
// system: letters, digits, dot, hyphen and underscore; other runs become
// one hyphen.
func fileName(name string) string {
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
	if s == "" || strings.EqualFold(s, "png") {
		s = "chart.png"
	}
	if !strings.HasSuffix(strings.ToLower(s), ".png") {
		s += ".png"
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
