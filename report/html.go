package report

import (
	"bytes"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"regexp"
	"strings"

	"github.com/analyst-workbench/workbench/markdown"
)

// CSP is the Content-Security-Policy of an HTML report: pictures from data
// URIs and the inline style sheet, nothing else. The report carries it in
// a meta element too, so it holds when the file is opened from a disk.
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"

// DefaultMaxHTML is the size an HTML report is kept under, so it can be
// sent by e-mail; charts past it are left out and named at the top.
const DefaultMaxHTML = 50 << 20

//go:embed report.html.tmpl
var htmlTemplate string

var page = template.Must(template.New("report").Parse(htmlTemplate))

// WriteHTML writes r as one self-contained HTML page: charts as data URIs,
// tables as HTML tables, code folded, answers rendered and sanitized, no
// script and no address outside the file. Charts that would take the page
// past maxBytes are left out, and the page says which. On an error w may
// hold part of the page, so callers write to a buffer they can drop.
func WriteHTML(w io.Writer, r Report, maxBytes int64) error {
	if err := page.Execute(w, htmlReport(r, maxBytes)); err != nil {
		return fmt.Errorf("report: html: %w", err)
	}
	return nil
}

// htmlView is what the template shows.
type htmlView struct {
	Title    string
	Exported string
	CSP      string
	CSS      template.CSS
	Loaders  []htmlCell
	Turns    []htmlTurn
	// LeftOut names the charts left out to keep the size.
	LeftOut []string
	MaxMB   int64
}

type htmlTurn struct {
	N        int
	Heading  string
	Question template.HTML
	Cells    []htmlCell
	Charts   []htmlImage
	Answer   template.HTML
	Error    string
}

type htmlCell struct {
	// Summary labels the folded code.
	Summary string
	Code    template.HTML
	Output  []htmlPart
	Charts  []htmlImage
}

type htmlPart struct {
	Text  string
	Table *Table
	Note  string
	Rows  [][]string
}

// htmlImage is a chart as a data URI, or only its name when it was left out.
type htmlImage struct {
	Name    string
	Src     template.URL
	LeftOut bool
}

// htmlReport lays r out for the template. The text of the page is
// measured first, so the charts get what is left of maxBytes, in order.
func htmlReport(r Report, maxBytes int64) htmlView {
	v := htmlView{Title: strings.TrimSpace(r.Title), CSP: CSP, CSS: template.CSS(reportCSS + markdown.LightCodeCSS()),
		MaxMB: maxBytes >> 20}
	if v.Title == "" {
		v.Title = "Conversation"
	}
	if !r.Exported.IsZero() {
		v.Exported = r.Exported.Format("2 January 2006, 15:04 MST")
	}
	loaders, cells := split(r)
	for _, c := range loaders {
		v.Loaders = append(v.Loaders, htmlCellOf(c))
	}
	for i, t := range r.Turns {
		ht := htmlTurn{N: t.number(i), Heading: t.heading(), Question: questionHTML(t),
			Answer: template.HTML(answerHTML(t.Answer)), Error: t.Error}
		for _, c := range cells[i] {
			ht.Cells = append(ht.Cells, htmlCellOf(c))
		}
		ht.Charts = images(t.Charts)
		v.Turns = append(v.Turns, ht)
	}
	v.LeftOut = fitImages(&v, maxBytes)
	return v
}

func htmlCellOf(c Cell) htmlCell {
	hc := htmlCell{Summary: "Code", Charts: images(c.Charts)}
	if c.Loader {
		hc.Summary = "Code that loads the files"
	}
	if strings.TrimSpace(c.Code) != "" {
		hc.Code = template.HTML(markdown.Highlight(strings.TrimRight(c.Code, "\n"), "python"))
	}
	for _, p := range c.Output {
		switch {
		case p.Table != nil:
			hc.Output = append(hc.Output, htmlPart{Table: p.Table, Rows: p.Table.shown(), Note: p.Table.cutNote()})
		case strings.TrimSpace(p.Text) != "":
			hc.Output = append(hc.Output, htmlPart{Text: strings.Trim(p.Text, "\n")})
		}
	}
	return hc
}

// pngSignature starts every PNG file; anything else is not embedded, so a
// data URI never claims a type its bytes are not.
const pngSignature = "\x89PNG\r\n\x1a\n"

func images(charts []Image) []htmlImage {
	var out []htmlImage
	for _, c := range charts {
		if c.PNG == nil {
			out = append(out, htmlImage{Name: c.Name, LeftOut: true}) // left out when gathered
			continue
		}
		if !bytes.HasPrefix(c.PNG, []byte(pngSignature)) {
			continue
		}
		out = append(out, htmlImage{Name: c.Name, Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(c.PNG))})
	}
	return out
}

// fitImages leaves out, in document order, the charts that do not fit in
// maxBytes after the text, and returns their names.
func fitImages(v *htmlView, maxBytes int64) []string {
	var all []*htmlImage
	for i := range v.Loaders {
		for j := range v.Loaders[i].Charts {
			all = append(all, &v.Loaders[i].Charts[j])
		}
	}
	for i := range v.Turns {
		for j := range v.Turns[i].Cells {
			for k := range v.Turns[i].Cells[j].Charts {
				all = append(all, &v.Turns[i].Cells[j].Charts[k])
			}
		}
		for j := range v.Turns[i].Charts {
			all = append(all, &v.Turns[i].Charts[j])
		}
	}
	// Measure the page without its pictures, plus room for the notes
	// about what was left out.
	srcs := make([]template.URL, len(all))
	for i, img := range all {
		srcs[i], img.Src = img.Src, ""
	}
	var text countingWriter
	_ = page.Execute(&text, v)
	budget := maxBytes - text.n - 4096
	var left []string
	for i, img := range all {
		size := int64(len(srcs[i]))
		if img.LeftOut || size > budget {
			img.LeftOut = true
			left = append(left, img.Name)
			budget -= int64(len(img.Name)) * 2
			continue
		}
		img.Src = srcs[i]
		budget -= size
	}
	return left
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// answerHTML renders an answer's markdown. markdown.Render (with no
// options) already makes the links to the session's files their text (the
// charts are in the cells above) and images from other sites links; what is
// left are links into the app, which a file away from it cannot follow.
func answerHTML(answer string) string {
	if strings.TrimSpace(answer) == "" {
		return ""
	}
	return localLink.ReplaceAllStringFunc(markdown.Render(answer), func(a string) string {
		if m := localLink.FindStringSubmatch(a); !outside.MatchString(m[1]) {
			return m[2]
		}
		return a
	})
}

// localLink matches a rendered link with its address and text; outside
// matches the addresses a reader of the file can still follow. Anchors
// never nest, so the first </a> closes the link.
var (
	localLink = regexp.MustCompile(`(?s)<a\b[^>]*?href="([^"]*)"[^>]*>(.*?)</a>`)
	outside   = regexp.MustCompile(`^(https?:|mailto:)`)
)

// questionHTML renders a turn's question, what a step is instead, or
// nothing when the question is only code: the cells show that code.
func questionHTML(t Turn) template.HTML {
	switch {
	case t.EditedBy != "":
		return template.HTML("<p><em>" + template.HTMLEscapeString(stepNote) + "</em></p>")
	case t.showsQuestion():
		return template.HTML(answerHTML(t.Question))
	}
	return ""
}
