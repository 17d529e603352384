package files

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeHugeLine writes pre, then fill repeated to about size bytes on one
// line, then post, and returns the file's path.
func writeHugeLine(t testing.TB, name, pre, fill, post string, size int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(pre)
	chunk := strings.Repeat(fill, (1<<20)/len(fill))
	for range size / len(chunk) {
		w.WriteString(chunk)
	}
	w.WriteString(post)
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestProfile_HugeLineInBoundedMemory profiles files whose one line is
// 256 MB: the profiler must read them as a stream, never the line whole,
// and say what it could not describe.
func TestProfile_HugeLineInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 256 MB files")
	}
	const size, maxGrowth = 256 << 20, 64 << 20
	tests := []struct {
		name, pre, fill, post string
		want                  string // in the profile's problems, or in the refusal
	}{
		{"fields.csv", "a,b\n", "1234567,", "\n", "longer than 1 MB"},
		{"header.csv", "", "abcdefg,", "\n1,2\n", "Only the first 1000 are profiled"},
		{"string.json", `[{"a": "`, "x", `"}]`, "value under “a” is larger than 4 MB"},
		{"records.json", `{"data": [`, `{"a":1},`, `{"a":1}]}`, "value under “data” is larger than 4 MB"},
		{"keys.json", `[{"`, "k", `": 1}]`, "value larger than 4 MB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeHugeLine(t, tt.name, tt.pre, tt.fill, tt.post, size)
			var p *FileProfile
			var err error
			grew := peakHeap(func() { p, err = Profile(context.Background(), path, mustKind(t, filepath.Ext(tt.name))) })
			t.Logf("heap grew by %.1f MiB at most", float64(grew)/(1<<20))
			if grew > maxGrowth {
				t.Errorf("heap grew by %d MiB, want at most %d", grew>>20, maxGrowth>>20)
			}
			var said string
			var ue *UserError
			switch {
			case errors.As(err, &ue):
				said = ue.Msg
			case err != nil:
				t.Fatal(err)
			default:
				said = strings.Join(p.Problems, " ")
			}
			if !strings.Contains(said, tt.want) {
				t.Errorf("told %q, want it to say %q", said, tt.want)
			}
		})
	}
}
