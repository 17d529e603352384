package files

import (
	"context"
	"runtime"
	"time"

	"golang.org/x/sync/semaphore"
)

// Estimated peak memory of one profile. A text file's is fixed, because
// its reader keeps at most one bounded record (maxRecordBytes,
// maxJSONValue) besides the sample; a workbook's follows its parts
// (xlsxCost), and one over maxProfileMemory is not profiled at all.
const (
	csvCost          int64 = 16 << 20
	jsonCost         int64 = 8*maxJSONValue + 8<<20
	maxProfileMemory int64 = 256 << 20
)

// Defaults of a [Profiler].
const (
	DefaultProfileMemory int64 = 512 << 20
	DefaultProfileWait         = time.Minute
)

// ProfilerConfig sizes a [Profiler]; zero fields take the defaults.
type ProfilerConfig struct {
	// Workers is how many profiles run at once; by default as many as the
	// CPUs, up to 4.
	Workers int
	// Memory is what the profiles running at once may need together, by
	// their estimates; DefaultProfileMemory by default.
	Memory int64
	// Wait is how long a file waits for its turn before it is stored
	// without a profile; DefaultProfileWait by default.
	Wait time.Duration
}

// Profiler runs [Profile] in a bounded pool, so that a burst of uploads
// cannot profile without limit in parallel, each in its own request: at
// most Workers profiles run at once, and only while the memory they are
// estimated to need fits in Memory. The semaphore is fair, so a large
// workbook waiting for memory is not overtaken for ever by small files.
type Profiler struct {
	slots  chan struct{}
	memory *semaphore.Weighted
	budget int64
	wait   time.Duration
	// profile does the work; tests replace it to hold a slot.
	profile func(ctx context.Context, path string, k Kind) (*FileProfile, error)
}

// NewProfiler returns a Profiler sized by cfg.
func NewProfiler(cfg ProfilerConfig) *Profiler {
	if cfg.Workers <= 0 {
		cfg.Workers = min(runtime.GOMAXPROCS(0), 4)
	}
	if cfg.Memory <= 0 {
		cfg.Memory = DefaultProfileMemory
	}
	if cfg.Wait <= 0 {
		cfg.Wait = DefaultProfileWait
	}
	return &Profiler{slots: make(chan struct{}, cfg.Workers), memory: semaphore.NewWeighted(cfg.Memory),
		budget: cfg.Memory, wait: cfg.Wait, profile: Profile}
}

// Profile is [Profile] run in the pool. A file that would need more than
// the pool's memory, or whose turn does not come within the wait, is not
// profiled: a [*UserError] wrapping [ErrNotProfiled] says why.
func (p *Profiler) Profile(ctx context.Context, path string, k Kind) (*FileProfile, error) {
	cost, err := profileCost(path, k)
	switch {
	case err != nil:
		return nil, err
	case cost == 0:
		return nil, ErrNoProfile
	case cost > p.budget:
		return nil, errProfileTooLarge()
	}
	release, err := p.acquire(ctx, cost)
	if err != nil {
		return nil, err
	}
	defer release()
	return p.profile(ctx, path, k)
}

// acquire waits for a slot and cost bytes of the memory budget.
func (p *Profiler) acquire(ctx context.Context, cost int64) (func(), error) {
	wctx, cancel := context.WithTimeout(ctx, p.wait)
	defer cancel()
	select {
	case p.slots <- struct{}{}:
	case <-wctx.Done():
		return nil, waitErr(ctx)
	}
	if err := p.memory.Acquire(wctx, cost); err != nil {
		<-p.slots
		return nil, waitErr(ctx)
	}
	return func() {
		p.memory.Release(cost)
		<-p.slots
	}, nil
}

// waitErr tells a caller that gave up (ctx ended) from a queue that was
// too long.
func waitErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return errProfileBusy()
}

// profileCost estimates the peak memory of profiling the file at path.
// Kinds without a profile cost nothing; a workbook that must not be opened
// gives checkWorkbook's refusal.
func profileCost(path string, k Kind) (int64, error) {
	switch k.Ext {
	case ".csv", ".tsv":
		return csvCost, nil
	case ".json":
		return jsonCost, nil
	case ".xlsx":
		return checkWorkbook(path)
	}
	return 0, nil
}

func errProfileTooLarge() *UserError {
	return userErr(ErrNotProfiled, "This file was not profiled: describing it would take more memory than the server sets aside. "+
		"The file itself was uploaded: ask the assistant about it as usual.")
}

func errProfileBusy() *UserError {
	return userErr(ErrNotProfiled, "This file was not profiled: the server was too busy with other uploads. "+
		"The file itself was uploaded: ask the assistant about it as usual.")
}
