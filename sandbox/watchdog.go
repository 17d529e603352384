package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// noCgroup is the fallback when the host delegates no cgroup: rlimits still
// apply, and a watchdog polls the worker's process tree, killing it when it
// holds more memory or tasks than a cgroup would have allowed.
type noCgroup struct{ limits groupLimits }

func (n *noCgroup) name() string { return "rlimits + watchdog (no cgroup)" }

func (n *noCgroup) newGroup(string) (group, error) {
	return &watchdog{limits: n.limits, stop: make(chan struct{})}, nil
}

func (n *noCgroup) close() error { return nil }

type watchdog struct {
	limits   groupLimits
	root     atomic.Int64 // the gate pid, later the outermost sandbox process
	oom      atomic.Bool
	stop     chan struct{}
	stopOnce sync.Once
}

func (w *watchdog) attach(pid int) error {
	w.root.Store(int64(pid))
	watchedRoots.Store(pid, true)
	go w.run()
	return nil
}

// watchedRoots are the processes some watchdog is rooted at. A kernel forked
// from the template (fork.go) is, to the host, a descendant of the
// template's sandbox: the template's watchdog must leave that subtree to the
// kernel's own, or it would count every kernel as the template's memory.
var watchedRoots sync.Map // int -> true

func (w *watchdog) run() {
	t := time.NewTicker(w.limits.period)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		}
		rss, tasks, pids := treeUsage(int(w.root.Load()))
		if len(pids) == 0 {
			return
		}
		if rss > w.limits.memory || tasks > w.limits.processes {
			w.oom.Store(rss > w.limits.memory)
			killAll(pids)
		}
	}
}

func (w *watchdog) oomKilled() bool { return w.oom.Load() }

func (w *watchdog) kill() {
	_, _, pids := treeUsage(int(w.root.Load()))
	killAll(pids)
}

func (w *watchdog) destroy() error {
	w.stopOnce.Do(func() {
		close(w.stop)
		watchedRoots.Delete(int(w.root.Load()))
	})
	return nil
}

func killAll(pids []int) {
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

// procStat is what the watchdog needs from /proc/<pid>/stat.
type procStat struct {
	ppid    int
	threads int
	rss     int64 // bytes
}

// treeUsage sums resident memory and threads over root and its
// descendants, except subtrees another watchdog is rooted at.
func treeUsage(root int) (rss int64, tasks int, pids []int) {
	all := readProcStats()
	children := map[int][]int{}
	for pid, st := range all {
		children[st.ppid] = append(children[st.ppid], pid)
	}
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		st, ok := all[pid]
		if _, other := watchedRoots.Load(pid); !ok || other && pid != root {
			continue
		}
		pids = append(pids, pid)
		rss += st.rss
		tasks += st.threads
		queue = append(queue, children[pid]...)
	}
	return rss, tasks, pids
}

var pageSize = int64(os.Getpagesize())

func readProcStats() map[int]procStat {
	entries, _ := os.ReadDir("/proc")
	out := make(map[int]procStat, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readProcStat(filepath.Join("/proc", e.Name(), "stat")); ok {
			out[pid] = st
		}
	}
	return out
}

func readProcStat(path string) (procStat, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return procStat{}, false
	}
	// The command name may contain spaces and parentheses; fields start
	// after the last ')'. Field 4 is ppid, 20 num_threads, 24 rss (pages).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 22 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(string(f[1]))
	threads, _ := strconv.Atoi(string(f[17]))
	rss, _ := strconv.ParseInt(string(f[21]), 10, 64)
	return procStat{ppid: ppid, threads: threads, rss: rss * pageSize}, true
}

// childOf returns a child process of parent, as the sandbox's init has
// exactly one: the Python worker. The kernel here lacks /proc/*/children.
func childOf(parent int) int {
	for pid, st := range readProcStats() {
		if st.ppid == parent {
			return pid
		}
	}
	return 0
}
