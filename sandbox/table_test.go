package sandbox

import (
	"encoding/json"
	"testing"
)

// tablePayload is the table form of a DataFrame result (worker.py).
type tablePayload struct {
	Index        []string `json:"index"`
	Columns      []string `json:"columns"`
	Dtypes       []string `json:"dtypes"`
	Numeric      []bool   `json:"numeric"`
	Rows         [][]any  `json:"rows"`
	TotalRows    int      `json:"total_rows"`
	TotalColumns int      `json:"total_columns"`
}

func tableOf(t *testing.T, s *Session, code string) tablePayload {
	t.Helper()
	r := runOK(t, s, code)
	if r.Value == nil || r.Value.Table == "" {
		t.Fatalf("no table for %q: %+v", firstLine(code), r.Value)
	}
	var p tablePayload
	if err := json.Unmarshal([]byte(r.Value.Table), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// DataFrame and Series results come with a table form: the first rows, the
// totals, and JSON numbers and nulls, within a bound on cells.
func TestSession_TablePayload(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "import pandas as pd, numpy as np")

	t.Run("a million rows give the first ones and the total", func(t *testing.T) {
		p := tableOf(t, s, "pd.DataFrame({'a': np.arange(1_000_000), 'b': np.arange(1_000_000) / 2})")
		if p.TotalRows != 1_000_000 || len(p.Rows) != 1000 || p.Rows[999][0] != 999.0 || p.Rows[1][2] != 0.5 {
			t.Fatalf("total %d, %d rows, last %v", p.TotalRows, len(p.Rows), p.Rows[len(p.Rows)-1])
		}
		if !p.Numeric[0] || p.Dtypes[0] != "int64" || p.Columns[1] != "b" {
			t.Fatalf("columns %v %v %v", p.Columns, p.Dtypes, p.Numeric)
		}
	})
	t.Run("a wide frame is cut to its first columns and fewer rows", func(t *testing.T) {
		p := tableOf(t, s, "pd.DataFrame(np.zeros((2000, 300)))")
		if p.TotalColumns != 300 || len(p.Columns) != 100 || len(p.Rows) != 500 || len(p.Rows[0]) != 101 {
			t.Fatalf("%d/%d columns, %d rows of %d cells", len(p.Columns), p.TotalColumns, len(p.Rows), len(p.Rows[0]))
		}
	})
	t.Run("a MultiIndex keeps its levels", func(t *testing.T) {
		p := tableOf(t, s, "df = pd.DataFrame({'r': ['N','N','S'], 'y': [1, 2, 1], 'v': [1.5, None, 3]})\ndf.set_index(['r', 'y'])")
		if len(p.Index) != 2 || p.Index[0] != "r" || p.Rows[0][0] != "N" || p.Rows[0][1] != 1.0 || p.Rows[1][2] != nil {
			t.Fatalf("index %v rows %v", p.Index, p.Rows)
		}
	})
	t.Run("MultiIndex columns read as one label", func(t *testing.T) {
		p := tableOf(t, s, "df.groupby('r').agg({'v': ['mean', 'max']})")
		if p.Columns[0] != "v / mean" || p.Index[0] != "r" {
			t.Fatalf("columns %v", p.Columns)
		}
	})
	t.Run("a Series is a one-column table", func(t *testing.T) {
		p := tableOf(t, s, "df['v'].describe()")
		if len(p.Columns) != 1 || p.Columns[0] != "v" || p.TotalRows != 8 || p.Rows[0][0] != "count" {
			t.Fatalf("series %+v", p)
		}
	})
	if r := runOK(t, s, "41 + 1"); r.Value.Table != "" {
		t.Fatalf("a number has a table: %q", r.Value.Table)
	}
}
