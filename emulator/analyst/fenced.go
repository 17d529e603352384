package analyst

import (
	"strings"
)

// FencedBlocks returns the code of every fenced python block in text (info
// string python, py or python3), in order, read as CommonMark reads fences:
// an opening line of three or more backticks (up to three spaces before),
// closed only by a line of at least as many backticks and nothing else, or
// by the end of the text. A longer fence (see fence.Wrap) can thus hold
// code with ``` in it. emulator.FencedBlocks calls this, so the emulator and
// both planners agree on what runs as written.
func FencedBlocks(text string) []string {
	var blocks []string
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		n, info, ok := openingFence(lines[i])
		if !ok {
			continue
		}
		end := i + 1
		for end < len(lines) && !closesFence(lines[end], n) {
			end++
		}
		if isPython(info) {
			code := strings.Join(lines[i+1:end], "\n")
			if end == len(lines) {
				code = withoutTrailingFence(code, n)
			}
			blocks = append(blocks, code)
		}
		i = end
	}
	return blocks
}

// withoutTrailingFence drops a fence typed at the end of the last line of
// an unclosed block ("print(1)```"): a chat box is not a markdown editor.
func withoutTrailingFence(code string, n int) string {
	trimmed := strings.TrimRight(code, " \t\n")
	bare := strings.TrimRight(trimmed, "`")
	if len(trimmed)-len(bare) >= n {
		return strings.TrimRight(bare, " \t")
	}
	return code
}

// openingFence reports whether line opens a backtick fence, with its length
// and info string.
func openingFence(line string) (int, string, bool) {
	rest, ok := unindent(line)
	n := len(rest) - len(strings.TrimLeft(rest, "`"))
	if !ok || n < 3 || strings.Contains(rest[n:], "`") {
		return 0, "", false
	}
	return n, strings.TrimSpace(rest[n:]), true
}

// closesFence reports whether line closes a fence of n backticks.
func closesFence(line string, n int) bool {
	rest, ok := unindent(line)
	rest = strings.TrimRight(rest, " \t")
	return ok && len(rest) >= n && strings.Trim(rest, "`") == ""
}

// unindent strips the up to three spaces a fence may stand behind.
func unindent(line string) (string, bool) {
	rest := strings.TrimLeft(line, " ")
	return rest, len(line)-len(rest) <= 3
}

func isPython(info string) bool {
	lang, _, _ := strings.Cut(info, " ")
	switch strings.ToLower(lang) {
	case "python", "py", "python3":
		return true
	}
	return false
}
