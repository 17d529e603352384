package analyst

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/files"
)

// TestFileCardAgreesWithTheLoader is issue 15's "one file loader": for
// every fixture, the upload's profile (the file card) and the built-in
// analyst's loader (its golden profile, printed in the real sandbox) find
// the same rows and columns.
func TestFileCardAgreesWithTheLoader(t *testing.T) {
	goldens, err := filepath.Glob("testdata/profiles/*.json")
	if err != nil || len(goldens) == 0 {
		t.Fatalf("no golden profiles: %v", err)
	}
	checked := 0
	for _, g := range goldens {
		var p Profile
		b, _ := os.ReadFile(g)
		if err := json.Unmarshal(b, &p); err != nil {
			t.Fatalf("%s: %v", g, err)
		}
		for _, fr := range p.Frames {
			if fr.Sheet != "" && !strings.HasSuffix(fr.Key, ":"+firstSheet(p, fr.File)) {
				continue // the card profiles a workbook's first sheet
			}
			path := filepath.Join("testdata", fr.File)
			head, _ := os.ReadFile(path)
			kind, err := files.Check(fr.File, head[:min(len(head), 4096)])
			if err != nil {
				t.Fatalf("%s: %v", fr.File, err)
			}
			card, err := files.Profile(context.Background(), path, kind)
			if err != nil {
				t.Fatalf("%s: %v", fr.File, err)
			}
			if card.Rows != int64(fr.Rows) || len(card.Columns) != len(fr.Columns) {
				t.Errorf("%s: the file card says %d × %d, the analyst's loader %d × %d", fr.Key, card.Rows, len(card.Columns), fr.Rows, len(fr.Columns))
			}
			checked++
		}
	}
	if checked < 8 {
		t.Fatalf("only %d frames checked", checked)
	}
}

// firstSheet is the first sheet the loader found in a workbook.
func firstSheet(p Profile, file string) string {
	for _, fr := range p.Frames {
		if fr.File == file {
			return fr.Sheet
		}
	}
	return ""
}
