package files

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// FuzzCSVReader checks that any input reads to the end without a panic, and
// that a file without quotes splits exactly as strings.Split would.
func FuzzCSVReader(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"x\"\"y\",z\r\n", "a,\"b\n", "\"a\"b,c", ",,\n\n,", "\r\n\"\r\n\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := newCSVReader(strings.NewReader(in), ',')
		var got []string
		for {
			n, err := r.next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(r.strings(n), ","))
		}
		if strings.ContainsAny(in, "\"\r") {
			return
		}
		var want []string
		for _, line := range strings.Split(in, "\n") {
			if line != "" {
				want = append(want, line)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("records %q, want %q", got, want)
		}
	})
}

// FuzzCheck checks that any name and head get a kind or a user error.
func FuzzCheck(f *testing.F) {
	f.Add("a.csv", []byte("a,b\n"))
	f.Add("a.xlsx", []byte("PK\x03\x04"))
	f.Add("a.tar", make([]byte, 300))
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		k, err := Check(name, head)
		var ue *UserError
		if err != nil && !errors.As(err, &ue) {
			t.Fatalf("Check error %v is not a *UserError", err)
		}
		if err == nil && k.Ext == "" {
			t.Fatal("Check accepted a file without a kind")
		}
	})
}
