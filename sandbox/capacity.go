package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The memory budget. Every live kernel costs what it measures: the memory
// only it holds (its unique set: the pages it wrote, the user's data) plus
// the files in its /mnt/data, which live in memory (tmpfs). What kernels
// share is counted once: shared libraries not at all (the page cache holds
// them whoever maps them), and the template kernels fork from (fork.go) at
// its whole heap, since every fork shares it until it writes a page. Warm
// workers count too. When the budget is full, an idle kernel is evicted (its
// state saved to disk) to make room; a kernel running code is never evicted.

// defaultKernelSize is the cost assumed for a kernel before one has been
// measured: about what a warm worker with the data stack imported takes.
const defaultKernelSize = 128 << 20

// memoryShare is the part of the machine's available memory the kernels
// may use when no budget is configured.
const memoryShare = 2

// defaultBudget returns memoryShare-th of the memory available to this
// process: the machine's, or its container's limit when that is lower.
func defaultBudget() int64 {
	avail := meminfoAvailable()
	if limit := cgroupMemoryLimit(); limit > 0 && (avail == 0 || limit < avail) {
		avail = limit
	}
	if avail <= 0 {
		return 2 << 30
	}
	return avail / memoryShare
}

// meminfoAvailable reads MemAvailable from /proc/meminfo, in bytes.
func meminfoAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, _ := strconv.ParseInt(fields[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// cgroupMemoryLimit returns this process's cgroup memory limit, 0 if none.
func cgroupMemoryLimit() int64 {
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err == nil && n > 0 && n < 1<<60 { // v1 says "no limit" with a huge number
			return n
		}
	}
	return 0
}

// privateMemory returns the resident memory of pid that is not shared with
// other processes through files: resident minus file-backed and shared
// pages, from /proc/<pid>/statm (a cheap read, unlike smaps).
func privateMemory(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "statm"))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return 0
	}
	resident, _ := strconv.ParseInt(f[1], 10, 64)
	shared, _ := strconv.ParseInt(f[2], 10, 64)
	return max(resident-shared, 0) * pageSize
}

// uniqueMemory returns the memory only pid holds: its private pages, clean
// or dirty, from /proc/<pid>/smaps_rollup. Unlike privateMemory it leaves
// out anonymous pages shared copy-on-write, which a fork of the template
// shares with it and with every other fork until it writes them. It reads
// the whole page table, 1 to 5 ms for a kernel, so a session reads it only
// when its kernel may have grown (gauge.go).
func uniqueMemory(pid int) int64 {
	if pid <= 0 {
		return 0
	}
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "smaps_rollup"))
	if err != nil {
		return 0
	}
	defer f.Close()
	var kb int64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), ":")
		if ok && (name == "Private_Clean" || name == "Private_Dirty") {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
			kb += n
		}
	}
	return kb << 10
}

// measure records the kernel's memory after a call: its unique memory
// (read again only when it may have grown, gauge.go) plus dataBytes, the
// files under /mnt/data. A kernel that grew past what the budget allows
// makes the pool set idle ones aside. The caller holds s.mu.
func (s *Session) measure(dataBytes int64) {
	if s.w == nil {
		return
	}
	m := s.w.memory(s.cfg) + max(dataBytes, 0)
	s.mem.Store(m)
	s.pool.noteInUse(m)
	s.pool.trimSoon()
}

// noteInUse folds one measure of a kernel in use into the pool's moving
// average (one eighth per measure), the size a kernel grows to once it has
// run a cell. A fork of the template measures a few MiB when it is warm and
// several times that after its first cell: reserving only its warm size for
// a new session would let the pool overshoot the budget until the next trim.
func (p *Pool) noteInUse(m int64) {
	for {
		old := p.inUseSize.Load()
		next := m
		if old > 0 {
			next = old + (m-old)/8
		}
		if p.inUseSize.CompareAndSwap(old, next) {
			return
		}
	}
}

// trimSoon starts evicting idle kernels in the background when the kernels
// use more than the budget (they grow as they load data), unless a trim
// is under way.
func (p *Pool) trimSoon() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.usedLocked() <= p.cfg.MemoryBudget || !p.trimming.CompareAndSwap(false, true) {
		return
	}
	p.wg.Add(1) // under p.mu, before Close can wait: Close waits for the trim
	go func() {
		defer p.wg.Done()
		p.trim()
	}()
}

// trim makes the kernels fit the budget again: first by killing warm
// workers (a new one costs a start, an evicted kernel costs its user a
// restore), then by evicting the least recently used idle kernels, until
// they fit or none is idle.
func (p *Pool) trim() {
	defer p.trimming.Store(false)
	for {
		p.mu.Lock()
		over := p.usedLocked() > p.cfg.MemoryBudget && !p.closed
		p.mu.Unlock()
		if !over {
			return
		}
		if p.dropWarm() {
			continue
		}
		v := p.victim()
		if v == nil {
			return
		}
		p.evict(v)
	}
}

// kernelSize is the cost of one more kernel: what kernels in use measure
// (noteInUse) or the latest warm worker, whichever is more, or an estimate
// before either is known.
func (p *Pool) kernelSize() int64 {
	if n := max(p.warmSize.Load(), p.inUseSize.Load()); n > 0 {
		return n
	}
	return defaultKernelSize
}

// usedLocked is the memory the kernels hold or are about to: every live
// session's measure plus a kernel's size for each spare worker (starting,
// warm, or claimed and not yet a session's). The caller holds p.mu.
func (p *Pool) usedLocked() int64 {
	used := p.templateSize() + int64(p.spare)*p.kernelSize()
	for _, s := range p.sessions {
		used += s.mem.Load()
	}
	return used
}

// roomLocked reports whether one more kernel fits in the budget. The
// caller holds p.mu.
func (p *Pool) roomLocked() bool {
	return p.usedLocked()+p.kernelSize() <= p.cfg.MemoryBudget
}

// capacity is how many kernels of the measured size fit in the budget.
func (p *Pool) capacity() int {
	return max(int((p.cfg.MemoryBudget-p.templateSize())/p.kernelSize()), 1)
}

// victimLocked picks the idle kernel to evict, or nil when every live
// kernel is running code. An owner who holds more live kernels than a fair
// share of the budget loses their own least recently used one first;
// otherwise the least recently used idle kernel of anyone goes. The caller
// holds p.mu.
func (p *Pool) victimLocked() *Session {
	type candidate struct {
		s    *Session
		used time.Time
	}
	var idle []candidate
	live := map[string]int{}
	for _, s := range p.sessions {
		st, at, ok := s.status()
		if st != stateLive {
			continue
		}
		live[s.owner]++
		if ok {
			idle = append(idle, candidate{s, at})
		}
	}
	if len(idle) == 0 {
		return nil
	}
	sort.Slice(idle, func(i, j int) bool { return idle[i].used.Before(idle[j].used) })
	share := max(p.capacity()/len(live), 1)
	var greedy *Session
	for _, c := range idle {
		if n := live[c.s.owner]; n > share && (greedy == nil || n > live[greedy.owner]) {
			greedy = c.s // the least recently used of the owner furthest over
		}
	}
	if greedy != nil {
		return greedy
	}
	return idle[0].s
}
