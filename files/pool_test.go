package files

import (
	"context"
	"errors"
	"testing"
	"time"
)

// heldProfiler is a Profiler whose profiles block until released, so a
// test can fill its slots or its memory.
func heldProfiler(cfg ProfilerConfig) (*Profiler, chan struct{}, chan struct{}) {
	p := NewProfiler(cfg)
	started, release := make(chan struct{}, 8), make(chan struct{})
	p.profile = func(ctx context.Context, path string, k Kind) (*FileProfile, error) {
		started <- struct{}{}
		<-release
		return &FileProfile{}, nil
	}
	return p, started, release
}

func TestProfiler_MemoryBoundsConcurrency(t *testing.T) {
	// Two slots, but memory for one CSV only: the second must wait.
	p, started, release := heldProfiler(ProfilerConfig{Workers: 2, Memory: csvCost, Wait: 50 * time.Millisecond})
	csv := writeTemp(t, "a.csv", []byte("a\n1\n"))
	k := mustKind(t, ".csv")
	done := make(chan error)
	go func() {
		_, err := p.Profile(context.Background(), csv, k)
		done <- err
	}()
	<-started
	_, err := p.Profile(context.Background(), csv, k)
	assertRefused(t, err, ErrNotProfiled, "too busy")
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := p.Profile(context.Background(), csv, k); err != nil {
		t.Errorf("once memory is free: %v", err)
	}
}

func TestProfiler_SlotsBoundConcurrency(t *testing.T) {
	p, started, release := heldProfiler(ProfilerConfig{Workers: 1, Wait: 50 * time.Millisecond})
	csv := writeTemp(t, "a.csv", []byte("a\n1\n"))
	k := mustKind(t, ".csv")
	go p.Profile(context.Background(), csv, k)
	<-started
	_, err := p.Profile(context.Background(), csv, k)
	assertRefused(t, err, ErrNotProfiled, "too busy")
	close(release)
}

func TestProfiler_RefusesWhatCannotFit(t *testing.T) {
	p, _, _ := heldProfiler(ProfilerConfig{Memory: csvCost / 2})
	_, err := p.Profile(context.Background(), writeTemp(t, "a.csv", []byte("a\n1\n")), mustKind(t, ".csv"))
	assertRefused(t, err, ErrNotProfiled, "more memory than the server sets aside")
}

func TestProfiler_CallerGivesUp(t *testing.T) {
	p, started, release := heldProfiler(ProfilerConfig{Workers: 1})
	defer close(release)
	csv := writeTemp(t, "a.csv", []byte("a\n1\n"))
	k := mustKind(t, ".csv")
	go p.Profile(context.Background(), csv, k)
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Profile(ctx, csv, k); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want the caller's context.Canceled", err)
	}
}

func TestProfiler_WorkbookCostFollowsItsParts(t *testing.T) {
	// A 62 MB part excelize would hold whole: over the profile memory.
	path := writeZip(t, "heavy.xlsx", workbookWith(zipEntry{name: "xl/styles.xml", content: string(make([]byte, 62<<20))})...)
	p := NewProfiler(ProfilerConfig{})
	_, err := p.Profile(context.Background(), path, mustKind(t, ".xlsx"))
	assertRefused(t, err, ErrNotProfiled, "This workbook was not profiled")

	light := writeWorkbook(t, [][]any{{"a"}, {1}})
	if got, err := p.Profile(context.Background(), light, mustKind(t, ".xlsx")); err != nil || got.Rows != 1 {
		t.Errorf("a light workbook: %+v, %v", got, err)
	}
}
