package chat

import (
	"fmt"
	"strings"

	"github.com/analyst-workbench/workbench/cellext"
)

// What the local engine says of its sandboxes, in words for the user.

// restoredNotice says what a restored session means for the user: what
// came back, and each name that did not, with what to do. The local engine
// reports a restore beside the cell's output (cellext.Logs.Restored).
func restoredNotice(rep *cellext.Restored) string {
	var b strings.Builder
	b.WriteString("This conversation's sandbox was set aside to free memory while it was idle, and has been restored for this answer.")
	var back []string
	if len(rep.Names) > 0 {
		back = append(back, listNames(rep.Names, 8))
	}
	if rep.Files > 0 {
		back = append(back, plural(rep.Files, "file"))
	}
	if len(back) > 0 {
		b.WriteString(" Back as they were: " + strings.Join(back, " and ") + ".")
	}
	for _, l := range rep.Lost {
		fmt.Fprintf(&b, " Not restored: %s (%s).", l.Name, l.Reason)
	}
	return b.String()
}

// listNames lists up to n names and counts the rest.
func listNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:n], ", ") + fmt.Sprintf(" and %d more", len(names)-n)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// waitingText is the live status line of a question waiting to start: for
// a free sandbox, in line, on the local engine; or on the service.
func waitingText(position int) string {
	if position <= 0 {
		return "Waiting for the agent service to start the answer…"
	}
	return fmt.Sprintf("Waiting for a free sandbox (%s in line)…", ordinal(position))
}

// ordinal writes 1st, 2nd, 3rd, 4th, 11th, 21st…
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
