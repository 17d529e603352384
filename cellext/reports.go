package cellext

import "strings"

// ReportCall starts a statement of the built-in analyst's code that reports
// a result to the engine (its reply quotes numbers from these only).
const ReportCall = "_emit("

// ReportLines finds the lines of the analyst's code that report to the
// engine: each statement that starts with ReportCall, to where its brackets
// close, and a block header ("if _note:") whose body they alone were. The
// engine calls it on code it wrote itself, never on code a user sent.
func ReportLines(code string) []Lines {
	if !strings.Contains(code, ReportCall) {
		return nil
	}
	lines := strings.Split(code, "\n")
	hidden := make([]bool, len(lines))
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimLeft(lines[i], " "), ReportCall) {
			n := statementLines(lines[i:])
			for j := i; j < i+n; j++ {
				hidden[j] = true
			}
			i += n - 1
		}
	}
	for hideEmptyBlock(lines, hidden) {
	}
	return ranges(hidden)
}

// Without returns code without the lines in hidden.
func Without(code string, hidden []Lines) string {
	if len(hidden) == 0 {
		return code
	}
	var kept []string
	for i, line := range strings.Split(code, "\n") {
		if !inLines(i+1, hidden) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

func inLines(n int, hidden []Lines) bool {
	for _, r := range hidden {
		if n >= r.First && n <= r.Last {
			return true
		}
	}
	return false
}

// ranges turns one flag per line into ranges of the flagged lines.
func ranges(hidden []bool) []Lines {
	var out []Lines
	for i, h := range hidden {
		switch {
		case !h:
		case len(out) > 0 && out[len(out)-1].Last == i:
			out[len(out)-1].Last = i + 1
		default:
			out = append(out, Lines{First: i + 1, Last: i + 1})
		}
	}
	return out
}

// statementLines counts the lines of the statement that starts lines[0]:
// until its brackets close, strings aside.
func statementLines(lines []string) int {
	depth := 0
	for n, line := range lines {
		var quote rune
		for _, r := range line {
			switch {
			case quote != 0:
				if r == quote {
					quote = 0
				}
			case r == '"' || r == '\'':
				quote = r
			case r == '(' || r == '[' || r == '{':
				depth++
			case r == ')' || r == ']' || r == '}':
				depth--
			}
		}
		if depth <= 0 {
			return n + 1
		}
	}
	return len(lines)
}

// hideEmptyBlock hides one block header whose body is all hidden (or
// blank), and reports whether it found one.
func hideEmptyBlock(lines []string, hidden []bool) bool {
	for i, line := range lines {
		if hidden[i] || !strings.HasSuffix(strings.TrimRight(line, " "), ":") || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		next := i + 1
		for next < len(lines) && (hidden[next] || strings.TrimSpace(lines[next]) == "") {
			next++
		}
		if next == len(lines) || indent(lines[next]) <= indent(line) {
			hidden[i] = true
			return true
		}
	}
	return false
}

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
