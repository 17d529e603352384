package files

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

func columnNames(p *FileProfile) []string {
	var names []string
	for _, c := range p.Columns {
		names = append(names, c.Name)
	}
	return names
}

func TestProfileJSON(t *testing.T) {
	tests := []struct {
		name        string
		text        string
		wantFormat  string
		wantRows    int64
		wantColumns []string
		wantProblem string
	}{
		{"array of objects", `[{"id":1,"name":"a","when":"2024-01-02"},{"id":2,"name":null,"score":1.5},{"id":3}]`,
			"json", 3, []string{"id", "name", "when", "score"}, ""},
		{"json lines", "{\"id\":1,\"ok\":true}\n{\"id\":2,\"ok\":false}\n\n{\"id\":3}\n",
			"jsonl", 3, []string{"id", "ok"}, ""},
		{"array of arrays", `[[1,"a"],[2,"b"]]`, "json", 2, []string{"0", "1"}, ""},
		{"array of scalars", `[1, 2, 3]`, "json", 3, []string{"value"}, ""},
		{"single object", `{"source":"x","data":[{"a":1}]}`, "json", 1, []string{"source", "data"},
			"The records may be the list under “data”."},
		{"malformed after two records", `[{"a":1},{"a":2},{"a":]`, "json", 2, []string{"a"}, "malformed after record 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileOf(t, "r.json", []byte(tt.text))
			if p.Format != tt.wantFormat || p.Rows != tt.wantRows || !slices.Equal(columnNames(p), tt.wantColumns) {
				t.Errorf("format %q rows %d columns %q; want %q, %d, %q", p.Format, p.Rows, columnNames(p), tt.wantFormat, tt.wantRows, tt.wantColumns)
			}
			if tt.wantProblem != "" && !hasProblem(p, tt.wantProblem) {
				t.Errorf("problems %q lack %q", p.Problems, tt.wantProblem)
			}
			for _, pr := range p.Problems {
				checkSentences(t, pr)
			}
		})
	}
}

func TestProfileJSONColumns(t *testing.T) {
	p := profileOf(t, "r.json", []byte(`[{"id":1,"name":"a","when":"2024-01-02","ok":true},`+
		`{"id":2,"name":null,"score":1.5,"ok":false},{"id":3,"tags":["x"]}]`))
	tests := []struct {
		col     string
		typ     string
		missing int64
	}{
		{"id", TypeInteger, 0}, {"name", TypeText, 2}, {"when", TypeDate, 2},
		{"ok", TypeBoolean, 1}, {"score", TypeNumber, 2}, {"tags", TypeText, 2},
	}
	for _, tt := range tests {
		c := column(t, p, tt.col)
		if c.Type != tt.typ || c.Missing != tt.missing {
			t.Errorf("column %s: %s, %d missing; want %s, %d", tt.col, c.Type, c.Missing, tt.typ, tt.missing)
		}
	}
	if want := []string{"1", "a", "2024-01-02", "true", "", ""}; !slices.Equal(p.Sample[0], want) {
		t.Errorf("sample row = %q, want %q", p.Sample[0], want)
	}
}

func TestProfileJSONRefused(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"not records", `"just a string"`, "doesn't hold records"},
		{"broken at the start", `[{"a":}]`, "isn't valid JSON"},
		{"only whitespace", "  \n ", "doesn't hold records"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTemp(t, "r.json", []byte(tt.text))
			k, _ := KindOf("r.json")
			_, err := Profile(context.Background(), path, k)
			var ue *UserError
			if !errors.As(err, &ue) || !errors.Is(err, ErrUnreadable) || !strings.Contains(ue.Msg, tt.want) {
				t.Fatalf("Profile error = %v, want a user error with %q", err, tt.want)
			}
			checkSentences(t, ue.Msg)
		})
	}
}

// TestProfileJSONPastSample covers records read after the sample, which
// take a faster path: missing values still count, and a key first seen
// there still becomes a typed column.
func TestProfileJSONPastSample(t *testing.T) {
	var b strings.Builder
	for i := range sampleRows + 100 {
		switch {
		case i >= sampleRows+50:
			fmt.Fprintf(&b, "{\"id\":%d,\"late\":\"2024-01-02\"}\n", i)
		case i%2 == 0:
			fmt.Fprintf(&b, "{\"id\":%d,\"x\":null}\n", i)
		default:
			fmt.Fprintf(&b, "{\"id\":%d,\"x\":1.5}\n", i)
		}
	}
	b.WriteString("[1, 2]\n")
	p := profileOf(t, "r.json", []byte(b.String()))
	if p.Rows != sampleRows+101 || !p.RowsExact {
		t.Errorf("rows = %d exact %v, want %d", p.Rows, p.RowsExact, sampleRows+101)
	}
	x, late := column(t, p, "x"), column(t, p, "late")
	// x is null in every other record of the first sampleRows+50 and absent
	// from the next 50; the final array record counts as having every column.
	if want := int64((sampleRows+50)/2 + 50); x.Missing != want || x.Type != TypeNumber {
		t.Errorf("x: %s, %d missing; want number, %d", x.Type, x.Missing, want)
	}
	if want := int64(sampleRows + 50); late.Missing != want || late.Type != TypeDate {
		t.Errorf("late: %s, %d missing; want date, %d", late.Type, late.Missing, want)
	}
}

func TestValueCap(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr error
	}{
		{"many small values", strings.Repeat(`{"a":"0123456789"} `, 1000), nil},
		{"one value over the cap", `{"a":"` + strings.Repeat("x", 100_000) + `"}`, errValueTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vc := &valueCap{r: strings.NewReader(tt.in), max: 4 << 10}
			dec := json.NewDecoder(vc)
			vc.dec = dec
			var err error
			for err == nil {
				var v json.RawMessage
				err = dec.Decode(&v)
			}
			if errors.Is(err, io.EOF) {
				err = nil
			}
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("decode error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
