package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/files/azuritetest"
)

// TestBlobStoreAzureEndToEnd runs the app with BLOB_STORE=azure against a
// throwaway Azurite: a file uploaded through the app downloads with the
// same sha256, a Range request answers the right bytes, the blob is in the
// container under its digest, and no copy of it is left under DATA_DIR.
func TestBlobStoreAzureEndToEnd(t *testing.T) {
	az := azuritetest.Start(t)
	dataDir := t.TempDir()
	base := startApp(t, dataDir, map[string]string{"BLOB_STORE": "azure",
		"AZURE_STORAGE_CONNECTION_STRING": az.ConnectionString, "AZURE_STORAGE_CONTAINER": "e2e"})
	b := signIn(t, base, "ops", "a long enough password")

	content := []byte("date,region,revenue\n" + strings.Repeat("2026-01-01,North,1200.5\n2026-01-02,South,980\n", 4000))
	sum := sha256.Sum256(content)
	sha := hex.EncodeToString(sum[:])
	conv := b.newConversation(t)
	fileID := b.upload(t, conv, "sales.csv", content)
	share := b.share(t, conv)

	whole := b.get(t, share+"/files/"+fileID, "")
	if got := sha256.Sum256(whole); got != sum {
		t.Errorf("the download's sha256 is %x, want %s", got, sha)
	}
	if part := b.get(t, share+"/files/"+fileID, "bytes=1000-1999"); !bytes.Equal(part, content[1000:2000]) {
		t.Errorf("Range bytes=1000-1999 answered %d bytes, not the upload's bytes 1000 to 1999", len(part))
	}
	if !inContainer(t, az, "e2e", sha) {
		t.Errorf("no blob %s in the container", sha)
	}
	if leftover := copiesUnder(t, dataDir, content, sha); len(leftover) > 0 {
		t.Errorf("the file's bytes landed under DATA_DIR: %v", leftover)
	}
}

// startApp runs the app against a standalone emulator (no code runs in
// these tests) with the settings in env, and waits until it is ready.
func startApp(t *testing.T, dataDir string, env map[string]string) string {
	t.Helper()
	emu, err := emulator.New(emulator.Config{Token: "blob-token", DataDir: t.TempDir(), Kernels: noKernels{}})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(emu)
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", addr, "-data-dir", dataDir, "-foundry-endpoint", hs.URL + "/api/projects/p",
			"-foundry-model", "local", "-foundry-token", "blob-token", "-admin-username", "ops",
			"-admin-password", "a long enough password"}, func(k string) string { return env[k] }, io.Discard)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
		hs.Close()
		emu.Close()
	})
	base := "http://" + addr
	waitReady(t, base, done)
	return base
}

// waitReady waits until /readyz answers 200, failing at once if the app
// stops instead.
func waitReady(t *testing.T, base string, done <-chan error) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case err := <-done:
			t.Fatalf("the app stopped before it was ready: %v", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("not ready in 60 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// browser is a signed-in client with the CSRF token of its session.
type browser struct {
	base string
	c    *http.Client
	csrf string
}

var csrfMeta = regexp.MustCompile(`name="csrf-token" content="([^"]+)"`)

// signIn signs in with a password and keeps the session's cookie.
func signIn(t *testing.T, base, user, password string) *browser {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	b := &browser{base: base, c: &http.Client{Jar: jar}}
	b.readToken(t, "/login")
	resp, err := b.c.PostForm(base+"/login", url.Values{"username": {user}, "password": {password}, "_csrf": {b.csrf}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	b.readToken(t, "/") // a new session, a new token
	return b
}

func (b *browser) readToken(t *testing.T, path string) {
	t.Helper()
	page := string(b.get(t, path, ""))
	m := csrfMeta.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no CSRF token on %s", path)
	}
	b.csrf = m[1]
}

// get fetches path (or an absolute URL), with a Range header when rng is
// set, and wants 200, or 206 for a range.
func (b *browser) get(t *testing.T, path, rng string) []byte {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.url(path), nil)
	want := http.StatusOK
	if rng != "" {
		req.Header.Set("Range", rng)
		want = http.StatusPartialContent
	}
	return b.do(t, req, want)
}

func (b *browser) url(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return b.base + path
}

func (b *browser) do(t *testing.T, req *http.Request, want int) []byte {
	t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != want {
		t.Fatalf("%s %s: %d (%v), want %d: %.300s", req.Method, req.URL.Path, resp.StatusCode, err, want, body)
	}
	return body
}

// newConversation creates a conversation and returns its id.
func (b *browser) newConversation(t *testing.T) string {
	t.Helper()
	b.c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	defer func() { b.c.CheckRedirect = nil }()
	req, _ := http.NewRequest(http.MethodPost, b.base+"/conversations", strings.NewReader(url.Values{"_csrf": {b.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := b.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	id, ok := strings.CutPrefix(resp.Header.Get("Location"), "/conversations/")
	if !ok {
		t.Fatalf("new conversation: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	return id
}

var fileCard = regexp.MustCompile(`class="file-card" id="file-([^"]+)"`)

// upload uploads one file into the conversation, as the upload script
// does, and returns the file's id.
func (b *browser) upload(t *testing.T, conv, name string, content []byte) string {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	w, _ := mw.CreateFormFile("file", name)
	w.Write(content)
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.base+"/conversations/"+conv+"/files", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("X-CSRF-Token", b.csrf)
	req.Header.Set("X-Upload", "1")
	m := fileCard.FindSubmatch(b.do(t, req, http.StatusOK))
	if m == nil {
		t.Fatal("the upload answered no file card")
	}
	return string(m[1])
}

// share makes a link for anyone, uploads included, and returns its URL.
func (b *browser) share(t *testing.T, conv string) string {
	t.Helper()
	form := url.Values{"anyone": {"1"}, "include_uploads": {"1"}, "_csrf": {b.csrf}}
	req, _ := http.NewRequest(http.MethodPost, b.base+"/conversations/"+conv+"/shares", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return strings.TrimSpace(string(b.do(t, req, http.StatusCreated)))
}

// inContainer reports whether the container holds a blob named sha.
func inContainer(t *testing.T, az *azuritetest.Server, name, sha string) bool {
	t.Helper()
	c, err := container.NewClientFromConnectionString(az.ConnectionString, name, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.NewBlobClient(sha).GetProperties(t.Context(), nil)
	return err == nil
}

// copiesUnder lists the files under dir that hold content or are named
// after its digest.
func copiesUnder(t *testing.T, dir string, content []byte, sha string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(d.Name(), sha) {
			found = append(found, path)
			return nil
		}
		if info, err := d.Info(); err == nil && info.Size() == int64(len(content)) {
			if data, err := os.ReadFile(path); err == nil && bytes.Equal(data, content) {
				found = append(found, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
