package sandbox

import (
	"fmt"
	"log/slog"
	"reflect"
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

// Config sets up a Pool. A zero field takes its default: the value in
// Defaults, or the one its comment says is worked out at start.
type Config struct {
	Isolation string // IsolationBwrap or IsolationNone
	// Warm is the workers always kept ready when the budget allows; by
	// default 2, or up to 8 when kernels fork from the template (see
	// warmFloorLocked).
	Warm int
	// MaxWarm caps the warm workers a rush may call for (see demand.go):
	// default 16 when Warm is left to its default, else Warm (a fixed pool).
	MaxWarm     int
	IdleTimeout time.Duration // as Foundry's sessions
	Lifetime    time.Duration // as Foundry's sessions
	CellTimeout time.Duration // per Exec, then SIGINT, then a kill
	MemoryBytes int64         // address space per process (RLIMIT_AS); with the tmpfs sizes, the session's memory cgroup
	DataBytes   int64         // size of /mnt/data (Foundry's file limit)
	Logger      *slog.Logger  // default slog.Default()

	// MemoryBudget is the memory all kernels may use together, warm ones
	// included; when it is full an idle kernel is evicted to make room.
	// Default: half of the memory available at start.
	MemoryBudget int64
	MaxQueue     int           // claims that may wait for a free sandbox
	QueueTimeout time.Duration // how long a claim may wait
	// StateDir keeps evicted sessions' variables and files; it is emptied at
	// start. Default: a directory under os.TempDir().
	StateDir string

	TmpBytes        int64         // size of /tmp
	Processes       int           // processes and threads per session
	CPUs            float64       // CPU quota in cores where cgroups allow
	MaxOutputBytes  int           // stdout+stderr per cell
	MaxFigures      int           // figures kept per cell
	MaxFigureBytes  int           // bytes per PNG
	InterruptGrace  time.Duration // wait after SIGINT before the kill
	StartTimeout    time.Duration // worker start to ready
	RefillParallel  int           // workers started at once; default the number of CPUs
	Cgroups         string        // CgroupsAuto, CgroupsV2, CgroupsV1 or CgroupsNone
	NoSeccomp       bool          // skip the seccomp denylist (it is on by default where supported)
	NoFork          bool          // start every kernel in a sandbox of its own instead of forking it from the template (fork.go)
	Python          string
	Bwrap           string
	WatchdogPeriod  time.Duration // memory watchdog poll without cgroups
	SelfTestTimeout time.Duration

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

// Defaults returns the value each field of Config takes when left zero (or
// negative), each decided here once; the fields worked out at start (Warm,
// MaxWarm, MemoryBudget, RefillParallel, Logger, StateDir) are zero in it.
func Defaults() Config {
	return Config{
		Isolation:       IsolationBwrap,
		Cgroups:         CgroupsAuto,
		IdleTimeout:     30 * time.Minute, // Foundry: a session ends after 30 minutes unused
		Lifetime:        time.Hour,        // Foundry: and after an hour in all
		CellTimeout:     120 * time.Second,
		MemoryBytes:     2 << 30,
		DataBytes:       512 << 20, // Foundry's limit on one file
		MaxQueue:        100,
		QueueTimeout:    2 * time.Minute,
		TmpBytes:        256 << 20,
		Processes:       128,
		CPUs:            1,
		MaxOutputBytes:  1 << 20,
		MaxFigures:      10,
		MaxFigureBytes:  5 << 20,
		InterruptGrace:  5 * time.Second,
		StartTimeout:    60 * time.Second,
		Python:          "/usr/bin/python3",
		Bwrap:           "/usr/bin/bwrap",
		WatchdogPeriod:  250 * time.Millisecond,
		SelfTestTimeout: 30 * time.Second,
	}
}

func (c Config) withDefaults() Config {
	fillUnset(&c, Defaults())
	if c.Warm <= 0 {
		c.Warm, c.warmDefaulted = 2, true
		if c.MaxWarm <= 0 {
			c.MaxWarm = defaultMaxWarm
		}
	}
	c.MaxWarm = max(c.MaxWarm, c.Warm)
	for v, d := range map[*time.Duration]time.Duration{&c.demandSpan: demandSpan, &c.demandWindow: demandWindow,
		&c.demandDay: demandDay, &c.forecastLead: forecastLead, &c.warmCheck: defaultWarmCheck} {
		if *v <= 0 {
			*v = d
		}
	}
	if c.MemoryBudget <= 0 {
		c.MemoryBudget = defaultBudget()
	}
	if c.RefillParallel <= 0 {
		c.RefillParallel = runtime.NumCPU()
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

// fillUnset sets each exported field of c that is unset (zero, or a
// negative number) to its value in d.
func fillUnset(c *Config, d Config) {
	v, dv := reflect.ValueOf(c).Elem(), reflect.ValueOf(d)
	for i := range v.NumField() {
		f := v.Field(i)
		if !f.CanSet() {
			continue
		}
		unset := f.IsZero()
		switch f.Kind() {
		case reflect.Int, reflect.Int64:
			unset = f.Int() <= 0
		case reflect.Float64:
			unset = f.Float() <= 0
		}
		if unset {
			f.Set(dv.Field(i))
		}
	}
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
