package sandbox

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"
)

// Isolation modes for Config.Isolation.
const (
	IsolationBwrap = "bwrap" // the default: bubblewrap namespaces, seccomp, rlimits, cgroups
	IsolationNone  = "none"  // no sandbox at all; development machines without user namespaces only
)

// Resource-limit backends for Config.Cgroups.
const (
	CgroupsAuto = "auto" // v2 if delegated, else v1, else rlimits plus a watchdog
	CgroupsV2   = "v2"
	CgroupsV1   = "v1"
	CgroupsNone = "none" // rlimits plus a memory watchdog only
)

// Config sets up a Pool. Zero fields take the defaults documented on each.
type Config struct {
	Isolation string // IsolationBwrap (default) or IsolationNone
	// Warm is the workers always kept ready when the budget allows; by
	// default 2, or up to 8 when kernels fork from the template (see
	// warmFloorLocked).
	Warm int
	// MaxWarm caps the warm workers a rush may call for (see demand.go):
	// default 16 when Warm is left to its default, else Warm (a fixed pool).
	MaxWarm     int
	IdleTimeout time.Duration // default 30 min, as Foundry
	Lifetime    time.Duration // default 1 h, as Foundry
	CellTimeout time.Duration // per Exec; default 120 s, then SIGINT, then a kill
	MemoryBytes int64         // address space per process (RLIMIT_AS); with the tmpfs sizes, the session's memory cgroup; default 2 GiB
	DataBytes   int64         // size of /mnt/data; default 512 MiB (Foundry's file limit)
	Logger      *slog.Logger  // default slog.Default()

	// MemoryBudget is the memory all kernels may use together, warm ones
	// included; when it is full an idle kernel is evicted to make room.
	// Default: half of the memory available at start.
	MemoryBudget int64
	MaxQueue     int           // claims that may wait for a free sandbox; default 100
	QueueTimeout time.Duration // how long a claim may wait; default 2 min
	// StateDir keeps evicted sessions' variables and files; it is emptied at
	// start. Default: a directory under os.TempDir().
	StateDir string

	TmpBytes        int64         // size of /tmp; default 256 MiB
	Processes       int           // processes and threads per session; default 128
	CPUs            float64       // CPU quota in cores where cgroups allow; default 1
	MaxOutputBytes  int           // stdout+stderr per cell; default 1 MiB
	MaxFigures      int           // figures kept per cell; default 10
	MaxFigureBytes  int           // bytes per PNG; default 5 MiB
	InterruptGrace  time.Duration // wait after SIGINT before the kill; default 5 s
	StartTimeout    time.Duration // worker start to ready; default 60 s
	RefillParallel  int           // workers started at once; default the number of CPUs
	Cgroups         string        // CgroupsAuto (default), CgroupsV2, CgroupsV1 or CgroupsNone
	NoSeccomp       bool          // skip the seccomp denylist (it is on by default where supported)
	NoFork          bool          // start every kernel in a sandbox of its own instead of forking it from the template (fork.go)
	Python          string        // default /usr/bin/python3
	Bwrap           string        // default /usr/bin/bwrap
	WatchdogPeriod  time.Duration // memory watchdog poll without cgroups; default 250 ms
	SelfTestTimeout time.Duration // default 30 s

	// demandSpan, demandWindow, demandDay, forecastLead and warmCheck size
	// the warm pool (see demand.go); tests shorten them.
	demandSpan, demandWindow, demandDay, forecastLead, warmCheck time.Duration

	// warmDefaulted is set when Warm was left to its default, which
	// forking raises.
	warmDefaulted bool
	// memoryOf measures a kernel's memory by its pid; tests replace it to
	// make eviction deterministic. Default: uniqueMemory.
	memoryOf func(pid int) int64
	// gaugeMemory: memoryOf is the default, costly to read, so a session
	// reads it again only when its kernel may have grown (gauge.go).
	gaugeMemory bool
	// templateMemoryOf measures the template (fork.go), charged once; tests
	// replace it too. Default: privateMemory, all of its heap.
	templateMemoryOf func(pid int) int64
}

func (c Config) withDefaults() Config {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defInt64 := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	if c.Isolation == "" {
		c.Isolation = IsolationBwrap
	}
	if c.Cgroups == "" {
		c.Cgroups = CgroupsAuto
	}
	if c.Warm <= 0 {
		c.Warm, c.warmDefaulted = 2, true
		defInt(&c.MaxWarm, defaultMaxWarm)
	}
	c.MaxWarm = max(c.MaxWarm, c.Warm)
	def(&c.demandSpan, demandSpan)
	def(&c.demandWindow, demandWindow)
	def(&c.demandDay, demandDay)
	def(&c.forecastLead, forecastLead)
	def(&c.warmCheck, defaultWarmCheck)
	defInt(&c.MaxQueue, 100)
	def(&c.QueueTimeout, 2*time.Minute)
	if c.MemoryBudget <= 0 {
		c.MemoryBudget = defaultBudget()
	}
	def(&c.IdleTimeout, 30*time.Minute)
	def(&c.Lifetime, time.Hour)
	def(&c.CellTimeout, 120*time.Second)
	def(&c.InterruptGrace, 5*time.Second)
	def(&c.StartTimeout, 60*time.Second)
	def(&c.WatchdogPeriod, 250*time.Millisecond)
	def(&c.SelfTestTimeout, 30*time.Second)
	defInt64(&c.MemoryBytes, 2<<30)
	defInt64(&c.DataBytes, 512<<20)
	defInt64(&c.TmpBytes, 256<<20)
	defInt(&c.Processes, 128)
	defInt(&c.MaxOutputBytes, 1<<20)
	defInt(&c.MaxFigures, 10)
	defInt(&c.MaxFigureBytes, 5<<20)
	defInt(&c.RefillParallel, runtime.NumCPU())
	if c.CPUs <= 0 {
		c.CPUs = 1
	}
	if c.Python == "" {
		c.Python = "/usr/bin/python3"
	}
	if c.Bwrap == "" {
		c.Bwrap = "/usr/bin/bwrap"
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.memoryOf == nil {
		c.memoryOf, c.gaugeMemory = uniqueMemory, true
	}
	if c.templateMemoryOf == nil {
		c.templateMemoryOf = privateMemory
	}
	return c
}

func (c Config) validate() error {
	switch c.Isolation {
	case IsolationBwrap, IsolationNone:
	default:
		return fmt.Errorf("sandbox: unknown isolation %q (want %q or %q)", c.Isolation, IsolationBwrap, IsolationNone)
	}
	switch c.Cgroups {
	case CgroupsAuto, CgroupsV2, CgroupsV1, CgroupsNone:
	default:
		return fmt.Errorf("sandbox: unknown cgroups mode %q", c.Cgroups)
	}
	if c.MemoryBytes < 256<<20 {
		return fmt.Errorf("sandbox: memory limit %d is below 256 MiB, too small for pandas", c.MemoryBytes)
	}
	return nil
}

// seccompOn reports whether the seccomp filter should be installed.
func (c Config) seccompOn() bool {
	return !c.NoSeccomp && seccompSupported
}
