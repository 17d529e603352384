//go:build dev

package analyst

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runLocal(t *testing.T, dir string, codes []string) []Cell {
	in, _ := json.Marshal(codes)
	cmd := exec.Command("/usr/bin/python3", "/tmp/wb/driver.py")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v %s", err, stderr.String())
	}
	var cells []Cell
	json.Unmarshal(out, &cells)
	return cells
}

func TestDev(t *testing.T) {
	files := strings.Split(os.Getenv("FILES"), ",")
	qs := strings.Split(os.Getenv("QS"), "|")
	dir := t.TempDir()
	for _, f := range files {
		b, _ := os.ReadFile(filepath.Join("testdata", f))
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	pc := profileCode(files, "")
	cells := runLocal(t, dir, []string{pc})
	p, err := parseProfile(cells[0].Stdout)
	if err != nil {
		t.Fatal(err, cells[0])
	}
	var hist []Message
	for _, q := range qs {
		pl := makePlan(q, hist, p)
		fmt.Printf("=== %s\n  intent=%s frame=%d measures=%v by=%v agg=%s filters=%v chart=%s period=%s N=%d export=%s\n", q, pl.Query.Intent, pl.Query.Frame, pl.Query.Measures, pl.Query.By, pl.Query.Agg, pl.Query.Filters, pl.Query.Chart, pl.Query.Period, pl.Query.N, pl.Query.Export)
		if pl.Reply != "" {
			fmt.Println("  REPLY:", pl.Reply)
			hist = append(hist, Message{"user", q}, Message{"assistant", pl.Reply})
			continue
		}
		if os.Getenv("CODE") != "" {
			fmt.Println(pl.Cells[0])
		}
		res := runLocal(t, dir, append([]string{pc}, pl.Cells...))
		ans := writeAnswer(&pl, p, res[1:])
		fmt.Println("  ANSWER:", strings.ReplaceAll(ans, "\n", "\n    "))
		for _, c := range res[1:] {
			if c.Error != nil {
				fmt.Println("  ERROR:", c.Error.Value)
			}
		}
		hist = append(hist, Message{"user", q}, Message{"assistant", ans})
	}
}
