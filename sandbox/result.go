package sandbox

import (
	"bytes"
	"encoding/json"
	"image/png"
	"time"
	"unicode/utf8"
)

// Result is what one cell produced. A Python exception is reported in Error,
// not as Exec's error.
type Result struct {
	Stdout    string
	Stderr    string
	Error     *ExecError // the exception the cell raised, if any
	Value     *Value     // the cell's trailing expression, if not None
	Figures   []Figure   // every figure open at the end of the cell or shown in it
	Files     []FileInfo // files in /mnt/data created or changed by the cell
	Truncated bool       // output, figures, the value or the error were cut at the caps (a marker is in the text)
	TimedOut  bool       // the cell hit Config.CellTimeout and was interrupted; state is kept
	Duration  time.Duration
	// Restored is set on the first cell after the session was evicted and
	// restored: what came back and what could not.
	Restored *RestoreReport
	// Reports are what the cell's code told the engine with wb_report, in
	// order: out of band, never in Stdout, so that nothing a cell prints is
	// taken for one.
	Reports []Report
}

// Report is one wb_report(kind, body) call of a cell: its kind and its body
// as JSON.
type Report struct {
	Kind string          `json:"kind"`
	Body json.RawMessage `json:"body"`
}

// Value is the rendering of a cell's trailing expression.
type Value struct {
	Text string // repr()
	HTML string // _repr_html_(), e.g. for DataFrames; may be empty
	// Table is a DataFrame or Series as JSON (see table_payload in
	// worker.py): index names, columns, dtypes, numeric flags, the first
	// rows, total_rows and total_columns. Empty for other values.
	Table string
}

// Figure is one matplotlib figure rendered as PNG.
type Figure struct {
	PNG           []byte
	Width, Height int // pixels
}

// FileInfo describes a regular file in /mnt/data; Name is relative to it.
type FileInfo struct {
	Name    string
	Size    int64
	ModTime time.Time
}

// truncatedMarker is appended to output cut at Config.MaxOutputBytes.
const truncatedMarker = "\n[sandbox: output truncated at the per-cell limit]\n"

func newFigure(b []byte) Figure {
	f := Figure{PNG: b}
	if cfg, err := png.DecodeConfig(bytes.NewReader(b)); err == nil {
		f.Width, f.Height = cfg.Width, cfg.Height
	}
	return f
}

func fileInfos(ws []wireFile) []FileInfo {
	out := make([]FileInfo, 0, len(ws))
	for _, w := range ws {
		out = append(out, FileInfo{Name: w.Name, Size: w.Size, ModTime: time.Unix(0, w.MtimeNS).UTC()})
	}
	return out
}

// capBytes cuts s to at most n bytes at a rune boundary.
func capBytes(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}
