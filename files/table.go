package files

import (
	"fmt"
	"strings"
)

// Bounds on the work and the memory of one profile.
const (
	sampleRows   = 10_000 // rows whose values decide the column types
	shownRows    = 5      // rows kept in FileProfile.Sample
	maxColumns   = 1_000  // columns profiled; wider tables are cut
	maxCellRunes = 100    // a sample cell or example is cut to this length
	// maxNameBytes bounds a column name kept in memory: a key or a header
	// cell may be megabytes long.
	maxNameBytes = 1 << 10
)

// table accumulates the profile of rows that arrive one at a time, from any
// format.
type table struct {
	cols     []*colStats
	rows     int64 // data rows read
	sample   [][]string
	problems []string
	header   bool // the names came from a header row, not from keys
}

// newTable starts a table whose header row is names. Blank names become
// "Unnamed: i", as pandas names them, so the agent can refer to them.
func newTable(names []string) *table {
	t := &table{header: true}
	if len(names) > maxColumns {
		t.problemf("The table has %d columns. Only the first %d are profiled.", len(names), maxColumns)
		names = names[:maxColumns]
	}
	seen := map[string]bool{}
	for i, n := range names {
		n = strings.TrimSpace(columnName(n))
		if n == "" {
			n = fmt.Sprintf("Unnamed: %d", i)
		}
		if seen[n] {
			t.problemf("The column name “%s” appears more than once. Pandas will rename the copies “%s.1” and so on; "+
				"rename them in the file if that is confusing.", n, n)
		}
		seen[n] = true
		t.cols = append(t.cols, &colStats{name: n})
	}
	return t
}

// columnName cuts a name longer than maxNameBytes.
func columnName(n string) string {
	if len(n) <= maxNameBytes {
		return n
	}
	return strings.ToValidUTF8(n[:maxNameBytes], "") + "…"
}

func (t *table) problemf(format string, args ...any) {
	t.problems = append(t.problems, fmt.Sprintf(format, args...))
}

// sampling reports whether the next row still informs the column types.
func (t *table) sampling() bool { return t.rows < sampleRows }

// add takes a sampled row's values; missing trailing values count as missing.
func (t *table) add(vals []string) {
	t.rows++
	for i, c := range t.cols {
		v := ""
		if i < len(vals) {
			v = strings.TrimSpace(vals[i])
		}
		if naValues[v] {
			c.missing++
		} else {
			c.observe(v)
		}
	}
	if len(t.sample) < shownRows {
		row := make([]string, len(t.cols))
		for i := range row {
			if i < len(vals) {
				row[i] = truncate(vals[i], maxCellRunes)
			}
		}
		t.sample = append(t.sample, row)
	}
}

// count takes a row past the sample: only its missing cells are counted.
// It reads the n cells through field to spare the caller building strings.
func (t *table) count(n int, field func(int) []byte) {
	t.rows++
	for i, c := range t.cols {
		if i >= n || isMissing(field(i)) {
			c.missing++
		}
	}
}

// fill writes the table's findings into p.
func (t *table) fill(p *FileProfile) {
	p.Sample = t.sample
	p.Columns = make([]Column, len(t.cols))
	for i, c := range t.cols {
		p.Columns[i] = c.column(t.rows)
		if h := c.hint(); h != "" {
			t.problems = append(t.problems, h)
		}
		if p.Columns[i].Type != TypeInteger && p.Columns[i].Type != TypeNumber {
			continue
		}
		thou, dec := c.separators()
		if thou != 0 && p.Thousands == "" {
			p.Thousands = string(thou)
		}
		if dec == ',' {
			p.Decimal = ","
		}
	}
	if t.headerLooksLikeData() {
		t.problemf("The first row looks like data rather than column names. If the file has no header row, " +
			"tell the assistant so that the first row is not used as names.")
	}
	p.Problems = append(p.Problems, t.problems...)
}

// headerLooksLikeData reports whether every column name is a number or a
// date, the sign of a file without a header row.
func (t *table) headerLooksLikeData() bool {
	if !t.header || len(t.cols) == 0 {
		return false
	}
	for _, c := range t.cols {
		if !parseNumber(c.name).ok && parseDate(c.name, "") == "" {
			return false
		}
	}
	return true
}
