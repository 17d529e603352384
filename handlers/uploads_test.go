package handlers_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"mime/multipart"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
)

// appConfig holds the upload limits a test sets on its app.
type appConfig struct {
	maxUpload, userQuota int64
	bodyIdle             time.Duration
}

// newUploadApp is newApp with upload limits: the largest file, the user
// quota and the body idle timeout.
func newUploadApp(t testing.TB, cfg appConfig) *app {
	t.Helper()
	blobs, err := files.NewBlobs(filepath.Join(t.TempDir(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	a := newAppWith(t, func(c *handlers.Config) {
		c.Chat = chat.New(chat.Config{DB: c.DB, Files: blobs, MaxUpload: cfg.maxUpload, UserQuota: cfg.userQuota})
		c.BodyIdleTimeout = cfg.bodyIdle
	})
	a.blobs = blobs
	return a
}

// storeContents lists every file in the app's blob store, temporary ones
// included.
func (a *app) storeContents(t testing.TB) []string {
	t.Helper()
	dir := filepath.Dir(filepath.Dir(a.blobs.Path(strings.Repeat("0", 64))))
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// assertNothingStored checks that username has no file, and the store no
// bytes.
func (a *app) assertNothingStored(t testing.TB, username string) {
	t.Helper()
	u := mustUser(t, a, username)
	if got, err := a.db.UploadUsage(context.Background(), u.ID); err != nil || got != (store.Usage{}) {
		t.Errorf("%s's files: %+v, %v; want none", username, got, err)
	}
	if got := a.storeContents(t); len(got) > 0 {
		t.Errorf("left in the store: %v", got)
	}
}

var bomb struct {
	once sync.Once
	data []byte
}

// zipBomb is a 1 MB .xlsx: a valid one-sheet workbook plus a 1 GiB part of
// zeros, the file that grew the server's heap by 3 GB.
func zipBomb(t testing.TB) []byte {
	bomb.once.Do(func() {
		var deflated bytes.Buffer
		fw, _ := flate.NewWriter(&deflated, flate.BestCompression)
		zeros, h := make([]byte, 1<<20), crc32.NewIEEE()
		for range 1 << 10 {
			fw.Write(zeros)
			h.Write(zeros)
		}
		fw.Close()
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for name, content := range map[string]string{
			"[Content_Types].xml":        `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`,
			"xl/workbook.xml":            `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`,
			"xl/worksheets/sheet1.xml":   `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>`,
			"xl/_rels/workbook.xml.rels": `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>`,
		} {
			w, _ := zw.Create(name)
			io.WriteString(w, content)
		}
		w, _ := zw.CreateRaw(&zip.FileHeader{Name: "xl/media/image1.png", Method: zip.Deflate, CRC32: h.Sum32(),
			CompressedSize64: uint64(deflated.Len()), UncompressedSize64: 1 << 30})
		w.Write(deflated.Bytes())
		zw.Close()
		bomb.data = buf.Bytes()
	})
	return bomb.data
}

// TestUpload_ZipBomb posts the zip bomb through the real handler stack: it
// must be refused with a message in the page, store nothing, and leave the
// server's heap flat.
func TestUpload_ZipBomb(t *testing.T) {
	a := newAppWithUploadLimit(t, 8<<20)
	ana := a.signedIn("ana", store.RoleAnalyst)
	path := "/conversations/" + ana.create() + "/files"
	data := zipBomb(t)

	var r response
	grew, allocated := memoryUse(func() { r = ana.upload(path, true, part{"file", "report.xlsx", string(data)}) })
	t.Logf("a %.1f MB zip bomb: heap grew by %.1f MiB at most; %.1f MiB allocated in all, client included",
		float64(len(data))/1e6, float64(grew)/(1<<20), float64(allocated)/(1<<20))
	expect(t, r, http.StatusOK, "report.xlsx was not uploaded", "would grow from", "to 1 GB")
	if strings.Contains(r.body, `data-file-name="report.xlsx"`) {
		t.Error("the zip bomb was stored")
	}
	if grew > 64<<20 || allocated > 64<<20 {
		t.Errorf("the heap grew by %d MiB, %d MiB allocated; want at most 64", grew>>20, allocated>>20)
	}
	a.assertNothingStored(t, "ana")
}

// memoryUse runs fn and returns the most the heap grew above what was in
// use before, sampled, and the bytes allocated meanwhile, which bound that
// growth even when fn is too quick to sample.
func memoryUse(fn func()) (peakGrowth, allocated uint64) {
	base := heapInUse()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var peak atomic.Uint64
	peak.Store(base)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { sampleHeap(&peak, stop); close(done) }()
	fn()
	close(stop)
	<-done
	runtime.ReadMemStats(&after)
	return peak.Load() - min(base, peak.Load()), after.TotalAlloc - before.TotalAlloc
}

func TestUpload_Limits(t *testing.T) {
	a := newUploadApp(t, appConfig{maxUpload: testMaxUpload, userQuota: 3 << 10})
	ana := a.signedIn("ana", store.RoleAnalyst)
	path := "/conversations/" + ana.create() + "/files"

	t.Run("too many files in one request", func(t *testing.T) {
		var parts []part
		for i := range 21 {
			parts = append(parts, part{"file", fmt.Sprintf("f%d.csv", i), fmt.Sprintf("n\n%d\n", i)})
		}
		r := ana.upload(path, true, parts...)
		expect(t, r, http.StatusRequestEntityTooLarge, "more than 20 files", "Nothing was stored")
		a.assertNothingStored(t, "ana")
	})
	t.Run("a plain form gets the message as a page", func(t *testing.T) {
		var parts []part
		for i := range 21 {
			parts = append(parts, part{"file", fmt.Sprintf("f%d.csv", i), fmt.Sprintf("n\n%d\n", i)})
		}
		r := ana.upload(path, false, parts...)
		expect(t, r, http.StatusRequestEntityTooLarge, "<html", "more than 20 files")
	})
	t.Run("a name over 255 bytes", func(t *testing.T) {
		long := strings.Repeat("n", 200<<10) + ".csv"
		r := ana.upload(path, true, part{"file", long, "a\n1\n"})
		expect(t, r, http.StatusOK, "has a name of 204804 bytes; the longest accepted is 255")
		if len(r.body) > 100<<10 {
			t.Errorf("the answer echoes the name: %d bytes", len(r.body))
		}
		a.assertNothingStored(t, "ana")
	})
	t.Run("over the user's quota", func(t *testing.T) {
		first := strings.Repeat("a,b\n", 512) // 2 KiB of the 3 KiB quota
		expect(t, ana.upload(path, true, part{"file", "first.csv", first}), http.StatusOK, `data-file-name="first.csv"`)
		ok := part{"file", "small.csv", "x\n1\n"}
		over := part{"file", "second.csv", strings.Repeat("c,d\n", 512)}
		r := ana.upload(path, true, ok, over)
		expect(t, r, http.StatusRequestEntityTooLarge, "second.csv would take your files past your storage quota of 3 KB",
			"they take 2 KB now", "Nothing from this upload was stored")
		u := mustUser(t, a, "ana")
		if got, _ := a.db.UploadUsage(context.Background(), u.ID); got.Files != 1 {
			t.Errorf("files after the refusal: %+v, want first.csv only", got)
		}
		if got := a.storeContents(t); len(got) != 1 {
			t.Errorf("store holds %v, want first.csv only", got)
		}
	})
}

// TestUpload_CSRF checks the upload route's own CSRF check: the token
// comes in the header or as the form's first field, or nothing is read.
func TestUpload_CSRF(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	path := "/conversations/" + ana.create() + "/files"
	post := func(body io.Reader, contentType string) response {
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, body)
		req.Header.Set("Content-Type", contentType)
		return ana.do(req)
	}
	t.Run("no token at all", func(t *testing.T) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		w, _ := mw.CreateFormFile("file", "x.csv")
		io.WriteString(w, "a\n1\n")
		mw.Close()
		expect(t, post(&body, mw.FormDataContentType()), http.StatusForbidden, "did not come from this site")
	})
	t.Run("the token after the file", func(t *testing.T) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		w, _ := mw.CreateFormFile("file", "x.csv")
		io.WriteString(w, "a\n1\n")
		mw.WriteField("_csrf", ana.csrf)
		mw.Close()
		expect(t, post(&body, mw.FormDataContentType()), http.StatusForbidden)
	})
	t.Run("not a multipart form", func(t *testing.T) {
		expect(t, post(strings.NewReader("file=x"), "application/x-www-form-urlencoded"), http.StatusForbidden)
	})
	a.assertNothingStored(t, "ana")
}

var routeParam = regexp.MustCompile(`:[a-z]+`)

// TestEveryPostRouteNeedsTheCSRFToken posts, without a token, to every
// POST route in the table, as a signed-in user: each must answer 403, so
// that a route added later cannot silently lose CSRF protection.
func TestEveryPostRouteNeedsTheCSRFToken(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAdmin)
	for _, rt := range a.echo.Routes() {
		if rt.Method != http.MethodPost {
			continue
		}
		path := routeParam.ReplaceAllString(rt.Path, "x")
		t.Run(rt.Path, func(t *testing.T) {
			expect(t, ana.postRaw(path, url.Values{"a": {"b"}}), http.StatusForbidden)
		})
	}
}

