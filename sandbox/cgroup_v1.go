package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// cgroupV1 uses the legacy per-controller hierarchies (memory, pids and,
// when it accepts children, cpu), nesting under this process's own groups.
type cgroupV1 struct {
	limits  groupLimits
	parents map[string]string // controller -> parent directory
}

func newCgroupV1(l groupLimits) (limiter, error) {
	c := &cgroupV1{limits: l, parents: map[string]string{}}
	for _, ctl := range []string{"memory", "pids", "cpu"} {
		p, err := c.parentFor(ctl)
		if err != nil {
			if ctl == "cpu" {
				continue // optional: the wall-clock timeout bounds CPU use anyway
			}
			c.close()
			return nil, err
		}
		c.parents[ctl] = p
	}
	// Prove the limits can be written before any worker depends on them.
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

func (c *cgroupV1) parentFor(ctl string) (string, error) {
	mount := filepath.Join(cgroupRoot, ctl)
	if _, err := os.Stat(filepath.Join(mount, "cgroup.procs")); err != nil {
		return "", fmt.Errorf("sandbox: no v1 %s hierarchy", ctl)
	}
	own, err := ownCgroup(ctl)
	if err != nil {
		return "", err
	}
	return makeParent(filepath.Join(mount, own))
}

func (c *cgroupV1) name() string {
	if _, ok := c.parents["cpu"]; ok {
		return "cgroup v1 (memory, pids, cpu)"
	}
	return "cgroup v1 (memory, pids)"
}

func (c *cgroupV1) newGroup(id string) (group, error) {
	g := &groupV1{dirs: map[string]string{}}
	for ctl, parent := range c.parents {
		d := filepath.Join(parent, id)
		if err := os.Mkdir(d, 0o755); err != nil {
			g.destroy()
			return nil, fmt.Errorf("sandbox: create cgroup: %w", err)
		}
		g.dirs[ctl] = d
	}
	l := c.limits
	mem := strconv.FormatInt(l.memory, 10)
	err := errors.Join(
		writeFile(filepath.Join(g.dirs["memory"], "memory.limit_in_bytes"), mem),
		writeFile(filepath.Join(g.dirs["pids"], "pids.max"), strconv.Itoa(l.processes)),
	)
	// Without swap accounting the file is absent; the host then has no swap
	// to speak of, or the limit above already covers it.
	_ = writeFile(filepath.Join(g.dirs["memory"], "memory.memsw.limit_in_bytes"), mem)
	if d, ok := g.dirs["cpu"]; ok {
		_ = writeFile(filepath.Join(d, "cpu.cfs_period_us"), "100000")
		_ = writeFile(filepath.Join(d, "cpu.cfs_quota_us"), strconv.Itoa(int(l.cpus*100000)))
	}
	if err != nil {
		g.destroy()
		return nil, err
	}
	return g, nil
}

func (c *cgroupV1) close() error {
	var errs []error
	for _, p := range c.parents {
		errs = append(errs, removeDir(p))
	}
	return errors.Join(errs...)
}

type groupV1 struct {
	dirs map[string]string
}

func (g *groupV1) attach(pid int) error {
	for _, d := range g.dirs {
		if err := writeFile(filepath.Join(d, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return err
		}
	}
	return nil
}

func (g *groupV1) oomKilled() bool {
	return counterValue(filepath.Join(g.dirs["memory"], "memory.oom_control"), "oom_kill") > 0
}

func (g *groupV1) kill() {
	killProcs(filepath.Join(g.dirs["pids"], "cgroup.procs"))
}

func (g *groupV1) destroy() error {
	var errs []error
	for _, d := range g.dirs {
		errs = append(errs, removeDir(d))
	}
	return errors.Join(errs...)
}
