package files

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/analyst-workbench/workbench/files/azuritetest"
)

// countingTransport counts the body bytes of the responses it carries.
type countingTransport struct{ bytes atomic.Int64 }

func (c *countingTransport) Do(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &c.bytes}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// testRangeWindow serves a small Range of a 6 MiB blob and wants at most
// the first read-ahead window fetched from storage, and a whole download
// to fetch the blob once, not more. It counts the bytes under the SDK, so
// it builds its store around a client of its own.
func testRangeWindow(t *testing.T, az *azuritetest.Server) {
	counter := &countingTransport{}
	c, err := container.NewClientFromConnectionString(az.ConnectionString, "ranges",
		&container.ClientOptions{ClientOptions: azcore.ClientOptions{Transport: counter}})
	if err != nil {
		t.Fatal(err)
	}
	if err := ensureContainer(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	st, err := newStager(filepath.Join(t.TempDir(), "staging"))
	if err != nil {
		t.Fatal(err)
	}
	a := &AzureBlobs{stager: st, container: c, blockSize: defaultBlockSize}
	data := patterned(6 << 20)
	sha := mustPut(t, a, data)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, err := a.Open(r.Context(), sha)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer f.Close()
		http.ServeContent(w, r, "", time.Time{}, f)
	}))
	defer srv.Close()

	fetch := func(rng string) ([]byte, int64) {
		counter.bytes.Store(0)
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL, nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return body, counter.bytes.Load()
	}
	part, partFetched := fetch("bytes=3000000-3000099")
	if !bytes.Equal(part, data[3000000:3000100]) || partFetched > firstWindow {
		t.Errorf("a 100-byte Range: %d bytes answered, %d fetched from storage; want the 100 and at most %d", len(part), partFetched, firstWindow)
	}
	whole, fetched := fetch("")
	if !bytes.Equal(whole, data) || fetched > int64(len(data))+64<<10 {
		t.Errorf("a whole download: %d bytes answered, %d fetched; want %d, fetched once", len(whole), fetched, len(data))
	}
	t.Logf("a 100-byte Range fetched %d bytes; a whole %d MiB download fetched %d", partFetched, len(data)>>20, fetched)
}
