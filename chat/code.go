package chat

import "strings"

// emitCall starts a statement of the built-in analyst's code that reports
// a result to the engine (its reply quotes numbers from these lines only);
// an analyst writing the code would not write it.
const emitCall = "_emit("

// ShownCode is a cell's code as the page shows it: in code the built-in
// analyst wrote, its reporting statements (_emit(...), helpers its loader
// cell defines once) left out of sight, and a block they alone filled left
// out with them. The loader cell, and code the user or a model wrote
// (whatever it calls), are shown as they ran; an export keeps the code
// whole, so that it runs the same.
func (c *Cell) ShownCode() string {
	if c.Loader || !c.Analyst {
		return c.Code
	}
	return shownCode(c.Code)
}

// shownCode is ShownCode for a cell that is not the loader.
func shownCode(code string) string {
	if !strings.Contains(code, emitCall) {
		return code
	}
	lines := strings.Split(code, "\n")
	var kept []string
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(strings.TrimLeft(lines[i], " "), emitCall) {
			i += statementLines(lines[i:]) - 1
			continue
		}
		kept = append(kept, lines[i])
	}
	return strings.Join(withoutEmptyBlocks(kept), "\n")
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

// withoutEmptyBlocks drops a block's header ("if _note:") whose body was
// all taken out.
func withoutEmptyBlocks(lines []string) []string {
	for {
		i := emptyBlock(lines)
		if i < 0 {
			return lines
		}
		lines = append(lines[:i:i], lines[i+1:]...)
	}
}

// emptyBlock is the index of a header with no body after it, or -1.
func emptyBlock(lines []string) int {
	for i, line := range lines {
		if !strings.HasSuffix(strings.TrimRight(line, " "), ":") || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		next := i + 1
		for next < len(lines) && strings.TrimSpace(lines[next]) == "" {
			next++
		}
		if next == len(lines) || indent(lines[next]) <= indent(line) {
			return i
		}
	}
	return -1
}

func indent(line string) int { return len(line) - len(strings.TrimLeft(line, " ")) }
