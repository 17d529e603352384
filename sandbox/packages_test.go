package sandbox

import (
	"context"
	"slices"
	"testing"
)

func TestListInstalledReadsTheDataStack(t *testing.T) {
	inst, err := ListInstalled(context.Background(), "/usr/bin/python3")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"pandas", "numpy", "matplotlib", "json", "sys"} {
		if !slices.Contains(inst.Modules, m) {
			t.Errorf("module %s not listed among %d", m, len(inst.Modules))
		}
	}
	i := slices.IndexFunc(inst.Packages, func(p Package) bool { return p.Name == "pandas" })
	if i < 0 || inst.Packages[i].Version == "" || !slices.Equal(inst.Packages[i].Modules, []string{"pandas"}) {
		t.Fatalf("pandas not listed with its version and module: %+v", inst.Packages)
	}
	if inst.Python == "" || slices.Contains(inst.Modules, "_thread") {
		t.Errorf("python %q, private modules listed: %v", inst.Python, slices.Contains(inst.Modules, "_thread"))
	}
}
