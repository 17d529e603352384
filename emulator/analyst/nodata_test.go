package analyst

import (
	"fmt"
	"testing"
)

// TestNoDataReply_StableOrder: the files that could not be read are named
// in order of name, the same on every call, though they come in a map.
func TestNoDataReply_StableOrder(t *testing.T) {
	t.Parallel()
	p := &Profile{Failed: map[string]string{}}
	for i := range 20 {
		p.Failed[fmt.Sprintf("file_%02d.csv", 19-i)] = "UnicodeDecodeError: not text"
	}
	want := "None of the files could be loaded as a table."
	for i := range 20 {
		want += fmt.Sprintf("\n- file_%02d.csv: UnicodeDecodeError: not text", i)
	}
	for range 50 { // a map's order changes from one range to the next
		if got := noDataReply(p); got != want {
			t.Fatalf("noDataReply =\n%s\nwant\n%s", got, want)
		}
	}
}
