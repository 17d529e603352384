package analyst

import (
	"regexp"
	"strings"
)

// fencedBlock matches ```python (or ```py) blocks; the closing fence must start a line.
// emulator.FencedBlocks calls FencedBlocks, so the emulator and both planners agree on
// what runs as written.
var fencedBlock = regexp.MustCompile("(?s)```(?:python|py|python3)[ \t]*\r?\n(.*?)\r?\n?```")

// FencedBlocks returns the code of every fenced python block in text, in order.
func FencedBlocks(text string) []string {
	var blocks []string
	for _, m := range fencedBlock.FindAllStringSubmatch(text, -1) {
		blocks = append(blocks, m[1])
	}
	return blocks
}

// Fence wraps text in a code fence of backticks longer than any run of
// backticks inside it (at least three), as CommonMark allows, so output
// that prints ``` cannot close the block early and have the rest of it
// rendered as markdown of the answer.
func Fence(text string) string {
	longest, run := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] != '`' {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + "\n" + text + "\n" + fence
}
