package report

import (
	"regexp"
	"strings"
)

// Markdown from user data (a question, an answer quoting CSV values) is
// Markdown to keep, but a viewer would run the HTML in it and follow its
// javascript: links. As the HTML report does, raw HTML shows as its text
// and a link to anything but a web page, a mail address or a file beside
// the Markdown becomes its text; code spans and fences are left as they
// are, since they show their text anyway.

// unsafeLink matches an inline link or image whose destination has a
// scheme other than http, https or mailto.
var unsafeLink = regexp.MustCompile(`!?\[([^\]]*)\]\(\s*<?\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)`)

// safeScheme matches the destinations a reader may follow.
var safeScheme = regexp.MustCompile(`(?i)\]\(\s*<?\s*(?:https?|mailto):`)

// refDefinition matches a link reference definition, whose destination
// could name any scheme.
var refDefinition = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:`)

// safeMarkdown makes s inert, line by line, outside fenced code.
func safeMarkdown(s string) string {
	lines := strings.Split(s, "\n")
	fence := ""
	for i, l := range lines {
		if f := fenceOf(l); f != "" {
			switch {
			case fence == "":
				fence = f
			case strings.HasPrefix(f, fence[:1]) && len(f) >= len(fence):
				fence = ""
			}
			continue
		}
		if fence == "" {
			lines[i] = safeLine(l)
		}
	}
	return strings.Join(lines, "\n")
}

// fenceOf returns the run of backticks or tildes that opens or closes a
// fence on line l, or "".
func fenceOf(l string) string {
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return ""
	}
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	if n < 3 {
		return ""
	}
	return t[:n]
}

// safeLine makes one line outside a fence inert, code spans left alone.
func safeLine(l string) string {
	if refDefinition.MatchString(l) {
		l = `\` + strings.TrimLeft(l, " ")
	}
	var b strings.Builder
	for l != "" {
		start := strings.IndexByte(l, '`')
		if start < 0 {
			b.WriteString(inert(l))
			break
		}
		run := len(l[start:]) - len(strings.TrimLeft(l[start:], "`"))
		closing := strings.Index(l[start+run:], l[start:start+run])
		if closing < 0 {
			b.WriteString(inert(l))
			break
		}
		end := start + run + closing + run
		b.WriteString(inert(l[:start]))
		b.WriteString(l[start:end])
		l = l[end:]
	}
	return b.String()
}

// inert turns text that is not code into text without HTML or links to
// other schemes.
func inert(s string) string {
	s = unsafeLink.ReplaceAllStringFunc(s, func(m string) string {
		if safeScheme.MatchString(m) {
			return m
		}
		// The link becomes its text; the rest of the destination, its
		// scheme gone, stays as plain text.
		return unsafeLink.FindStringSubmatch(m)[1] + " "
	})
	return strings.ReplaceAll(s, "<", "&lt;")
}
