package files

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestProfileCSVDelimiters(t *testing.T) {
	tests := []struct {
		name, file, text, wantDelim string
	}{
		{"comma", "a.csv", "id,name,score\n1,ann,3.5\n2,bob,4\n", ","},
		{"semicolon", "a.csv", "id;name;score\n1;ann;3,5\n2;bob;4\n", ";"},
		{"tab", "a.csv", "id\tname\tscore\n1\tann\t3.5\n2\tbob\t4\n", "\t"},
		{"pipe", "a.csv", "id|name|score\n1|ann|3.5\n2|bob|4\n", "|"},
		{"tsv", "a.tsv", "id\tname\tscore\n1\tann\t3.5\n2\tbob\t4\n", "\t"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileOf(t, tt.file, []byte(tt.text))
			names := []string{}
			for _, c := range p.Columns {
				names = append(names, c.Name)
			}
			if p.Delimiter != tt.wantDelim || !slices.Equal(names, []string{"id", "name", "score"}) || p.Rows != 2 || !p.RowsExact {
				t.Errorf("got delimiter %q, columns %q, rows %d exact %v; want %q, [id name score], 2 exact",
					p.Delimiter, names, p.Rows, p.RowsExact, tt.wantDelim)
			}
			if got := column(t, p, "score").Type; got != TypeNumber {
				t.Errorf("score type = %s, want number", got)
			}
		})
	}
}

func TestProfileCSVTypes(t *testing.T) {
	text := "id,amount,big,when,stamp,flag,note,blank\n" +
		"1,\"1,234\",\"1,234,567.50\",2024-01-31,2024-01-31T10:00:00Z,true,hello,\n" +
		"2,\"12,500\",\"2,000.25\",31/01/2024,2024-02-01 11:30,false,world,NA\n" +
		"3,999,10.5,Jan 5 2024,2024-02-02T12:00,TRUE,,null\n"
	p := profileOf(t, "t.csv", []byte(text))
	want := map[string]string{
		"id": TypeInteger, "amount": TypeInteger, "big": TypeNumber, "when": TypeDate,
		"stamp": TypeDate, "flag": TypeBoolean, "note": TypeText, "blank": TypeEmpty,
	}
	for name, typ := range want {
		if got := column(t, p, name).Type; got != typ {
			t.Errorf("column %s type = %s, want %s", name, got, typ)
		}
	}
	if p.Thousands != "," || p.Decimal != "" {
		t.Errorf("separators %q %q, want \",\" and \"\"", p.Thousands, p.Decimal)
	}
}

func TestProfileCSVEuropeanNumbers(t *testing.T) {
	p := profileOf(t, "eu.csv", []byte("Artikel;Preis;Menge\nA;1.234,50;1.000.000\nB;7,25;12\n"))
	if p.Delimiter != ";" || p.Thousands != "." || p.Decimal != "," {
		t.Errorf("delimiter %q thousands %q decimal %q, want ; . ,", p.Delimiter, p.Thousands, p.Decimal)
	}
	if column(t, p, "Preis").Type != TypeNumber || column(t, p, "Menge").Type != TypeInteger {
		t.Errorf("types %+v", p.Columns)
	}
}

func TestProfileCSVMissing(t *testing.T) {
	text := "a,b,c\n1,,x\n2,NA,\n3,n/a,y\n,4, \n"
	p := profileOf(t, "m.csv", []byte(text))
	tests := []struct {
		col     string
		missing int64
		pct     float64
		example string
	}{
		{"a", 1, 25, "1"}, {"b", 3, 75, "4"}, {"c", 2, 50, "x"},
	}
	for _, tt := range tests {
		c := column(t, p, tt.col)
		if c.Missing != tt.missing || c.MissingPct != tt.pct || c.Example != tt.example {
			t.Errorf("column %s: missing %d (%v%%), example %q; want %d (%v%%), %q",
				tt.col, c.Missing, c.MissingPct, c.Example, tt.missing, tt.pct, tt.example)
		}
	}
}

func TestProfileCSVSample(t *testing.T) {
	var b strings.Builder
	b.WriteString("n,s\n")
	for i := range 20 {
		b.WriteString(strings.Repeat("7", i+1) + "," + strings.Repeat("é", 150) + "\n")
	}
	p := profileOf(t, "s.csv", []byte(b.String()))
	if len(p.Sample) != shownRows || p.Sample[0][0] != "7" || p.Sample[4][0] != "77777" {
		t.Fatalf("sample = %q, want the first %d rows", p.Sample, shownRows)
	}
	if got := p.Sample[0][1]; got != strings.Repeat("é", maxCellRunes)+"…" {
		t.Errorf("long cell = %q, want it cut at %d runes", got, maxCellRunes)
	}
	if p.Rows != 20 {
		t.Errorf("rows = %d, want 20", p.Rows)
	}
}

