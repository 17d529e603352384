package sandbox

import (
	"debug/elf"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// A sandbox sees only what the kernel needs of the host's /usr: the Python
// interpreter, its library paths (stdlib, dist-packages), the shared
// libraries that the interpreter and every extension module in those paths
// link (read from their ELF headers, closure included), and the data the
// data stack reads: matplotlib's data, the fonts in its font list, time
// zones, the C.UTF-8 locale and iconv's modules. Shell tools, compilers,
// documentation and /usr/local's programs stay outside. The list is derived
// once, on the first sandbox start, from the configured Python, so another
// Python or a newly installed package needs no change here.

// mounts are read-only binds, each at its host path.
type mounts struct {
	dirs  []string
	files []string // bwrap binds a symlink as the file it points to
}

// pathsScript prints what the configured Python loads from; it runs outside
// any sandbox, on trusted code only, with the pool's matplotlib cache.
const pathsScript = `import json, os, sys, sysconfig, zoneinfo
import matplotlib
from matplotlib import font_manager as fm
fonts = {os.path.dirname(f.fname) for f in fm.fontManager.ttflist + fm.fontManager.afmlist}
print(json.dumps({
    "executable": os.path.realpath(sys.executable),
    "path": [p for p in sys.path if os.path.isdir(p)],
    "data": [matplotlib.get_data_path()] + [p for p in zoneinfo.TZPATH if os.path.isdir(p)],
    "fonts": sorted(fonts),
    "multiarch": sysconfig.get_config_var("MULTIARCH") or "",
}))`

// pythonPaths is what pathsScript reports.
type pythonPaths struct {
	Executable string   `json:"executable"`
	Path       []string `json:"path"`
	Data       []string `json:"data"`
	Fonts      []string `json:"fonts"`
	Multiarch  string   `json:"multiarch"`
}

// binds returns the pool's mounts, deriving them on first use.
func (a *assets) binds(python string) (*mounts, error) {
	a.mountsOnce.Do(func() { a.mounts, a.mountsErr = deriveMounts(python, a.path("mpl")) })
	return a.mounts, a.mountsErr
}

// mountsState is the assets' share of the derivation.
type mountsState struct {
	mountsOnce sync.Once
	mounts     *mounts
	mountsErr  error
}

func deriveMounts(python, mplConfig string) (*mounts, error) {
	paths, err := probePaths(python, mplConfig)
	if err != nil {
		return nil, err
	}
	return mountsFor(python, paths), nil
}

// mountsFor derives the mounts from what pathsScript reported.
func mountsFor(python string, paths *pythonPaths) *mounts {
	libDirs := libraryDirs(paths.Multiarch)
	systemLibs := libDirs[len(libDirs)-2]
	dirs := slices.Concat(paths.Path, paths.Data, paths.Fonts, existing(
		"/usr/lib/locale/C.utf8",           // LANG=C.UTF-8
		filepath.Join(systemLibs, "gconv"), // iconv's modules
	))
	roots := append([]string{python, paths.Executable}, extensionModules(paths.Path)...)
	libs := sharedLibraries(roots, libDirs)
	m := &mounts{dirs: outermost(hostPaths(dirs))}
	for _, f := range hostPaths(append([]string{python, paths.Executable}, libs...)) {
		if !under(f, m.dirs) && !slices.Contains(m.files, f) {
			m.files = append(m.files, f)
		}
	}
	slices.Sort(m.files)
	return m
}

func probePaths(python, mplConfig string) (*pythonPaths, error) {
	cmd := exec.Command(python, "-I", "-c", pathsScript)
	cmd.Env = []string{"MPLCONFIGDIR=" + mplConfig, "HOME=" + mplConfig, "PATH=/usr/bin:/bin", "LANG=C.UTF-8", "MPLBACKEND=Agg"}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("sandbox: find python's paths: %w", err)
	}
	var p pythonPaths
	if err := json.Unmarshal(out, &p); err != nil || p.Executable == "" || len(p.Path) == 0 {
		return nil, fmt.Errorf("sandbox: find python's paths: %q: %v", out, err)
	}
	return &p, nil
}

// libraryDirs are where the dynamic loader looks after RUNPATH, in its
// order on Debian; the last two are the system's own.
func libraryDirs(multiarch string) []string {
	if multiarch == "" {
		return []string{"/usr/local/lib", "/usr/lib64", "/usr/lib"}
	}
	return []string{"/usr/local/lib/" + multiarch, "/usr/local/lib", "/usr/lib/" + multiarch, "/usr/lib"}
}

// extensionModules lists the shared objects under dirs.
func extensionModules(dirs []string) []string {
	var out []string
	for _, d := range dirs {
		_ = filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err == nil && e.Type().IsRegular() && (strings.HasSuffix(p, ".so") || strings.Contains(e.Name(), ".so.")) {
				out = append(out, p)
			}
			return nil
		})
	}
	return out
}

// sharedLibraries returns what the dynamic loader opens for roots: the ELF
// interpreter and the closure of DT_NEEDED, resolved through each object's
// RUNPATH (or RPATH) and then libDirs. Files that are not ELF are skipped.
func sharedLibraries(roots, libDirs []string) []string {
	var out []string
	seen := map[string]bool{}
	for queue := roots; len(queue) > 0; queue = queue[1:] {
		real, err := filepath.EvalSymlinks(queue[0])
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		for _, lib := range dependencies(real, libDirs) {
			out = append(out, lib)
			queue = append(queue, lib)
		}
	}
	return out
}

// dependencies returns the paths of the interpreter and of the libraries
// that one ELF file names.
func dependencies(path string, libDirs []string) []string {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			if _, err := p.ReadAt(b, 0); err == nil {
				out = append(out, strings.TrimRight(string(b), "\x00"))
			}
		}
	}
	// Every candidate, not just the first: which one the loader opens
	// depends on ld.so.cache and on how it spells $ORIGIN.
	search := append(runPaths(f, filepath.Dir(path)), libDirs...)
	needed, _ := f.ImportedLibraries()
	for _, name := range needed {
		for _, d := range search {
			if p := filepath.Join(d, name); exists(p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// runPaths returns an object's RUNPATH, or its RPATH when it has none, with
// $ORIGIN expanded.
func runPaths(f *elf.File, origin string) []string {
	list, _ := f.DynString(elf.DT_RUNPATH)
	if len(list) == 0 {
		list, _ = f.DynString(elf.DT_RPATH)
	}
	var out []string
	for _, l := range list {
		for _, d := range strings.Split(l, ":") {
			d = strings.ReplaceAll(strings.ReplaceAll(d, "${ORIGIN}", origin), "$ORIGIN", origin)
			if d != "" {
				out = append(out, d)
			}
		}
	}
	return out
}

// hostPaths rewrites paths whose directory is reached through a symlink
// (/lib64 -> usr/lib64 on a merged /usr) to the directory's real path: the
// sandbox recreates only the top-level links, and bwrap cannot mount
// through a link. The last element keeps its name; bwrap follows it.
func hostPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		dir, err := filepath.EvalSymlinks(filepath.Dir(p))
		if err != nil {
			continue
		}
		out = append(out, filepath.Join(dir, filepath.Base(p)))
	}
	return out
}

// outermost sorts dirs and drops those inside another.
func outermost(dirs []string) []string {
	dirs = slices.Clone(dirs)
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	var out []string
	for _, d := range dirs {
		if !under(d, out) {
			out = append(out, d)
		}
	}
	return out
}

// under reports whether p is one of dirs or inside one.
func under(p string, dirs []string) bool {
	for _, d := range dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

func existing(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if exists(p) {
			out = append(out, p)
		}
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
