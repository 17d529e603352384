package handlers

import (
	"strings"
	"testing"
)

func TestWriteData(t *testing.T) {
	for in, want := range map[string]string{
		"a":                       "data: a\n",
		"a\nb":                    "data: a\ndata: b\n",
		"a\r\nb":                  "data: a\ndata: b\n",
		"a\rb":                    "data: a\ndata: b\n",
		"x\r\revent: done\rdata:": "data: x\ndata: \ndata: event: done\ndata: data:\n",
		"a\n\r\nb\r":              "data: a\ndata: \ndata: b\ndata: \n",
	} {
		var b strings.Builder
		writeData(&b, in)
		if b.String() != want {
			t.Errorf("writeData(%q) = %q, want %q", in, b.String(), want)
		}
		if strings.Contains(b.String(), "\r") {
			t.Errorf("writeData(%q) kept a CR", in)
		}
	}
}