// TestUpload_StalledBody checks the idle read deadline: an upload that
// stops sending is cut off, and nothing of it is stored, while one that
// keeps sending, however slowly, completes.
func TestUpload_StalledBody(t *testing.T) {
	const idle = time.Second
	a := newUploadApp(t, appConfig{maxUpload: testMaxUpload, bodyIdle: idle})
	ana := a.signedIn("ana", store.RoleAnalyst)
	path := "/conversations/" + ana.create() + "/files"

	t.Run("a stalled upload is cut off", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		mw := multipart.NewWriter(pw)
		go func() {
			w, _ := mw.CreateFormFile("file", "slow.csv")
			io.WriteString(w, "a,b\n1,2\n") // then nothing, for ever
		}()
		resp, err := postStream(a, ana, path, mw.FormDataContentType(), pr, pw, 30*time.Second)
		if err != nil {
			t.Fatalf("the server held the upload: %v", err)
		}
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(resp.body, "The upload stalled: nothing arrived for 1 second") {
			t.Errorf("status %d: %s", resp.StatusCode, excerpt(resp.body))
		}
		a.assertNothingStored(t, "ana")
	})
	t.Run("a slow upload that keeps sending completes", func(t *testing.T) {
		pr, pw := io.Pipe()
		mw := multipart.NewWriter(pw)
		go func() {
			w, _ := mw.CreateFormFile("file", "steady.csv")
			io.WriteString(w, "n\n")
			for i := range 30 { // 1.5 s in all, longer than the idle timeout
				time.Sleep(idle / 20)
				fmt.Fprintf(w, "%d\n", i)
			}
			mw.Close()
			pw.Close()
		}()
		resp, err := postStream(a, ana, path, mw.FormDataContentType(), pr, pw, 30*time.Second)
		if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(resp.body, `data-file-name="steady.csv"`) {
			t.Fatalf("err %v, answer %+v", err, resp)
		}
	})
}

