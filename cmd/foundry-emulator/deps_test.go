package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoMarkdownRenderer: the emulator writes fenced code (fence.Wrap)
// but renders no Markdown, so its binary links none of the renderer's
// modules (issue 41: 7 of its 21 modules were goldmark, chroma and
// bluemonday, for a 22-line function).
func TestLinksNoMarkdownRenderer(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/yuin/goldmark", "github.com/alecthomas/chroma", "github.com/microcosm-cc/bluemonday",
			"github.com/analyst-workbench/workbench/markdown"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") && !strings.HasPrefix(dep, "github.com/analyst-workbench/workbench/markdown/fence") {
				t.Errorf("the emulator links %s", dep)
			}
		}
	}
}
