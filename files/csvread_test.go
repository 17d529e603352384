package files

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
)

// readAll splits input into records with delim.
func readAll(t *testing.T, input string, delim byte) (*csvReader, [][]string) {
	t.Helper()
	r := newCSVReader(strings.NewReader(input), delim)
	var recs [][]string
	for {
		n, err := r.next()
		if errors.Is(err, io.EOF) {
			return r, recs
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r.strings(n))
	}
}

func TestCSVReader(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		delim byte
		want  [][]string
	}{
		{"plain", "a,b\n1,2\n", ',', [][]string{{"a", "b"}, {"1", "2"}}},
		{"no final newline", "a,b\n1,2", ',', [][]string{{"a", "b"}, {"1", "2"}}},
		{"crlf", "a,b\r\n1,2\r\n", ',', [][]string{{"a", "b"}, {"1", "2"}}},
		{"empty fields", ",\n1,\n", ',', [][]string{{"", ""}, {"1", ""}}},
		{"blank lines skipped", "a\n\n1\n\r\n2\n", ',', [][]string{{"a"}, {"1"}, {"2"}}},
		{"quoted delimiter", "\"x,y\",z\n", ',', [][]string{{"x,y", "z"}}},
		{"doubled quote", "\"say \"\"hi\"\"\",b\n", ',', [][]string{{"say \"hi\"", "b"}}},
		{"newline in quotes", "\"two\nlines\",b\nc,d\n", ',', [][]string{{"two\nlines", "b"}, {"c", "d"}}},
		{"quoted crlf end", "\"a\"\r\n\"b\"\r\n", ',', [][]string{{"a"}, {"b"}}},
		{"semicolon", "a;b,c\n", ';', [][]string{{"a", "b,c"}}},
		{"tab", "a\tb\n", '\t', [][]string{{"a", "b"}}},
		{"stray quote kept", "5'10\",tall\n", ',', [][]string{{"5'10\"", "tall"}}},
		{"text after closing quote", "\"a\"b,c\n", ',', [][]string{{"ab", "c"}}},
		{"unclosed quote", "a,\"b\nc,d\n", ',', [][]string{{"a", "b\nc,d\n"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, got := readAll(t, tt.in, tt.delim)
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("records = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCSVReaderFindings(t *testing.T) {
	r, _ := readAll(t, "h\n1\n\"open\n2\n3\n", ',')
	if r.unclosedQuote != 3 {
		t.Errorf("unclosedQuote = %d, want line 3", r.unclosedQuote)
	}
	r, _ = readAll(t, "h,i\n1,2\n3,x\"y\n", ',')
	if r.strayQuotes != 1 || r.strayLine != 3 {
		t.Errorf("stray quotes = %d at line %d, want 1 at line 3", r.strayQuotes, r.strayLine)
	}
	r, recs := readAll(t, "h\n"+strings.Repeat("x", maxRecordBytes+10)+"\nend\n", ',')
	if r.longRecords != 1 || r.longLine != 2 || len(recs) != 3 || recs[2][0] != "end" {
		t.Errorf("long records = %d at line %d, %d records; want 1 at line 2, 3 records", r.longRecords, r.longLine, len(recs))
	}
	if len(recs[1][0]) > maxRecordBytes {
		t.Errorf("long field kept %d bytes, want at most %d", len(recs[1][0]), maxRecordBytes)
	}
}

func TestSniffDelimiter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		text   string
		prefer byte
		want   byte
	}{
		{"comma", "a,b,c\n1,2,3\n4,5,6\n", ',', ','},
		{"semicolon", "a;b;c\n1;2;3\n", ',', ';'},
		{"semicolon with decimal commas", "name;price;qty\nx;1,5;2,25\ny;3,75;1,5\n", ',', ';'},
		{"tab", "a\tb\n1\t2\n", ',', '\t'},
		{"pipe", "a|b|c\n1|2|3\n", ',', '|'},
		{"commas inside quotes", "name;note\nx;\"a, b, c\"\ny;\"d\"\n", ',', ';'},
		{"one column", "value\n1\n2\n", ',', ','},
		{"one column tsv", "value\n1\n", '\t', '\t'},
		{"comma in a tsv", "a,b\tc\n1,2\t3\n", '\t', '\t'},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sniffDelimiter([]byte(tt.text), tt.prefer); got != tt.want {
				t.Errorf("sniffDelimiter = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCSVReaderBackslashEscapes: a file whose head escapes quotes with a
// backslash is read with escapes, as pandas reads it with escapechar: \"
// is a quote and the field goes on; a file that does not keeps its
// backslashes as text.
func TestCSVReaderBackslashEscapes(t *testing.T) {
	t.Parallel()
	in := "\"a\",\"b\"\n\"It's \\\"70MAX\\\", Final\",\"C:\\\\dir\"\n"
	if !backslashEscapes([]byte(in)) {
		t.Fatal("the head's \\\" was not seen")
	}
	r := newCSVReader(strings.NewReader(in), ',')
	r.escape = true
	var got [][]string
	for n, err := r.next(); err == nil; n, err = r.next() {
		got = append(got, r.strings(n))
	}
	if want := [][]string{{"a", "b"}, {`It's "70MAX", Final`, `C:\dir`}}; !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("with escapes: %q, want %q", got, want)
	}
	if backslashEscapes([]byte("\"C:\\dir\",b\n")) {
		t.Error("a backslash before a letter is no escaped quote")
	}
	if _, recs := readAll(t, "\"C:\\dir\",b\n", ','); len(recs) != 1 || recs[0][0] != `C:\dir` {
		t.Errorf("without escapes: %q", recs)
	}
}
