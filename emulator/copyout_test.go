package emulator

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/files"
)

// TestLargeContainerFileStreams has a cell write a 400 MB file and copies
// it out through the container file's content route into a blob store, as
// chat does, and wants the heap to grow by less than 64 MB meanwhile: the
// kernel's chunks go to the client as they come, never held whole.
func TestLargeContainerFileStreams(t *testing.T) {
	const size = 400 << 20
	ts := newTestServer(t)
	ts.createAgent("copier")
	conv := ts.json("POST", "/openai/v1/conversations", nil, 200)
	out := ts.json("POST", "/openai/v1/responses", turnBody("copier", map[string]any{"conversation": conv["id"],
		"input": "```python\nwith open('/mnt/data/big.bin', 'wb') as f:\n    for i in range(400):\n        f.write(bytes([i % 251]) * (1 << 20))\nprint('written')\n```"}), 200)
	container := get(out, "output", 0, "container_id").(string)
	listing := ts.json("GET", "/openai/v1/containers/"+container+"/files", nil, 200)
	var fileID string
	for _, f := range get(listing, "data").([]any) {
		if f := f.(map[string]any); f["path"] == "/mnt/data/big.bin" {
			fileID = f["id"].(string)
		}
	}
	if fileID == "" {
		t.Fatalf("big.bin not listed: %v", listing)
	}
	blobs, err := files.NewBlobs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	peak := watchHeap(t)
	resp := ts.send("GET", "/openai/v1/containers/"+container+"/files/"+fileID+"/content", nil)
	defer resp.Body.Close()
	_, n, err := blobs.Put(t.Context(), resp.Body, 512<<20)
	growth := peak()
	if err != nil || n != size {
		t.Fatalf("copied %d bytes, %v; want %d", n, err, size)
	}
	t.Logf("heap grew by %d MiB copying %d MiB", growth>>20, n>>20)
	if growth > 64<<20 {
		t.Errorf("the heap grew by %d MiB copying a %d MiB file, want under 64 MiB", growth>>20, n>>20)
	}
}

// watchHeap samples the live heap until the returned function is called,
// which says by how much it grew above where it started at its highest.
func watchHeap(t *testing.T) (growth func() uint64) {
	t.Helper()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, top := ms.HeapAlloc, ms.HeapAlloc
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			top = max(top, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(stop)
		wg.Wait()
		return top - base
	}
}
