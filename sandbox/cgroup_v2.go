package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// cgroupV2 needs a delegated subtree: this process's cgroup (or its parent)
// must let it enable the memory, pids and cpu controllers for children
// (systemd: Delegate=yes with DelegateSubgroup=, or a container's own
// cgroup namespace). Untested on the v1 development machines.
type cgroupV2 struct {
	limits groupLimits
	parent string
}

func newCgroupV2(l groupLimits) (limiter, error) {
	if _, err := os.Stat(filepath.Join(cgroupRoot, "cgroup.controllers")); err != nil {
		return nil, errors.New("sandbox: /sys/fs/cgroup is not a cgroup v2 mount")
	}
	own, err := ownCgroup("")
	if err != nil {
		return nil, err
	}
	dir, err := delegatedDir(filepath.Join(cgroupRoot, own))
	if err != nil {
		return nil, err
	}
	parent, err := makeParent(dir)
	if err != nil {
		return nil, err
	}
	c := &cgroupV2{limits: l, parent: parent}
	if err := enableControllers(parent); err != nil {
		c.close()
		return nil, err
	}
	g, err := c.newGroup("probe")
	if err != nil {
		c.close()
		return nil, err
	}
	if err := g.destroy(); err != nil {
		return nil, err
	}
	return c, nil
}

// delegatedDir finds where worker groups can go: this process's own cgroup
// when it may enable controllers for children, else its parent, which is
// the delegated root when systemd put the service's processes in a leaf
// (DelegateSubgroup=); a cgroup with processes cannot have controllers
// enabled for its children.
func delegatedDir(own string) (string, error) {
	err := enableControllers(own)
	if err == nil {
		return own, nil
	}
	parent := filepath.Dir(own)
	if parent == own || len(parent) < len(cgroupRoot) {
		return "", err
	}
	if perr := enableControllers(parent); perr != nil {
		return "", errors.Join(err, perr)
	}
	return parent, nil
}

func enableControllers(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.controllers"))
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	have := strings.Fields(string(b))
	for _, want := range []string{"memory", "pids"} {
		if !contains(have, want) {
			return fmt.Errorf("sandbox: controller %s not delegated to %s", want, dir)
		}
	}
	ctl := "+memory +pids"
	if contains(have, "cpu") {
		ctl += " +cpu"
	}
	return writeFile(filepath.Join(dir, "cgroup.subtree_control"), ctl)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func (c *cgroupV2) name() string { return "cgroup v2" }

func (c *cgroupV2) newGroup(id string) (group, error) {
	d := filepath.Join(c.parent, id)
	if err := os.Mkdir(d, 0o755); err != nil {
		return nil, fmt.Errorf("sandbox: create cgroup: %w", err)
	}
	g := &groupV2{dir: d}
	l := c.limits
	err := errors.Join(
		writeFile(filepath.Join(d, "memory.max"), strconv.FormatInt(l.memory, 10)),
		writeFile(filepath.Join(d, "pids.max"), strconv.Itoa(l.processes)),
	)
	_ = writeFile(filepath.Join(d, "memory.swap.max"), "0")
	// One OOM kills the whole sandbox: a half-killed kernel is worse than a reset.
	_ = writeFile(filepath.Join(d, "memory.oom.group"), "1")
	_ = writeFile(filepath.Join(d, "cpu.max"), fmt.Sprintf("%d 100000", int(l.cpus*100000)))
	if err != nil {
		g.destroy()
		return nil, err
	}
	return g, nil
}

func (c *cgroupV2) close() error { return removeDir(c.parent) }

type groupV2 struct{ dir string }

func (g *groupV2) attach(pid int) error {
	return writeFile(filepath.Join(g.dir, "cgroup.procs"), strconv.Itoa(pid))
}

func (g *groupV2) oomKilled() bool {
	return counterValue(filepath.Join(g.dir, "memory.events"), "oom_kill") > 0
}

func (g *groupV2) kill() {
	if writeFile(filepath.Join(g.dir, "cgroup.kill"), "1") != nil {
		killProcs(filepath.Join(g.dir, "cgroup.procs"))
	}
}

func (g *groupV2) destroy() error { return removeDir(g.dir) }
