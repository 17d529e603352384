package files

import (
	"slices"
	"strings"
	"testing"
)

// TestKinds_FoundryTypes holds the table of kinds to the Code Interpreter
// article: every type it lists is a listed kind sent with the article's MIME
// type, and exactly six kinds are the app's own additions.
func TestKinds_FoundryTypes(t *testing.T) {
	t.Parallel()
	for ext, mime := range codeInterpreterTypes {
		k, ok := KindOf("x" + ext)
		if !ok || !k.Listed || k.FoundryMIME != mime {
			t.Errorf("KindOf(x%s) = %+v, %v; want a listed kind sent as %s", ext, k, ok, mime)
		}
	}
	var unlisted []string
	for _, k := range Kinds() {
		if !k.Listed {
			unlisted = append(unlisted, k.Ext)
			if k.FoundryMIME != k.MIME {
				t.Errorf("%s is unlisted but sent as %s, not its own %s", k.Ext, k.FoundryMIME, k.MIME)
			}
		}
	}
	slices.Sort(unlisted)
	if want := []string{".cs", ".doc", ".parquet", ".sh", ".tsv", ".xls"}; !slices.Equal(unlisted, want) {
		t.Errorf("unlisted kinds %v, want %v", unlisted, want)
	}
}

// TestKinds_BrowserTypeKept: what the app stores and serves stays the type
// browsers know, whatever Foundry is sent.
func TestKinds_BrowserTypeKept(t *testing.T) {
	t.Parallel()
	k, _ := KindOf("a.csv")
	if k.MIME != "text/csv" || k.FoundryMIME != "application/csv" {
		t.Errorf(".csv: MIME %q, FoundryMIME %q; want text/csv and application/csv", k.MIME, k.FoundryMIME)
	}
}

func TestFoundryContentType(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, want string }{
		{"sales.CSV", "application/csv"},
		{"app.ts", "application/typescript"}, // not Qt Linguist, as some hosts' MIME database says
		{"script.py", "text/x-python"},
		{"deck.pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation"},
		{"data.tsv", "text/tab-separated-values"},
		{"archive.tar.gz", "application/octet-stream"},
		{"README", "application/octet-stream"},
	}
	for _, tt := range tests {
		if got := FoundryContentType(tt.name); got != tt.want {
			t.Errorf("FoundryContentType(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestUnlistedNotice(t *testing.T) {
	t.Parallel()
	got := UnlistedNotice("Q3 results.TSV")
	want := "A .tsv file is not in the Code Interpreter's list of supported types; Foundry may refuse it or read it as plain text. " +
		"Save it as .csv if the answer cannot read it."
	if got != want {
		t.Errorf("UnlistedNotice(.TSV) = %q, want %q", got, want)
	}
	if got := UnlistedNotice("old.xls"); !strings.Contains(got, "Save it as .xlsx") {
		t.Errorf("UnlistedNotice(.xls) = %q, want the advice to save as .xlsx", got)
	}
	for _, name := range []string{"sales.csv", "book.xlsx", "notes.txt", "tool.exe", "README"} {
		if got := UnlistedNotice(name); got != "" {
			t.Errorf("UnlistedNotice(%q) = %q, want none", name, got)
		}
	}
}

// TestUnlistedNotice_EveryUnlistedKind: each unlisted kind names a listed
// type to save as, so no notice ends with an empty suggestion.
func TestUnlistedNotice_EveryUnlistedKind(t *testing.T) {
	t.Parallel()
	for _, k := range Kinds() {
		if k.Listed {
			continue
		}
		instead, ok := KindOf("x" + listedInstead[k.Ext])
		if !ok || !instead.Listed {
			t.Errorf("%s: suggests %q, which is no listed kind", k.Ext, listedInstead[k.Ext])
		}
	}
}

// TestUploadNotice: the local engine names the two kinds it keeps but cannot read; Foundry
// names the kinds outside the article's table; a listed kind needs no word on either.
func TestUploadNotice(t *testing.T) {
	for _, tc := range []struct {
		name  string
		local bool
		want  string
	}{
		{"old.doc", true, "save it as .docx"},
		{"t.parquet", true, "no Parquet reader"},
		{"t.tsv", true, ""},
		{"t.csv", true, ""},
		{"t.tsv", false, "not in the Code Interpreter's list"},
		{"t.csv", false, ""},
		{"deck.pptx", false, ""},
	} {
		got := UploadNotice(tc.name, tc.local)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("UploadNotice(%q, local=%v) = %q, want %q", tc.name, tc.local, got, tc.want)
		}
	}
}
