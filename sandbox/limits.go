package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// limiter puts each worker in a resource group. The three implementations
// (cgroup v2, cgroup v1, none) hide behind it so the rest of the package does
// not care which one the host allows.
type limiter interface {
	name() string
	newGroup(id string) (group, error)
	close() error
}

// group is one worker's resource group.
type group interface {
	// attach moves pid (the gate process, before it execs the sandbox) into
	// the group, so everything it starts inherits the limits.
	attach(pid int) error
	// oomKilled reports whether the kernel or the watchdog killed a process
	// of the group for using too much memory.
	oomKilled() bool
	// kill SIGKILLs every process in the group.
	kill()
	// destroy removes the group; call it after the processes are gone.
	destroy() error
}

// groupLimits are the values every backend enforces.
type groupLimits struct {
	memory    int64   // bytes, including the sandbox's tmpfs pages
	processes int     // tasks (processes and threads)
	cpus      float64 // cores
	period    time.Duration
}

func limitsFor(c Config) groupLimits {
	// tmpfs pages are charged to the group that wrote them, so a full
	// /mnt/data must not push a session into the OOM killer.
	return groupLimits{
		memory:    c.MemoryBytes + c.DataBytes + c.TmpBytes + shmBytes,
		processes: c.Processes,
		cpus:      c.CPUs,
		period:    c.WatchdogPeriod,
	}
}

// newLimiter picks the backend for mode. auto tries v2, then v1, then none;
// the reason a backend was skipped is returned for the log.
func newLimiter(mode string, l groupLimits) (limiter, []string) {
	var why []string
	try := func(name string, f func(groupLimits) (limiter, error)) limiter {
		lim, err := f(l)
		if err != nil {
			why = append(why, fmt.Sprintf("%s: %v", name, err))
			return nil
		}
		return lim
	}
	switch mode {
	case CgroupsV2:
		if lim := try("cgroup v2", newCgroupV2); lim != nil {
			return lim, why
		}
	case CgroupsV1:
		if lim := try("cgroup v1", newCgroupV1); lim != nil {
			return lim, why
		}
	case CgroupsAuto:
		if lim := try("cgroup v2", newCgroupV2); lim != nil {
			return lim, why
		}
		if lim := try("cgroup v1", newCgroupV1); lim != nil {
			return lim, why
		}
	}
	return &noCgroup{limits: l}, why
}

// rlimits returns the limits applied to every worker, whatever the backend.
// uniqueUID says the worker runs under a host uid of its own, where
// RLIMIT_NPROC counts just that worker's processes; otherwise it is a
// ceiling for the shared uid (see nproc.go).
func rlimits(c Config, uniqueUID bool) map[int]uint64 {
	fsize := c.DataBytes
	if c.TmpBytes > fsize {
		fsize = c.TmpBytes
	}
	m := map[int]uint64{
		// Address space: a single-process memory bomb gets a clean MemoryError
		// (the session survives) before the cgroup's OOM killer would act.
		unix.RLIMIT_AS:      uint64(c.MemoryBytes),
		unix.RLIMIT_FSIZE:   uint64(fsize),
		unix.RLIMIT_NOFILE:  1024,
		unix.RLIMIT_CORE:    0,
		unix.RLIMIT_MEMLOCK: 0,
		// The kernel persists across cells, so this is a session budget.
		unix.RLIMIT_CPU: uint64(2 * c.Lifetime / time.Second),
	}
	m[unix.RLIMIT_NPROC] = sharedUIDTasks(c)
	if uniqueUID {
		m[unix.RLIMIT_NPROC] = uint64(c.Processes) // counts this worker alone
	}
	return m
}

func applyRlimits(pid int, m map[int]uint64) error {
	for res, v := range m {
		lim := unix.Rlimit{Cur: v, Max: v}
		if err := unix.Prlimit(pid, res, &lim, nil); err != nil {
			return fmt.Errorf("sandbox: prlimit %d: %w", res, err)
		}
	}
	return nil
}

// writeFile writes a cgroup control file.
func writeFile(path, value string) error {
	err := os.WriteFile(path, []byte(value), 0)
	if err != nil {
		return fmt.Errorf("sandbox: write %s: %w", path, err)
	}
	return nil
}

// removeDir removes a cgroup directory. A process still in it is killed
// and a child group left behind by an earlier failed teardown is removed
// first; the kernel may also need a moment to finish tearing down the last
// process, which on a loaded machine takes far longer than on an idle one,
// so it keeps trying for up to five seconds.
func removeDir(path string) error {
	var err error
	for i := 0; i < 100; i++ {
		err = unix.Rmdir(path)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		killProcs(filepath.Join(path, "cgroup.procs"))
		removeChildren(path)
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("sandbox: remove %s: %w", path, err)
}

// removeChildren removes the child groups of a cgroup directory.
func removeChildren(path string) {
	entries, _ := os.ReadDir(path)
	for _, e := range entries {
		if e.IsDir() {
			removeDir(filepath.Join(path, e.Name()))
		}
	}
}
