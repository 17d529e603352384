package chat

import (
	"strings"
)

// loaderMarker is in the code of the built-in analyst's file loader (it
// prints its profile on a line with this prefix); a cell with it is the
// loader, not a step of the analysis.
const loaderMarker = "@@wb-profile"

// IsLoader reports whether the cell is the built-in analyst's file loader,
// which the page folds into one line and a notebook keeps once.
func (c *Cell) IsLoader() bool { return strings.Contains(c.Code, loaderMarker) }

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
