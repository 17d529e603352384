package analyst

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shapesDir holds the files that the file card (files.TestShapes) and the
// loader must read alike, with their specification.
var shapesDir = filepath.Join("..", "..", "files", "testdata", "shapes")

// TestShapes_Sandbox loads every file of the shared specification in the
// sandbox and checks the loader reads each as the card does: the same rows,
// column names and number columns.
func TestShapes_Sandbox(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(shapesDir, "shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var shapes map[string]struct {
		Why     string   `json:"why"`
		Rows    int      `json:"rows"`
		Columns []string `json:"columns"`
		Numbers []string `json:"numbers"`
	}
	if err := json.Unmarshal(data, &shapes); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sess, err := sharedPool(t).Session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var names []string
	for name := range shapes {
		body, err := os.ReadFile(filepath.Join(shapesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.PutFile(ctx, name, bytes.NewReader(body)); err != nil {
			t.Fatal(err)
		}
		names = append(names, "'"+name+"'")
	}
	r, err := sess.Exec(ctx, "FILES = ["+strings.Join(names, ", ")+"]\n"+loaderPy+`
print("SHAPES", json.dumps({k: [len(d), [str(c) for c in d.columns],
      [str(c) for c in d.columns if pd.api.types.is_numeric_dtype(d[c])]] for k, d in frames.items()}))`)
	if err != nil || r.Error != nil {
		t.Fatalf("the loader failed: %v %+v", err, r.Error)
	}
	_, line, _ := strings.Cut(r.Stdout, "SHAPES ")
	var got map[string][3]json.RawMessage
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("no shapes in the loader's output: %v\n%s", err, r.Stdout)
	}
	for name, want := range shapes {
		var rows int
		var cols, numbers []string
		g, ok := got[name]
		if !ok || json.Unmarshal(g[0], &rows) != nil || json.Unmarshal(g[1], &cols) != nil || json.Unmarshal(g[2], &numbers) != nil {
			t.Errorf("%s (%s) was not loaded:\n%s", name, want.Why, r.Stdout)
			continue
		}
		if rows != want.Rows || !slices.Equal(cols, want.Columns) {
			t.Errorf("%s (%s): the loader reads %d rows of %q, want %d of %q", name, want.Why, rows, cols, want.Rows, want.Columns)
		}
		slices.Sort(numbers)
		slices.Sort(want.Numbers)
		if !slices.Equal(numbers, want.Numbers) {
			t.Errorf("%s (%s): the loader reads %q as numbers, want %q", name, want.Why, numbers, want.Numbers)
		}
	}
}
