package handlers_test

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/store"
)

const uploadBenchBytes = 512 << 20

// BenchmarkUpload512MB posts a 512 MB CSV through the real upload handler
// (multipart parsing, type check, hashing, fsync, profile) and reports its
// throughput and the peak heap growth while it ran.
// BenchmarkDDBaseline writes the same number of bytes to the same disk
// with dd, for the side-by-side comparison.
func BenchmarkUpload512MB(b *testing.B) {
	a := newAppWithUploadLimit(b, uploadBenchBytes+1<<20)
	br := a.signedIn("ana", store.RoleAnalyst)
	for i := 0; i < b.N; i++ {
		id := br.create()
		base := heapInUse()
		var peak atomic.Uint64
		stop := make(chan struct{})
		go sampleHeap(&peak, stop)

		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			w, _ := mw.CreateFormFile("file", fmt.Sprintf("big-%d.csv", i))
			writeCSV(w, uploadBenchBytes)
			mw.Close()
			pw.Close()
		}()
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/conversations/"+id+"/files", pr)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("X-CSRF-Token", br.csrf)
		req.Header.Set("X-Upload", "1")
		start := time.Now()
		r := br.do(req)
		elapsed := time.Since(start)
		close(stop)
		if r.status != http.StatusOK || !strings.Contains(r.body, `data-file-name="big-`) {
			b.Fatalf("upload: %d %s", r.status, excerpt(r.body))
		}
		b.ReportMetric(float64(uploadBenchBytes)/(1<<20)/elapsed.Seconds(), "MB/s")
		b.ReportMetric(float64(peak.Load()-min(base, peak.Load()))/(1<<20), "peak-heap-MB")
	}
}

func BenchmarkDDBaseline(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, "dd.bin")
		start := time.Now()
		cmd := exec.Command("dd", "if=/dev/zero", "of="+out, "bs=1M", fmt.Sprintf("count=%d", uploadBenchBytes>>20), "conv=fsync")
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(uploadBenchBytes)/(1<<20)/time.Since(start).Seconds(), "MB/s")
		os.Remove(out)
	}
}

// writeCSV writes n bytes of a plausible CSV.
func writeCSV(w io.Writer, n int) {
	w.Write([]byte("date,region,units,revenue\n"))
	line := []byte("2026-01-05,North,12,1200.50\n")
	buf := make([]byte, 0, 1<<20)
	for len(buf)+len(line) <= cap(buf) {
		buf = append(buf, line...)
	}
	written := 26
	for written+len(buf) <= n {
		w.Write(buf)
		written += len(buf)
	}
}

func sampleHeap(peak *atomic.Uint64, stop <-chan struct{}) {
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if v := m.HeapInuse + m.StackInuse; v > peak.Load() {
				peak.Store(v)
			}
		}
	}
}

// BenchmarkGallery200 measures the server time of a gallery page with 200
// charts (thumbnails are separate, cached requests).
func BenchmarkGallery200(b *testing.B) {
	a := newApp(b)
	br := a.signedIn("ana", store.RoleAnalyst)
	convID := br.create()
	u := mustUser(b, a, "ana")
	for i := range 200 {
		a.addArtifact(b, u.ID, convID, fmt.Sprintf("chart-%03d.png", i), "image/png", store.ArtifactImage, fmt.Sprintf("png %d", i))
	}
	req := br.request(http.MethodGet, "/conversations/"+convID+"/gallery")
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		a.echo.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
