package emulator

import (
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strings"
	"testing"
)

// TestUploadStreamsToDisk sends files bigger than any buffer, through a pipe so that the test
// itself holds no copy, and checks that the server's allocations stay far below their size and
// that the limit is exact.
func TestUploadStreamsToDisk(t *testing.T) {
	const limit = 24 << 20
	ts := newTestServer(t, func(c *Config) { c.MaxFileSize = limit })
	tests := []struct {
		name       string
		size       int64
		wantStatus int
		wantBody   string
	}{
		{name: "at the limit", size: limit, wantStatus: 200, wantBody: fmt.Sprintf(`"bytes":%d`, limit)},
		{name: "one byte over", size: limit + 1, wantStatus: 400, wantBody: `"code":"file_size_exceeded"`},
		{name: "twice the limit", size: 2 * limit, wantStatus: 400, wantBody: `"code":"file_size_exceeded"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			status, body := ts.uploadStream("big.csv", tt.size)
			runtime.ReadMemStats(&after)
			if status != tt.wantStatus || !strings.Contains(body, tt.wantBody) {
				t.Fatalf("got %d %s, want %d with %s", status, body, tt.wantStatus, tt.wantBody)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("%d bytes allocated for a %d-byte upload: it was not streamed", alloc, tt.size)
			}
		})
	}
}

// uploadStream uploads size bytes of zeros generated on the fly.
func (ts *testServer) uploadStream(name string, size int64) (int, string) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		_ = mw.WriteField("purpose", "assistants")
		part, _ := mw.CreateFormFile("file", name)
		chunk := make([]byte, 32<<10)
		for left := size; left > 0; left -= int64(len(chunk)) {
			if _, err := part.Write(chunk[:min(int64(len(chunk)), left)]); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	req, _ := http.NewRequest("POST", ts.base+"/openai/v1/files", pr)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ts.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}
