package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// A kernel's memory is measured after every call (Session.measure), but
// reading it in full (uniqueMemory) walks the kernel's whole page table
// through /proc/<pid>/smaps_rollup: 1 to 5 ms for a kernel with the data
// stack mapped, ten times all the rest of a warm cell's round trip. So the
// full reading is taken again only when the kernel may have grown since the
// last one: when it took a page fault since (every page it adds, or copies
// from the template it was forked from, costs it one; a read of
// /proc/<pid>/stat, a few microseconds, tells), or when that reading is
// older than remeasureAfter. The second covers what can change a kernel's
// unique memory without a fault of its own: a process it shared pages with
// unmapping them (the template retired, a child of the kernel exiting), or
// khugepaged folding its pages into a huge page. A cell that loads data, or
// a background thread of the user's that allocates, faults, so its growth is
// read in full on the very next call, as before.

// remeasureAfter is the most a kernel's last full reading is trusted
// without a fault; a kernel running cells back to back pays one full
// reading a second at most.
const remeasureAfter = time.Second

// memGauge is a kernel's latest full memory reading and the page faults it
// had taken by then. The holder of its session's mu uses it.
type memGauge struct {
	read   bool
	faults int64
	at     time.Time
	bytes  int64
}

// memory returns the kernel's memory by c.memoryOf, read again only when
// the kernel may have grown (see above). A reader the tests replaced is
// called every time: it reads no page table, and their kernels do not fault
// when the figure they want changes.
func (w *worker) memory(c Config) int64 {
	if !c.gaugeMemory {
		return c.memoryOf(w.pyPid)
	}
	faults, ok := w.pageFaults()
	now := time.Now()
	g := &w.gauge
	if ok && g.read && faults == g.faults && now.Sub(g.at) < remeasureAfter {
		return g.bytes
	}
	// The faults are read before the page table: one taken in between
	// makes the next call read it again.
	*g = memGauge{read: ok, faults: faults, at: now, bytes: c.memoryOf(w.pyPid)}
	return g.bytes
}

// pageFaults returns the minor and major page faults the kernel's threads
// have taken, from /proc/<pid>/stat, kept open (open costs more than the
// read), or false when they cannot be read.
func (w *worker) pageFaults() (int64, bool) {
	if w.statFile == nil {
		return 0, false
	}
	var buf [1024]byte
	n, err := w.statFile.ReadAt(buf[:], 0)
	if n == 0 && err != nil {
		return 0, false
	}
	return parseFaults(buf[:n])
}

// parseFaults reads minflt and majflt from a /proc/<pid>/stat line. The
// command name in parentheses may hold spaces and parentheses of its own,
// so fields count from the last ')'.
func parseFaults(stat []byte) (int64, bool) {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	// After ')': state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt.
	f := bytes.Fields(stat[i+1:])
	if len(f) < 10 {
		return 0, false
	}
	minflt, err1 := strconv.ParseInt(string(f[7]), 10, 64)
	majflt, err2 := strconv.ParseInt(string(f[9]), 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return minflt + majflt, true
}

// openStat opens /proc/<pid>/stat for pageFaults. A descriptor of a
// /proc/<pid> file stays bound to that process: once it is gone, reads
// fail rather than describe a process that reused the pid.
func openStat(pid int) *os.File {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return nil
	}
	return f
}
