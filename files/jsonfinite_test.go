package files

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestNonFinite reads Python's non-finite numbers as null outside strings
// and leaves every other byte as it was, across any read size.
func TestNonFinite(t *testing.T) {
	in := `[{"a": NaN, "b": -Infinity, "c": Infinity, "s": "NaN \"Infinity\" -Infinity", "n": -5, "i": "In"}]`
	want := `[{"a": null, "b": null, "c": null, "s": "NaN \"Infinity\" -Infinity", "n": -5, "i": "In"}]`
	for _, size := range []int{1, 3, 4, 7, 512} {
		nf := &nonFinite{r: bufio.NewReaderSize(strings.NewReader(in), 16)}
		var got strings.Builder
		buf := make([]byte, size)
		for {
			n, err := nf.Read(buf)
			got.Write(buf[:n])
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if got.String() != want {
			t.Errorf("read %d bytes at a time:\n%s\nwant\n%s", size, got.String(), want)
		}
	}
}