type streamResponse struct {
	StatusCode int
	body       string
}

// postStream posts what is written to pw as an upload with the browser's
// cookies and token, giving up after timeout. Giving up closes pw too: the
// client cannot return while its body is blocked in a read.
func postStream(a *app, b *browser, path, contentType string, pr *io.PipeReader, pw *io.PipeWriter, timeout time.Duration) (streamResponse, error) {
	stop := time.AfterFunc(timeout, func() { pw.CloseWithError(errors.New("the test gave up")) })
	defer stop.Stop()
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+path, pr)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-CSRF-Token", b.csrf)
	c := *b.c
	c.Timeout = timeout
	resp, err := c.Do(req)
	if err != nil {
		return streamResponse{}, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return streamResponse{resp.StatusCode, string(data)}, nil
}

// BenchmarkUploadZipBomb posts the 1 MB zip bomb through the real handler
// stack and reports the peak heap growth while it is refused.
func BenchmarkUploadZipBomb(b *testing.B) {
	a := newAppWithUploadLimit(b, 8<<20)
	br := a.signedIn("ana", store.RoleAnalyst)
	path := "/conversations/" + br.create() + "/files"
	data := string(zipBomb(b))
	for b.Loop() {
		var r response
		grew, allocated := memoryUse(func() { r = br.upload(path, true, part{"file", "report.xlsx", data}) })
		if !strings.Contains(r.body, "report.xlsx was not uploaded") {
			b.Fatalf("the zip bomb was not refused: %d %s", r.status, excerpt(r.body))
		}
		b.ReportMetric(float64(grew)/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(allocated)/(1<<20), "alloc-MB")
	}
}
