package analyst

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"unicode/utf16"
)

// TestLoader_RealFiles feeds the loading cell the shapes real exports come in and checks the
// kinds it infers, in the sandbox.
func TestLoader_RealFiles(t *testing.T) {
	files := map[string][]byte{
		"us.tsv":        []byte("Date\tCustomer\tAmount\tShare\n\"Jan 5 2021\"\tAcme\t\"$1,234.50\"\t12%\nFeb 10 2021\tBeta\t\"$980.00\"\t8%\nMar 3 2021\tAcme\tN/A\t5%\n"),
		"utf16.csv":     utf16File("name,score\nZoë,3.5\nÅsa,4\n"),
		"pipes.txt":     []byte("// exported by a tool\n// second comment\nwhen|city|count\n2021/03/04|Oslo|1 200\n2021/03/05|Bergen|900\n"),
		"records.jsonl": []byte("{\"id\": 1, \"ts\": \"2024-01-02T10:00:00\", \"ok\": true}\n{\"id\": 2, \"ts\": \"2024-01-03T11:30:00\", \"ok\": false}\n"),
		"nested.json":   []byte(`{"data": [{"a": 1, "b": {"c": "x"}}, {"a": 2, "b": {"c": "y"}}]}`),
		"dayfirst.csv":  []byte("day,value\n13/01/2021,1\n02/02/2021,2\n28/02/2021,3\n"),
	}
	names := []string{"us.tsv", "utf16.csv", "pipes.txt", "records.jsonl", "nested.json", "dayfirst.csv"}
	k := newKernel(t, nil)
	for _, n := range names {
		if err := k.sess.PutFile(context.Background(), n, bytes.NewReader(files[n])); err != nil {
			t.Fatal(err)
		}
	}
	load := k.exec(profileCode(names, ""))
	p, err := parseProfile(load.Stdout)
	if err != nil || load.Error != nil {
		t.Fatalf("profile: %v %+v\n%s", err, load.Error, load.Stdout)
	}
	want := map[string]map[string]string{
		"us.tsv":        {"Date": "date", "Customer": "cat", "Amount": "num", "Share": "num"},
		"utf16.csv":     {"name": "cat", "score": "num"},
		"pipes.txt":     {"when": "date", "city": "cat", "count": "num"},
		"records.jsonl": {"id": "num", "ts": "date", "ok": "bool"},
		"nested.json":   {"a": "num", "b.c": "cat"},
		"dayfirst.csv":  {"day": "date", "value": "num"},
	}
	for _, f := range p.Frames {
		for _, c := range f.Columns {
			if w, ok := want[f.Key][c.Name]; ok && w != c.Kind {
				t.Errorf("%s: column %q is %s, want %s", f.Key, c.Name, c.Kind, w)
			}
			delete(want[f.Key], c.Name)
		}
	}
	for key, cols := range want {
		for c := range cols {
			t.Errorf("%s: column %q missing from the profile", key, c)
		}
	}
	if len(p.Failed) > 0 {
		t.Errorf("failed to load: %v", p.Failed)
	}
	if f := frameByKey(p, "dayfirst.csv"); f == nil || f.Columns[0].Max != "2021-02-28 00:00:00" {
		t.Errorf("day-first dates misread: %+v", f)
	}
	if f := frameByKey(p, "us.tsv"); f == nil || f.Columns[2].Max != "1234.5" || f.Columns[2].Missing != 1 {
		t.Errorf("currency with thousands misread: %+v", f)
	}
}

func frameByKey(p *Profile, key string) *Frame {
	for i := range p.Frames {
		if p.Frames[i].Key == key {
			return &p.Frames[i]
		}
	}
	return nil
}

func utf16File(s string) []byte {
	b := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// TestLoader_Idempotent: running the loading cell again in the same kernel, as every turn
// does, prints the same profile.
func TestLoader_Idempotent(t *testing.T) {
	k := newKernel(t, []string{"stations.csv", "company.xlsx"})
	code := profileCode([]string{"stations.csv", "company.xlsx"}, "")
	var outs []string
	for range 2 {
		r, err := k.sess.Exec(context.Background(), code)
		if err != nil || r.Error != nil {
			t.Fatalf("exec: %v %+v", err, r.Error)
		}
		outs = append(outs, r.Stdout)
	}
	if outs[0] != outs[1] || !strings.Contains(outs[0], profileMarker) {
		t.Errorf("second load differs:\n%s\n---\n%s", outs[0], outs[1])
	}
}
