package emulator

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/cellext"
)

// TestCellOutputs_ReportsBesideTheLogs: the logs are exactly what the cell
// printed and its value's text form; a restored session and the value's
// table ride beside them as typed fields, and the table's offsets point at
// the text form it stands for.
func TestCellOutputs_ReportsBesideTheLogs(t *testing.T) {
	res := &ExecResult{Stdout: "@@wb-session {}\nhello\n", Stderr: "warn\n", Value: "   a\n0  1",
		Table:    `{"index":[""],"columns":["a"],"dtypes":["int64"],"numeric":[true],"rows":[[0,1]],"total_rows":1,"total_columns":1}`,
		Restored: &cellext.Restored{Names: []string{"df"}, Files: 1}}
	outs := cellOutputs(res, nil)
	b, _ := json.Marshal(outs[0])
	var logs struct {
		Logs string        `json:"logs"`
		Ext  *cellext.Logs `json:"x_workbench"`
	}
	if err := json.Unmarshal(b, &logs); err != nil {
		t.Fatal(err)
	}
	if want := "@@wb-session {}\nhello\nwarn\n   a\n0  1\n"; logs.Logs != want {
		t.Fatalf("logs %q, want %q", logs.Logs, want)
	}
	if logs.Ext == nil || logs.Ext.Restored == nil || logs.Ext.Restored.Names[0] != "df" || logs.Ext.Table == nil {
		t.Fatalf("extension %s", b)
	}
	before, after := logs.Ext.Table.Split(logs.Logs)
	if !strings.HasSuffix(before, "warn\n") || after != "" || logs.Logs[logs.Ext.Table.TextStart:logs.Ext.Table.TextEnd] != "   a\n0  1\n" {
		t.Fatalf("the table stands for %q", logs.Logs[logs.Ext.Table.TextStart:logs.Ext.Table.TextEnd])
	}
	if plain, _ := json.Marshal(cellOutputs(&ExecResult{Stdout: "x\n"}, nil)); strings.Contains(string(plain), cellext.Field) {
		t.Fatalf("a plain cell carries an extension: %s", plain)
	}
}

// TestCellOutputs_WhatTheLoaderLoaded rides beside the loader's logs, whatever
// they print: the app reads the files' shapes from it, never from a line.
func TestCellOutputs_WhatTheLoaderLoaded(t *testing.T) {
	t.Parallel()
	loaded := []cellext.Load{{Name: "a.csv", Rows: 524, Columns: 11}, {Name: "b.csv", Error: "it is empty"}}
	b, _ := json.Marshal(cellOutputs(&ExecResult{}, loaded))
	var outs []struct {
		Logs string        `json:"logs"`
		Ext  *cellext.Logs `json:"x_workbench"`
	}
	if err := json.Unmarshal(b, &outs); err != nil {
		t.Fatal(err)
	}
	if len(outs) != 1 || outs[0].Ext == nil || !reflect.DeepEqual(outs[0].Ext.Loaded, loaded) || outs[0].Logs != "" {
		t.Fatalf("outputs %s", b)
	}
}

// TestCallExtension says of a call what the app needs and no more: the
// loader is the analyst's loader, the analyst's own cells are its own, and
// a fenced block the user sent carries no extension at all.
func TestCallExtension(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		step Step
		want cellext.Call
	}{
		{"the loader", Step{Code: "x", Loads: true, Own: true}, cellext.Call{Role: cellext.RoleLoader, Analyst: true}},
		{"an analyst's cell", Step{Code: "x", Own: true}, cellext.Call{Analyst: true}},
		{"an analyst's cell that reports", Step{Code: "x = 1\nif x:\n    _emit('n',\n          v=x)\nx", Own: true},
			cellext.Call{Analyst: true, Hidden: []cellext.Lines{{First: 2, Last: 4}}}},
		{"the user's fenced block", Step{Code: "_emit('x')"}, cellext.Call{}},
	} {
		if got := callExtension(tc.step); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
