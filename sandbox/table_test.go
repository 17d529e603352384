package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
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
// totals, and JSON numbers and nulls, within a bound on cells. Its pool
// gives cells two minutes: writing the million-row frame's CSV outlasts the
// shared pool's 20 s on a loaded machine.
func TestSession_TablePayload(t *testing.T) {
	cfg := sharedConfig()
	cfg.Warm, cfg.CellTimeout = 1, 2*time.Minute
	s := openSession(t, newTestPool(t, cfg))
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
	t.Run("dates with no time of day are written as dates", func(t *testing.T) {
		p := tableOf(t, s, `pd.DataFrame({"day": pd.to_datetime(["2024-01-01", None]),
    "at": pd.to_datetime(["2024-01-01 10:30", "2024-01-02"])}, index=pd.date_range("2024-01-31", periods=2, freq="M"))`)
		want := [][]any{{"2024-01-31", "2024-01-01", "2024-01-01 10:30:00"}, {"2024-02-29", nil, "2024-01-02 00:00:00"}}
		for i, row := range want {
			for j, cell := range row {
				if p.Rows[i][j] != cell {
					t.Fatalf("rows %v, want %v (a column with a time of day keeps it on every row)", p.Rows, want)
				}
			}
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

// A table result cut to fit the payload is written whole as a CSV file,
// listed with the cell's files and named in the payload; one that fits
// gets none, and one whose CSV would pass the cap says so instead.
func TestSession_TableFullCSV(t *testing.T) {
	s := openSession(t, sharedPool(t))
	runOK(t, s, "import pandas as pd, numpy as np")
	r := runOK(t, s, "pd.DataFrame({'a': np.arange(50_000), 'b': np.arange(50_000) / 4})")
	var p struct {
		Rows     [][]any `json:"rows"`
		CSV      string  `json:"csv"`
		CSVBytes int64   `json:"csv_bytes"`
	}
	if err := json.Unmarshal([]byte(r.Value.Table), &p); err != nil || p.CSV == "" || len(p.Rows) != 1000 {
		t.Fatalf("payload %.200s (err %v)", r.Value.Table, err)
	}
	if len(r.Files) != 1 || r.Files[0].Name != p.CSV || r.Files[0].Size != p.CSVBytes {
		t.Fatalf("files %+v, payload names %q (%d bytes)", r.Files, p.CSV, p.CSVBytes)
	}
	b, err := s.GetFile(context.Background(), p.CSV)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 50_001 || lines[0] != ",a,b" || lines[50_000] != "49999,49999,12499.75" {
		t.Fatalf("%d lines, first %q, last %q", len(lines), lines[0], lines[len(lines)-1])
	}

	small := runOK(t, s, "pd.DataFrame({'a': [1, 2]})")
	if strings.Contains(small.Value.Table, `"csv"`) || len(small.Files) != 0 {
		t.Fatalf("a small table got a CSV: %s %+v", small.Value.Table, small.Files)
	}

	// The shared pool's /mnt/data is 64 MiB: half of it is the cap here.
	big := runOK(t, s, "pd.DataFrame({'t': ['x' * 200] * 400_000})")
	if !strings.Contains(big.Value.Table, `"csv_note": "The full result is over`) || len(big.Files) != 0 {
		t.Fatalf("too big a CSV: %.300s, files %+v", big.Value.Table[len(big.Value.Table)-300:], big.Files)
	}

	// Only the latest few are kept in the session's memory.
	for range 4 {
		runOK(t, s, "pd.DataFrame({'a': np.arange(2000)})")
	}
	files, err := s.ListFiles(context.Background())
	if err != nil || len(files) != 3 {
		t.Fatalf("kept %+v (err %v)", files, err)
	}
}
