// Package fence wraps text in a Markdown code fence. It imports nothing
// but the standard library, so that the built-in analyst and the Foundry
// emulator, which write fenced code, do not link the Markdown renderer.
package fence

import "strings"

// Wrap wraps text in a code fence of backticks longer than any run of
// backticks inside it (at least three), as CommonMark allows, with info
// (a language, or "") after the opening fence. Code or output that holds
// ``` then cannot close the block early and have the rest of it read as
// markdown, or as a second block.
func Wrap(text, info string) string {
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
	return fence + info + "\n" + text + "\n" + fence
}
