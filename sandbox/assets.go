package sandbox

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed worker.py
var workerPy []byte

// vegalitePy is the kernel's chart reader, which worker.py loads from
// beside itself.
//
//go:embed vegalite.py
var vegalitePy []byte

// forkserverPy is the template kernels fork from (fork.go); it imports
// worker.py from beside itself.
//
//go:embed forkserver.py
var forkserverPy []byte

// Synthetic /etc files: the sandbox sees these instead of the host's.
const (
	etcPasswd = "root:x:0:0:root:/:/usr/sbin/nologin\nsandbox:x:65534:65534:sandbox:/mnt/data:/usr/sbin/nologin\n"
	etcGroup  = "root:x:0:\nsandbox:x:65534:\n"
	etcHosts  = "127.0.0.1\tlocalhost sandbox\n::1\tlocalhost\n"
)

// assets is a per-pool directory of read-only files bound into every
// sandbox. The directory is world-readable because the workers run under
// host uids of their own.
type assets struct {
	dir      string
	fontlist string // matplotlib's font cache file name, "" if building it failed
	seccomp  string // path of the BPF program, "" when seccomp is off
	mountsState
}

func newAssets(c Config) (*assets, error) {
	dir, err := os.MkdirTemp("", "workbench-sandbox-")
	if err != nil {
		return nil, fmt.Errorf("sandbox: assets: %w", err)
	}
	a := &assets{dir: dir}
	if err := a.write(c); err != nil {
		a.remove()
		return nil, err
	}
	return a, nil
}

func (a *assets) write(c Config) error {
	if err := os.Chmod(a.dir, 0o755); err != nil {
		return fmt.Errorf("sandbox: assets: %w", err)
	}
	files := map[string][]byte{
		"worker.py":     workerPy,
		"vegalite.py":   vegalitePy,
		"forkserver.py": forkserverPy,
		"passwd":        []byte(etcPasswd),
		"group":         []byte(etcGroup),
		"hosts":         []byte(etcHosts),
	}
	if c.seccompOn() {
		blob, err := seccompBlob()
		if err != nil {
			return err
		}
		files["seccomp.bpf"] = blob
		a.seccomp = filepath.Join(a.dir, "seccomp.bpf")
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(a.dir, name), b, 0o644); err != nil {
			return fmt.Errorf("sandbox: assets: %w", err)
		}
	}
	return nil
}

func (a *assets) path(name string) string { return filepath.Join(a.dir, name) }

func (a *assets) remove() { _ = os.RemoveAll(a.dir) }

// buildFontCache runs matplotlib once, outside any sandbox and without user
// code, so that workers find a ready font list (fontlist-vNNN.json) instead
// of each scanning every font on start. The cache only names files under
// /usr/share/fonts, which the sandbox sees at the same paths. The same run
// of Python (pathsScript imports the font manager) tells the sandbox's
// mounts, so that Python starts once for both.
func (a *assets) buildFontCache(python string) error {
	dir := a.path("mpl")
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("sandbox: font cache: %w", err)
	}
	paths, err := probePaths(python, dir)
	a.mountsOnce.Do(func() {
		if a.mountsErr = err; err == nil {
			a.mounts = mountsFor(python, paths)
		}
	})
	if err != nil {
		return fmt.Errorf("sandbox: font cache: %w", err)
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "fontlist-*.json"))
	if len(matches) != 1 {
		return fmt.Errorf("sandbox: font cache: found %d fontlist files", len(matches))
	}
	if err := os.Chmod(matches[0], 0o644); err != nil {
		return fmt.Errorf("sandbox: font cache: %w", err)
	}
	a.fontlist = strings.TrimPrefix(matches[0], dir+"/")
	return nil
}
