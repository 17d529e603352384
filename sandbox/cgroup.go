package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

const cgroupRoot = "/sys/fs/cgroup"

// parentPrefix names the directory a pool keeps its workers' groups in; the
// pid that follows lets a later process remove groups left by a dead one.
const parentPrefix = "workbench-sandbox-"

// ownCgroup returns this process's cgroup path for a v1 controller, or for
// the v2 hierarchy when controller is "".
func ownCgroup(controller string) (string, error) {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if controller == "" && parts[0] == "0" && parts[1] == "" {
			return parts[2], nil
		}
		for _, c := range strings.Split(parts[1], ",") {
			if controller != "" && c == controller {
				return parts[2], nil
			}
		}
	}
	return "", fmt.Errorf("sandbox: no cgroup for %q in /proc/self/cgroup", controller)
}

// parentSeq tells apart the parents of several pools in one process.
var parentSeq atomic.Int64

// makeParent creates dir/workbench-sandbox-<pid>-<n> after clearing groups left
// behind by processes that no longer exist.
func makeParent(dir string) (string, error) {
	removeStaleParents(dir)
	name := fmt.Sprintf("%s%d-%d", parentPrefix, os.Getpid(), parentSeq.Add(1))
	p := filepath.Join(dir, name)
	if err := os.Mkdir(p, 0o755); err != nil && !os.IsExist(err) {
		return "", fmt.Errorf("sandbox: create cgroup %s: %w", p, err)
	}
	return p, nil
}

func removeStaleParents(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), parentPrefix)
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) == nil {
			continue
		}
		p := filepath.Join(dir, e.Name())
		children, _ := os.ReadDir(p)
		for _, c := range children {
			if c.IsDir() {
				_ = syscall.Rmdir(filepath.Join(p, c.Name()))
			}
		}
		_ = syscall.Rmdir(p)
	}
}

// readPids lists the processes in a cgroup.procs file.
func readPids(path string) []int {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killProcs SIGKILLs the members of a cgroup until it is empty: a process
// may fork between the read and the kill, so one pass is not enough.
func killProcs(procsFile string) {
	for i := 0; i < 100; i++ {
		pids := readPids(procsFile)
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// counterValue reads "key N" from a flat-keyed file such as memory.events.
func counterValue(path, key string) int64 {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == key {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
}
