package sandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"time"
)

// Installed is what the sandbox's Python can import.
type Installed struct {
	// Python is the interpreter's version ("3.11.2").
	Python string `json:"python"`
	// Modules are the importable top-level modules, sorted, private ones
	// (a leading "_") left out.
	Modules []string `json:"modules"`
	// Packages are the installed distributions, sorted by name.
	Packages []Package `json:"packages"`
}

// Package is one installed distribution and the top-level modules it
// provides, whose names may differ from its own (Pillow provides PIL).
type Package struct {
	Name    string   `json:"name"`
	Version string   `json:"version"`
	Modules []string `json:"modules"`
}

// installedScript prints Installed as JSON. It runs trusted code only.
const installedScript = `import importlib.metadata as md, json, pkgutil, sys
mods = {m.name for m in pkgutil.iter_modules()} | set(sys.builtin_module_names)
tops = {}
for mod, names in md.packages_distributions().items():
    for n in names:
        tops.setdefault(n.lower(), set()).add(mod)
pkgs = {}
for d in md.distributions():
    name = d.metadata["Name"]
    if name and name.lower() not in pkgs:
        pkgs[name.lower()] = {"name": name, "version": d.version,
                              "modules": sorted(m for m in tops.get(name.lower(), ()) if m.isidentifier() and not m.startswith("_"))}
print(json.dumps({
    "python": sys.version.split()[0],
    "modules": sorted(m for m in mods if not m.startswith("_")),
    "packages": sorted(pkgs.values(), key=lambda p: p["name"].lower()),
}))`

// installedWait bounds reading the list: importlib.metadata walks the
// site directories once, in about half a second.
const installedWait = 30 * time.Second

// ListInstalled asks python (the sandbox's interpreter, as Config.Python) what
// it can import. It runs outside any sandbox in isolated mode (-I), as the
// sandbox runs it, so it sees the same sys.path: every directory a kernel
// imports from is bound from that path (see mounts.go).
func ListInstalled(ctx context.Context, python string) (*Installed, error) {
	ctx, cancel := context.WithTimeout(ctx, installedWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "-I", "-c", installedScript)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sandbox: list installed packages: %w", err)
	}
	var inst Installed
	if err := json.Unmarshal(out, &inst); err != nil || len(inst.Modules) == 0 {
		return nil, fmt.Errorf("sandbox: list installed packages: %q: %v", out, err)
	}
	return &inst, nil
}

// Installed lists what the pool's Python can import (ListInstalled).
func (p *Pool) Installed(ctx context.Context) (*Installed, error) {
	return ListInstalled(ctx, p.cfg.Python)
}
