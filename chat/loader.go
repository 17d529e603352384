package chat

import (
	"strings"
)

// LoaderSummary is what a loader cell says it loaded, one line per file:
// "Loaded stocks.csv: 524 × 11", or "Could not load …".
func LoaderSummary(logs string) string {
	var lines []string
	for _, line := range strings.Split(logs, "\n") {
		switch {
		case strings.HasPrefix(line, "Loaded "):
			line = strings.Replace(strings.Replace(line, " rows x ", " × ", 1), " columns", "", 1)
			lines = append(lines, line)
		case strings.HasPrefix(line, "Could not load "):
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, " · ")
}
