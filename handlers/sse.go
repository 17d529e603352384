package handlers

import "strings"

// lineBreaks turns the event-stream format's three line endings into one.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// writeData writes s as the data of an event, one "data:" line per line.
// The format ends a line at CRLF, LF or a lone CR, so each of them must
// start a new data line: a CR left inside one would let text the sandbox
// printed, such as "x\r\revent: done", end the event and forge another.
func writeData(out *strings.Builder, s string) {
	for _, line := range strings.Split(lineBreaks.Replace(s), "\n") {
		out.WriteString("data: ")
		out.WriteString(line)
		out.WriteString("\n")
	}
}
