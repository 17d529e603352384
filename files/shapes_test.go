package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Shape is what a file of testdata/shapes must read as, by the file card
// here and by the built-in analyst's loader (emulator/analyst's
// TestShapes_Sandbox reads the same files and spec): one specification for
// the two readers, so that a card and an answer never disagree.
type Shape struct {
	Why     string   `json:"why"`
	Rows    int64    `json:"rows"`
	Columns []string `json:"columns"`
	Numbers []string `json:"numbers"` // the columns read as numbers
}

func readShapes(t *testing.T) map[string]Shape {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "shapes", "shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var shapes map[string]Shape
	if err := json.Unmarshal(data, &shapes); err != nil {
		t.Fatal(err)
	}
	return shapes
}

func TestShapes(t *testing.T) {
	for name, want := range readShapes(t) {
		t.Run(name, func(t *testing.T) {
			k, _ := KindOf(name)
			p, err := Profile(context.Background(), filepath.Join("testdata", "shapes", name), k)
			if err != nil {
				t.Fatalf("%s (%s): %v", name, want.Why, err)
			}
			var cols, numbers []string
			for _, c := range p.Columns {
				cols = append(cols, c.Name)
				if c.Type == TypeInteger || c.Type == TypeNumber {
					numbers = append(numbers, c.Name)
				}
			}
			if p.Rows != want.Rows || !slices.Equal(cols, want.Columns) {
				t.Errorf("%s (%s): the card reads %d rows of %q, want %d of %q", name, want.Why, p.Rows, cols, want.Rows, want.Columns)
			}
			slices.Sort(numbers)
			slices.Sort(want.Numbers)
			if !slices.Equal(numbers, want.Numbers) {
				t.Errorf("%s (%s): the card reads %q as numbers, want %q", name, want.Why, numbers, want.Numbers)
			}
		})
	}
}
