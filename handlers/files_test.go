package handlers_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

type part struct{ field, name, content string }

// upload posts a multipart body; with header true the CSRF token goes in
// X-CSRF-Token as htmx and the upload script send it, otherwise as the
// form's first field of a browser's plain HTML form post.
func (b *browser) upload(path string, header bool, parts ...part) response {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if !header {
		mw.WriteField("_csrf", b.csrf)
	}
	for _, p := range parts {
		if p.name == "" {
			mw.WriteField(p.field, p.content)
			continue
		}
		w, _ := mw.CreateFormFile(p.field, p.name)
		w.Write([]byte(p.content))
	}
	mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.app.srv.URL+path, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if header {
		req.Header.Set("X-CSRF-Token", b.csrf)
		req.Header.Set("X-Upload", "1")
	} else {
		req.Header.Set("Sec-Fetch-Mode", "navigate") // what a browser sends for a form post
	}
	return b.do(req)
}

const salesCSV = "date,region,revenue\n2026-01-01,North,1200.5\n2026-01-02,South,\n2026-01-03,East,1530\n"

func TestUpload(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	id := ana.create()
	path := "/conversations/" + id + "/files"

	t.Run("a CSV is stored and profiled at once", func(t *testing.T) {
		r := ana.upload(path, true, part{"file", "sales.csv", salesCSV})
		expect(t, r, http.StatusOK, `data-file-name="sales.csv"`, "3 rows × 3 columns", "revenue", "33.3%")
		expect(t, ana.get("/conversations/"+id), http.StatusOK, `name="file_id"`, "sales.csv")
	})
	t.Run("the same bytes again are refused by name", func(t *testing.T) {
		r := ana.upload(path, true, part{"file", "copy.csv", salesCSV})
		expect(t, r, http.StatusOK, "copy.csv was not uploaded", "same content as sales.csv")
	})
	t.Run("one bad file does not lose the good one", func(t *testing.T) {
		r := ana.upload(path, true, part{"file", "tool.exe", "MZ\x90\x00"}, part{"file", "notes.txt", "hello"})
		expect(t, r, http.StatusOK, "tool.exe was not uploaded", `data-file-name="notes.txt"`)
	})
	t.Run("content that contradicts the extension", func(t *testing.T) {
		png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
		expect(t, ana.upload(path, true, part{"file", "data.csv", png}), http.StatusOK, "data.csv was not uploaded")
	})
	t.Run("a type the local engine keeps but cannot read is said", func(t *testing.T) {
		r := ana.upload(path, true, part{"file", "table.parquet", "PAR1\x15\x04\x15\x10PAR1"})
		expect(t, r, http.StatusOK, `data-file-name="table.parquet"`, "table.parquet was uploaded", "no Parquet reader")
	})
	t.Run("over the size limit", func(t *testing.T) {
		big := strings.Repeat("a,b\n", testMaxUpload/4+10)
		r := ana.upload(path, true, part{"file", "big.csv", big})
		expect(t, r, http.StatusOK, "big.csv was not uploaded")
		if strings.Contains(r.body, `data-file-name="big.csv"`) {
			t.Fatal("an oversized file was stored")
		}
	})
	t.Run("a plain HTML form with the token as first field", func(t *testing.T) {
		r := ana.upload(path, false, part{"file", "plain.json", `[{"a": 1}, {"a": 2}]`})
		if r.status != http.StatusSeeOther {
			t.Fatalf("no-JS upload: %d %s", r.status, excerpt(r.body))
		}
		expect(t, ana.get("/conversations/"+id), http.StatusOK, `data-file-name="plain.json"`)
	})
	t.Run("without a CSRF token", func(t *testing.T) {
		saved := ana.csrf
		ana.csrf = "forged"
		r := ana.upload(path, false, part{"file", "x.csv", "a\n1\n"})
		ana.csrf = saved
		expect(t, r, http.StatusForbidden)
	})
	t.Run("into another user's conversation", func(t *testing.T) {
		bob := a.signedIn("bob", store.RoleAnalyst)
		expect(t, bob.upload(path, true, part{"file", "x.csv", "a\n1\n"}), http.StatusNotFound)
	})
}

// TestRemoveFile removes an uploaded file: htmx gets the panel without it
// and the new count out of band; another user cannot remove it.
func TestRemoveFile(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	bob := a.signedIn("bob", store.RoleAnalyst)
	ctx := context.Background()
	u := mustUser(t, a, "ana")
	conv, _ := a.db.CreateConversation(ctx, u.ID, "c")
	keep, _ := a.db.AddFile(ctx, u.ID, store.File{ConversationID: conv.ID, Name: "keep.csv", ContentType: "text/csv", Size: 1, SHA256: "k"})
	gone, _ := a.db.AddFile(ctx, u.ID, store.File{ConversationID: conv.ID, Name: "gone.csv", ContentType: "text/csv", Size: 1, SHA256: "g"})
	path := "/conversations/" + conv.ID + "/files/" + gone.ID + "/delete"

	bob.get("/")
	expect(t, bob.postRaw(path, url.Values{"_csrf": {bob.csrf}}, "HX-Request", "true"), http.StatusNotFound)
	r := ana.postRaw(path, url.Values{"_csrf": {ana.csrf}}, "HX-Request", "true")
	expect(t, r, http.StatusOK, `id="files-panel"`, "keep.csv", `data-count="1" hx-swap-oob="true">Files (1)</span>`)
	if strings.Contains(r.body, "gone.csv") {
		t.Fatal("the removed file is still in the panel")
	}
	if files, _ := a.db.Files(ctx, u.ID, conv.ID); len(files) != 1 || files[0].ID != keep.ID {
		t.Fatalf("files left: %v", files)
	}
	// Without JavaScript: back to the conversation.
	expect(t, ana.post("/conversations/"+conv.ID+"/files/"+keep.ID+"/delete", nil), http.StatusSeeOther)
}
