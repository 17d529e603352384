package analyst

import "regexp"

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