func TestProfileCSVEncodings(t *testing.T) {
	tests := []struct {
		name    string
		data    []byte
		wantEnc string
		wantVal string // the first sample cell of column "city"
	}{
		{"utf-8", []byte("city,n\nZürich,1\n"), "utf-8", "Zürich"},
		{"utf-8 with bom", []byte("\xef\xbb\xbfcity,n\nZürich,1\n"), "utf-8-sig", "Zürich"},
		{"latin-1", []byte("city,n\nZ\xfcrich,1\n"), "cp1252", "Zürich"},
		{"windows-1252", []byte("city,n\n\x93Caf\xe9\x94 \x80,1\n"), "cp1252", "“Café” €"},
		{"utf-16 le with bom", utf16LE("\ufeffcity,n\r\nZürich,1\r\n"), "utf-16", "Zürich"},
		{"utf-16 be with bom", utf16BE("\ufeffcity\tn\r\nZürich\t1\r\n"), "utf-16", "Zürich"},
		{"utf-16 le without bom", utf16LE("city;n\r\nZürich;1\r\n"), "utf-16-le", "Zürich"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileOf(t, "e.csv", tt.data)
			if p.Encoding != tt.wantEnc {
				t.Errorf("encoding = %q, want %q", p.Encoding, tt.wantEnc)
			}
			if len(p.Columns) != 2 || p.Columns[0].Name != "city" || p.Sample[0][0] != tt.wantVal {
				t.Errorf("columns %+v sample %q, want city first and %q", p.Columns, p.Sample, tt.wantVal)
			}
		})
	}
}

// TestProfileCSVMixedEncoding covers a file that is ASCII for longer than
// the sniffed head and then has a Windows-1252 byte.
func TestProfileCSVMixedEncoding(t *testing.T) {
	text := "id,city\n" + strings.Repeat("1,Bern\n", sniffBytes/7+100) + "2,Z\xfcrich\n"
	p := profileOf(t, "late.csv", []byte(text))
	if p.Encoding != "cp1252" || !hasProblem(p, "not valid UTF-8") {
		t.Errorf("encoding %q problems %q, want cp1252 and a note", p.Encoding, p.Problems)
	}
}

func hasProblem(p *FileProfile, part string) bool {
	return slices.ContainsFunc(p.Problems, func(s string) bool { return strings.Contains(s, part) })
}

func TestProfileCSVProblems(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		wantRows  int64
		wantExact bool
		want      string // part of a problem
	}{
		{"ragged rows", "a,b,c\n1,2,3\n4,5\n6,7,8,9\n", 3, true, "Some rows (2) have a different number of fields from the header's 3; the first is line 3, with 2."},
		{"unbalanced quote", "a,b\n1,2\n3,\"oops\n4,5\n6,7\n", 2, false, "A quote opened on line 3 is never closed"},
		{"stray quote", "a,b\n1,2\n3,4\"\n", 2, true, "quote in an unexpected place, the first on line 3."},
		{"duplicate names", "a,a\n1,2\n", 1, true, "“a” appears more than once"},
		{"no header", "1,2024-01-01\n2,2024-01-02\n", 1, true, "first row looks like data"},
		{"only blank lines", "\n\r\n\n", 0, true, "no rows"},
		{"mostly numbers", "price\n" + strings.Repeat("1.5\n", 20) + "n/k\n", 21, true, "holds numbers except for 1 value(s) such as “n/k”"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := profileOf(t, "p.csv", []byte(tt.text))
			if p.Rows != tt.wantRows || p.RowsExact != tt.wantExact || !hasProblem(p, tt.want) {
				t.Errorf("rows %d exact %v problems %q; want %d, %v and %q", p.Rows, p.RowsExact, p.Problems, tt.wantRows, tt.wantExact, tt.want)
			}
			for _, pr := range p.Problems {
				checkSentences(t, pr)
			}
		})
	}
}

func TestProfileCSVHeaderOnly(t *testing.T) {
	p := profileOf(t, "h.csv", []byte("a,b\n"))
	if p.Rows != 0 || !p.RowsExact || len(p.Columns) != 2 || p.Columns[0].Type != TypeEmpty || len(p.Problems) != 0 {
		t.Errorf("profile %+v, want two empty columns and no rows", p)
	}
}

func TestProfileCSVUnnamedColumn(t *testing.T) {
	p := profileOf(t, "u.csv", []byte(",x\n1,2\n"))
	if p.Columns[0].Name != "Unnamed: 0" {
		t.Errorf("first column = %q, want pandas' name “Unnamed: 0”", p.Columns[0].Name)
	}
}

func TestProfileRefused(t *testing.T) {
	tests := []struct {
		name, file string
		data       []byte
		want       error
	}{
		{"binary junk named csv", "junk.csv", junk(100_000), ErrUnreadable},
		{"binary junk named json", "junk.json", junk(1000), ErrUnreadable},
		{"pdf has no profile", "a.pdf", pdfHead, ErrNoProfile},
		{"parquet has no profile", "a.parquet", []byte("PAR1"), ErrNoProfile},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, _ := KindOf(tt.file)
			_, err := Profile(context.Background(), writeTemp(t, tt.file, tt.data), k)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Profile error = %v, want %v", err, tt.want)
			}
			var ue *UserError
			if errors.As(err, &ue) {
				checkSentences(t, ue.Msg)
			}
		})
	}
}
