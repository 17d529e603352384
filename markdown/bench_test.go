package markdown

import (
	"syscall"
	"testing"
	"time"
)

// BenchmarkRender renders a realistic 4 KB answer: two tables, a Python code block, lists and
// sandbox links, as the app does again and again while an answer streams. Its code block is
// highlighted once and then served from the cache, as in the app; BenchmarkRender_cold
// measures the first rendering. Besides wall time it reports the process's CPU time per
// rendering (cpu-ns/op), which stays meaningful on a machine shared with other work.
func BenchmarkRender(b *testing.B) {
	benchmarkRender(b, func() {})
}

// BenchmarkRender_cold empties the highlight cache before every rendering.
func BenchmarkRender_cold(b *testing.B) {
	benchmarkRender(b, func() { blocks = newHighlightCache(1 << 20) })
}

func benchmarkRender(b *testing.B, before func()) {
	src := readAnswer(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		before()
		artifactLinks.Render(src)
	}
	b.ReportMetric(float64(cpuTime(b)-start)/float64(b.N), "cpu-ns/op")
}

// cpuTime returns the user and system CPU time the process has used.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
