package analyst

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/analyst-workbench/workbench/markdown/fence"
)

// askVariable matches a question that only asks to see one name: "show y", "print total",
// "what is `ratio`?". Anything longer is a question about the data, planned as usual.
var askVariable = regexp.MustCompile("(?i)^\\s*(?:show(?: me)?|print|display|what(?:'s| is))\\s+(?:the\\s+)?(?:variable\\s+)?`?([A-Za-z_][A-Za-z0-9_]*)`?\\s*[?.!]?\\s*$")

// identifier is a Python name.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// askedVariable returns the name a question asks to see, when code the analyst ran earlier in
// the conversation (a fenced block of an earlier message: a question of code, or a step they
// edited) assigned it at top level. The kernel is the conversation's, so the name is still
// there unless the session ended, which the answer then says.
func askedVariable(question string, history []Message) (string, bool) {
	m := askVariable.FindStringSubmatch(question)
	if m == nil {
		return "", false
	}
	for i := len(history) - 1; i >= 0; i-- {
		if history[i].Role != "user" {
			continue
		}
		for _, block := range FencedBlocks(history[i].Text) {
			if assigns(block, m[1]) {
				return m[1], true
			}
		}
	}
	return "", false
}

// assigns reports whether code assigns name at top level: "name = …" or "a, name = …".
func assigns(code, name string) bool {
	for _, line := range strings.Split(code, "\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
			continue
		}
		lhs, rhs, ok := strings.Cut(line, "=")
		if !ok || strings.HasPrefix(rhs, "=") || strings.ContainsAny(lhs, "([{'\"<>!+-*/%&|^:") {
			continue
		}
		for _, target := range strings.Split(lhs, ",") {
			if t := strings.TrimSpace(target); identifier.MatchString(t) && t == name {
				return true
			}
		}
	}
	return false
}

// variableStep shows the variable with one cell of just its name, then replies with its value.
func variableStep(name string, cells []Cell) Step {
	if len(cells) == 0 {
		return Step{Code: name}
	}
	c := cells[0]
	if c.Error != nil {
		if c.Error.Name == "NameError" {
			return Step{Text: fmt.Sprintf("`%s` is not defined in this session: the session that ran the code defining it has ended. Run that code again.", name)}
		}
		return Step{Text: fmt.Sprintf("Showing `%s` failed with %s: %s.", name, c.Error.Name, c.Error.Value)}
	}
	out := strings.TrimRight(c.Stdout+c.Value, "\n")
	if len(out) > maxShownValue {
		out = out[:maxShownValue] + "\n…"
	}
	return Step{Text: fmt.Sprintf("`%s`, as the code you ran earlier in this session left it:\n\n%s", name, fence.Wrap(out, ""))}
}

// maxShownValue caps the printed value a reply to "show x" quotes.
const maxShownValue = 4000
