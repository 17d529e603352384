package chat

import (
	"regexp"
	"strconv"
	"strings"
)

// Frames printed as text (by a model's code on Foundry, or by print(df))
// have no table form; ParseFrameText reads the usual pandas layouts back:
// a DataFrame (a header line of right-aligned column names, then rows of
// an index and right-aligned values, maybe a "[N rows x M columns]"
// footer) and a Series (rows of index and value, then a "Name: …, dtype: …"
// or "dtype: …" line). Anything it is not sure of stays text.

var (
	frameFooter  = regexp.MustCompile(`^\[(\d+) rows x (\d+) columns\]$`)
	seriesFooter = regexp.MustCompile(`^(?:Name: (.*), )?(?:Length: (\d+), )?dtype: (\w+)$`)
)

// ParseFrameText reads a block of lines as a pandas DataFrame or Series.
func ParseFrameText(block string) (*Table, bool) {
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	if len(lines) < 2 {
		return nil, false
	}
	if m := seriesFooter.FindStringSubmatch(lines[len(lines)-1]); m != nil {
		return parseSeries(lines[:len(lines)-1], m[1], m[2], m[3])
	}
	total := 0
	if m := frameFooter.FindStringSubmatch(lines[len(lines)-1]); m != nil {
		total, _ = strconv.Atoi(m[1])
		lines = lines[:len(lines)-1]
		if len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
	}
	return parseFrame(lines, total)
}

// column is a header name and where it ends in the line.
type column struct {
	name string
	end  int
}

func parseFrame(lines []string, total int) (*Table, bool) {
	if len(lines) < 2 {
		return nil, false
	}
	header, rows, indexName := lines[0], lines[1:], ""
	if name, ok := indexNameLine(rows[0], header); ok {
		// A named index has its own line under the header, whose first
		// word is then the name of the columns (a pivot's "region").
		indexName, rows = name, rows[1:]
		if word := strings.IndexByte(header, ' '); word > 0 {
			header = strings.Repeat(" ", word) + header[word:]
		}
	}
	cols := headerColumns(header)
	if len(cols) == 0 || len(rows) == 0 {
		return nil, false
	}
	t := &Table{Index: []string{indexName}, TotalRows: total}
	for _, c := range cols {
		t.Columns = append(t.Columns, c.name)
	}
	for _, line := range rows {
		row, ok := frameRow(line, cols)
		if !ok {
			return nil, false
		}
		if row != nil {
			t.Rows = append(t.Rows, row)
		}
	}
	if len(t.Rows) == 0 {
		return nil, false
	}
	finishTable(t, len(cols))
	return t, true
}

// indexNameLine reports whether line is the line pandas prints under the
// header of a frame with a named index: the name, then only spaces to the
// header's width, the name no wider than the index column.
func indexNameLine(line, header string) (string, bool) {
	name := strings.TrimRight(line, " ")
	if name == "" || strings.HasPrefix(name, " ") || len(line) != len(header) || len(name) == len(line) ||
		strings.Contains(name, "  ") {
		return "", false // pandas pads the name's line to the header's width
	}
	first := strings.IndexFunc(header, func(r rune) bool { return r != ' ' })
	if strings.HasPrefix(header, " ") && len(name) > first {
		return "", false
	}
	return name, true
}

// headerColumns reads the names of a header line, which pandas indents past
// the index and right-aligns over their values.
func headerColumns(line string) []column {
	if !strings.HasPrefix(line, " ") {
		return nil
	}
	var cols []column
	for i := 0; i < len(line); {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' {
			j++
		}
		if j > i {
			cols = append(cols, column{name: line[i:j], end: j})
		}
		i = j
	}
	return cols
}

// frameRow reads one row: the index, then each value ending where its
// column's name ends. A row of dots (pandas cut rows out) is skipped (nil).
func frameRow(line string, cols []column) ([]any, bool) {
	if strings.Trim(line, " .") == "" {
		return nil, true
	}
	if len(line) > cols[len(cols)-1].end {
		return nil, false
	}
	line += strings.Repeat(" ", cols[len(cols)-1].end-len(line))
	first := strings.LastIndex(strings.TrimRight(line[:cols[0].end], " "), " ")
	if first <= 0 {
		return nil, false
	}
	index := strings.TrimSpace(line[:first])
	if index == "" {
		return nil, false
	}
	row := []any{index}
	start := first
	for _, c := range cols {
		cell := line[start:c.end]
		if c.end < len(line) && line[c.end] != ' ' {
			return nil, false // a value runs past its column
		}
		row = append(row, cellValue(strings.TrimSpace(cell)))
		start = c.end
	}
	return row, true
}

func parseSeries(lines []string, name, length, dtype string) (*Table, bool) {
	if name == "" {
		name = "value"
	}
	t := &Table{Index: []string{""}, Columns: []string{name}, Dtypes: []string{dtype}}
	if len(lines) > 1 && lines[0] != "" && !strings.ContainsAny(strings.TrimSpace(lines[0]), " ") && strings.Contains(lines[1], " ") {
		t.Index[0], lines = strings.TrimSpace(lines[0]), lines[1:] // a named index's name, alone on its line
	}
	for _, line := range lines {
		if strings.Trim(line, " .") == "" {
			continue
		}
		i := strings.LastIndex(strings.TrimRight(line, " "), " ")
		if i <= 0 || strings.TrimSpace(line[:i]) == "" {
			return nil, false
		}
		t.Rows = append(t.Rows, []any{strings.TrimSpace(line[:i]), cellValue(strings.TrimSpace(line[i:]))})
	}
	if len(t.Rows) == 0 {
		return nil, false
	}
	t.TotalRows, _ = strconv.Atoi(length)
	finishTable(t, 1)
	t.Dtypes = []string{dtype}
	return t, true
}

// cellValue reads a printed value: numbers as numbers, NaN as missing.
func cellValue(s string) any {
	switch s {
	case "NaN", "NaT", "<NA>", "None":
		return nil
	}
	if f, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64); err == nil && !strings.ContainsAny(s, "xX") {
		return f
	}
	return s
}

// finishTable sets which columns are numeric and the totals not printed.
func finishTable(t *Table, ncols int) {
	t.Numeric = make([]bool, ncols)
	for j := range ncols {
		numeric, seen := true, 0
		for _, row := range t.Rows {
			switch row[j+1].(type) {
			case float64:
				seen++
			case nil:
			default:
				numeric = false
			}
		}
		t.Numeric[j] = numeric && seen > 0
	}
	if t.TotalRows == 0 {
		t.TotalRows = len(t.Rows)
	}
	t.TotalColumns = ncols
}
