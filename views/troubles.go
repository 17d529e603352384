package views

import (
	"path"
	"strings"
)

// The words for what went wrong with a turn's files and packages: chat
// decides each state (FileFlaw, FileNotMade, ModuleNote), these say it.

// flawWords says what is wrong with a generated file called name, as the
// end of a sentence that starts with its name.
func flawWords(f FileFlaw, name string) string {
	label := extLabel(name)
	switch f {
	case FileEmpty:
		return "is empty (0 bytes)"
	case FileNotType:
		return "is not a valid " + label + " (its bytes do not start as " + article(label) + " " + label + "'s do)"
	case FileNotText:
		return "is not valid " + label + " (it holds binary data, not text)"
	}
	return ""
}

// flawTag is the flaw in a word or two, for a file's chip.
func flawTag(f FileFlaw, name string) string {
	switch f {
	case FileEmpty:
		return "empty"
	case FileNotType, FileNotText:
		return "not a valid " + extLabel(name)
	}
	return ""
}

// flawAdvice says what to do about a flawed file: it is kept, and the code
// that wrote it most likely failed or stopped half-way.
func flawAdvice(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp":
		return "It is kept as it is; the code that wrote it probably failed or stopped. Ask again, or ask for a simpler chart."
	}
	return "It is kept as it is; the code that wrote it probably failed or stopped. Ask again, or ask for less at once."
}

// article is "an" before a label read out letter by letter that starts
// with a vowel sound (an SVG, an XLSX), "a" otherwise (a PNG, a ZIP).
func article(label string) string {
	if label != "ZIP" && strings.ContainsRune("AEFHILMNORSX", rune(label[0])) {
		return "an"
	}
	return "a"
}

// hostedPackagesURL documents the hosted Code Interpreter, whose package
// set Microsoft fixes.
const hostedPackagesURL = "https://learn.microsoft.com/azure/foundry/agents/how-to/tools/code-interpreter"
