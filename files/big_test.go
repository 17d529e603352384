package files

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// writeBigCSV writes a CSV of about size bytes and returns its path and
// its number of data rows.
func writeBigCSV(t testing.TB, size int64) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.csv")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintln(w, "id,day,amount,category,note")
	var rows, written int64
	categories := []string{"north", "south", "east", "west", ""}
	for written < size {
		rows++
		n, _ := fmt.Fprintf(w, "%d,2024-%02d-%02d,%d.%02d,%s,\"note, %d\"\n",
			rows, rows%12+1, rows%28+1, rows%100000, rows%100, categories[rows%5], rows%1000)
		written += int64(n)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path, rows
}

// peakHeap samples the heap in use while fn runs and returns the most it
// grew above what was in use before.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, peak := m.HeapInuse, m.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var s runtime.MemStats
			runtime.ReadMemStats(&s)
			peak = max(peak, s.HeapInuse)
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return peak - base
}

// TestBigFile streams a 200 MB CSV through Put and Profile and checks that
// neither holds the file in memory.
func TestBigFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 600 MB to disk")
	}
	const size, maxGrowth = 200 << 20, 32 << 20
	path, rows := writeBigCSV(t, size)
	b := newTestBlobs(t)
	var sha string
	grew := peakHeap(func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if sha, _, err = b.Put(t.Context(), f, MaxSize); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Put: heap grew by %.1f MiB at most", float64(grew)/(1<<20))
	if grew > maxGrowth {
		t.Errorf("Put grew the heap by %d MiB, want at most %d", grew>>20, maxGrowth>>20)
	}

	var p *FileProfile
	start := time.Now()
	grew = peakHeap(func() {
		var err error
		if p, err = Profile(context.Background(), b.Path(sha), mustKind(t, ".csv")); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("Profile: %v, heap grew by %.1f MiB at most", time.Since(start).Round(time.Millisecond), float64(grew)/(1<<20))
	if grew > maxGrowth {
		t.Errorf("Profile grew the heap by %d MiB, want at most %d", grew>>20, maxGrowth>>20)
	}
	if p.Rows != rows || !p.RowsExact {
		t.Errorf("rows = %d exact %v, want %d exact", p.Rows, p.RowsExact, rows)
	}
	wantTypes := []string{TypeInteger, TypeDate, TypeNumber, TypeText, TypeText}
	for i, c := range p.Columns {
		if c.Type != wantTypes[i] {
			t.Errorf("column %s is %s, want %s", c.Name, c.Type, wantTypes[i])
		}
	}
	if c := column(t, p, "category"); c.Missing != rows/5 {
		t.Errorf("category missing = %d, want %d over every row", c.Missing, rows/5)
	}

	// A short deadline stops the count early: the rows are then an estimate.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	p, err := Profile(ctx, b.Path(sha), mustKind(t, ".csv"))
	if err != nil {
		t.Fatal(err)
	}
	if p.RowsExact || p.Rows < rows*9/10 || p.Rows > rows*11/10 {
		t.Errorf("after a deadline: rows = %d exact %v, want an estimate within 10%% of %d", p.Rows, p.RowsExact, rows)
	}
}
