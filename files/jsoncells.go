package files

import (
	"encoding/json"
	"fmt"
)

// cell records the value raw of column name in the current record.
func (j *jsonScan) cell(name string, raw json.RawMessage, sample map[string]string) {
	name = columnName(name)
	i, ok := j.index[name]
	if !ok {
		if len(j.t.cols) >= maxColumns {
			return
		}
		i = len(j.t.cols)
		j.index[name] = i
		// Absent from every earlier record.
		j.t.cols = append(j.t.cols, &colStats{name: name, missing: j.t.rows - 1})
		j.present = append(j.present, false)
	}
	if string(raw) == "null" {
		return // counted as missing by countAbsent
	}
	j.present[i] = true
	c := j.t.cols[i]
	if c.seen >= sampleRows && sample == nil {
		return
	}
	v := string(raw)
	if raw[0] == '"' {
		_ = json.Unmarshal(raw, &v)
	}
	if c.seen < sampleRows {
		c.observe(v)
	}
	if sample != nil {
		sample[name] = truncate(v, maxCellRunes)
	}
}

// countAbsent counts the columns the current record lacks, or has as null.
func (j *jsonScan) countAbsent() {
	for i, c := range j.t.cols {
		if !j.present[i] {
			c.missing++
		}
	}
}

// finish fills p from the scan: columns in first-seen order and the sample.
func (j *jsonScan) finish(p *FileProfile) {
	if len(j.index) >= maxColumns {
		j.t.problemf("The records have more than %d different keys. Only the first %d are profiled.", maxColumns, maxColumns)
	}
	for _, s := range j.samples {
		row := make([]string, len(j.t.cols))
		for i, c := range j.t.cols {
			row[i] = s[c.name]
		}
		j.t.sample = append(j.t.sample, row)
	}
	if p.Format == "jsonl" && j.t.rows == 1 && p.RowsExact {
		p.Format = "json"
		j.t.problemf("The file holds a single JSON object, not a list of records. Its top-level keys are shown as columns.%s",
			j.listHint())
	}
	p.Rows = j.t.rows
	j.t.fill(p)
}

// listHint points at a key whose value is a list, often where the records
// of a single-object file really are.
func (j *jsonScan) listHint() string {
	for _, c := range j.t.cols {
		if len(c.example) > 0 && c.example[0] == '[' {
			return fmt.Sprintf(" The records may be the list under “%s”.", c.name)
		}
	}
	return ""
}
