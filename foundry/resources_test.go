package foundry

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"mime/multipart"
	"strings"
	"testing"
	"time"
)

func TestClient_UploadFile(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"POST /openai/v1/files": {{file: "json/file.json"}}})
	var asked []string
	c, err := New(Config{Endpoint: rs.URL + testProject, Credential: StaticToken(testToken),
		ContentType: func(name string) string { asked = append(asked, name); return "application/csv" }})
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.UploadFile(context.Background(), "dir/sales.csv", strings.NewReader("a,b\n1,2\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := File{ID: "assistant-Fq1", Filename: "sales.csv", Bytes: 42, Purpose: "assistants", Status: "processed",
		CreatedAt: time.Unix(1767225600, 0).UTC()}
	if f != want {
		t.Errorf("file = %+v, want %+v", f, want)
	}
	parts := multipartParts(t, rs.requests()[0])
	if file := parts["file"]; file.filename != "sales.csv" || file.contentType != "application/csv" || file.body != "a,b\n1,2\n" {
		t.Errorf("file part = %+v, want sales.csv as application/csv, the type Config.ContentType named", file)
	}
	if parts["purpose"].body != "assistants" {
		t.Errorf("purpose part = %q", parts["purpose"].body)
	}
	if len(asked) != 1 || asked[0] != "sales.csv" {
		t.Errorf("ContentType asked for %q, want the base name once", asked)
	}
}

// TestClient_UploadFile_NoContentType: without Config.ContentType every file
// goes out as bytes of no named kind, never as what this host's MIME
// database happens to say.
func TestClient_UploadFile_NoContentType(t *testing.T) {
	rs := newReplay(t, map[string][]reply{"POST /openai/v1/files": {{file: "json/file.json"}}})
	if _, err := rs.client(t).UploadFile(context.Background(), "app.ts", strings.NewReader("let x = 1\n")); err != nil {
		t.Fatal(err)
	}
	if got := multipartParts(t, rs.requests()[0])["file"].contentType; got != "application/octet-stream" {
		t.Errorf("file part type %q, want application/octet-stream", got)
	}
}

// formPart is one part of a recorded multipart body.
type formPart struct {
	filename, contentType, body string
}

// multipartParts reads a recorded multipart request by form name.
func multipartParts(t *testing.T, r recorded) map[string]formPart {
	t.Helper()
	_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	mr := multipart.NewReader(bytes.NewReader(r.Body), params["boundary"])
	parts := map[string]formPart{}
	for {
		p, err := mr.NextPart()
		if err != nil {
			return parts
		}
		b, _ := io.ReadAll(p)
		parts[p.FormName()] = formPart{filename: p.FileName(), contentType: p.Header.Get("Content-Type"), body: string(b)}
	}
}

func TestClient_FilesAndContent(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"GET /openai/v1/files":                       {{file: "json/files_page.json"}},
		"GET /openai/v1/files/assistant-Fq1/content": {{body: "a,b\n", header: map[string]string{"Content-Type": "application/octet-stream"}}},
		"DELETE /openai/v1/files/assistant-Fq1":      {{file: "json/file_deleted.json"}},
	})
	c := rs.client(t)
	ctx := context.Background()
	fs, err := c.Files(ctx)
	if err != nil || len(fs) != 2 || fs[1].ID != "file-abc123" || fs[1].Status != "uploaded" {
		t.Fatalf("Files = %+v, %v", fs, err)
	}
	if q := rs.requests()[0].Query; !strings.Contains(q, "purpose=assistants") {
		t.Errorf("list query = %q", q)
	}
	rc, err := c.FileContent(ctx, "assistant-Fq1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "a,b\n" {
		t.Errorf("content = %q", b)
	}
	if err := c.DeleteFile(ctx, "assistant-Fq1"); err != nil {
		t.Fatal(err)
	}
}

func TestClient_Conversations(t *testing.T) {
	rs := newReplay(t, map[string][]reply{
		"POST /openai/v1/conversations":                    {{file: "json/conversation.json"}},
		"GET /openai/v1/conversations":                     {{file: "json/conversations_page.json"}},
		"GET /openai/v1/conversations/conv_01":             {{file: "json/conversation.json"}},
		"DELETE /openai/v1/conversations/conv_01":          {{file: "json/conversation_deleted.json"}},
		"POST /openai/v1/conversations/conv_01/items":      {{file: "json/conversation_items_added.json"}},
		"GET /openai/v1/conversations/conv_01/items":       {{file: "json/conversation_items.json"}},
		"DELETE /openai/v1/conversations/conv_01/items/m1": {{file: "json/conversation.json"}},
	})
	c := rs.client(t)
	ctx := context.Background()
	conv, err := c.CreateConversation(ctx, map[string]string{"app": "workbench", "chat": "42"})
	if err != nil || conv.ID != "conv_01" || conv.Metadata["chat"] != "42" || conv.CreatedAt.IsZero() {
		t.Fatalf("CreateConversation = %+v, %v", conv, err)
	}
	var body struct{ Metadata map[string]string }
	if err := json.Unmarshal(rs.requests()[0].Body, &body); err != nil || body.Metadata["app"] != "workbench" {
		t.Errorf("create body = %s", rs.requests()[0].Body)
	}
	seed := []Message{{Role: "user", Text: "What did we find?"}, {Role: "assistant", Text: "Sales rose."}}
	if _, err := c.CreateConversation(ctx, nil, seed...); err != nil {
		t.Fatal(err)
	}
	var seeded struct {
		Items []struct{ Type, Role, Content string }
	}
	if err := json.Unmarshal(rs.requests()[1].Body, &seeded); err != nil || len(seeded.Items) != 2 ||
		seeded.Items[1].Role != "assistant" || seeded.Items[1].Content != "Sales rose." {
		t.Errorf("seeded create body = %s", rs.requests()[1].Body)
	}
	if _, err := c.CreateConversation(ctx, nil, make([]Message, MaxSeedItems+1)...); err == nil {
		t.Error("a seed of more than MaxSeedItems was sent")
	}
	list, err := c.Conversations(ctx)
	if err != nil || len(list) != 2 || list[1].ID != "conv_02" {
		t.Fatalf("Conversations = %+v, %v", list, err)
	}
	if _, err := c.Conversation(ctx, "conv_01"); err != nil {
		t.Fatal(err)
	}
	added, err := c.AddMessage(ctx, "conv_01", "user", "Hello")
	if err != nil || len(added) != 1 || added[0].Text != "Hello" || added[0].Role != "user" {
		t.Fatalf("AddMessage = %+v, %v", added, err)
	}
	items, err := c.ConversationItems(ctx, "conv_01")
	if err != nil || len(items) != 3 {
		t.Fatalf("ConversationItems = %+v, %v", items, err)
	}
	if ci := items[1]; ci.Type != ItemCodeCall || ci.ContainerID != "cntr_01" || ci.Code != "print(1)" || len(ci.Outputs) != 1 {
		t.Errorf("code item = %+v", ci)
	}
	if m := items[2]; m.Text != "See chart.png" || len(m.Citations) != 1 || m.Citations[0].FileID != "cfile_01" {
		t.Errorf("message item = %+v", m)
	}
	if err := c.DeleteConversationItem(ctx, "conv_01", "m1"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteConversation(ctx, "conv_01"); err != nil {
		t.Fatal(err)
	}
	for _, r := range rs.requests() {
		if strings.HasSuffix(r.Path, "/items") && r.Method == "GET" && !strings.Contains(r.Query, "code_interpreter_call.outputs") {
			t.Errorf("items listed without code interpreter outputs: %q", r.Query)
		}
	}
}

func TestClient_Containers(t *testing.T) {
	png := "\x89PNG\r\n\x1a\nfake"
	rs := newReplay(t, map[string][]reply{
		"GET /openai/v1/containers/cntr_01/files":                  {{file: "json/container_files.json"}},
		"GET /openai/v1/containers/cntr_01/files/cfile_01/content": {{body: png, header: map[string]string{"Content-Type": "image/png"}}},
		"GET /openai/v1/containers/cntr_01/files/gone/content":     {{status: 404, file: "errors/openai_container_file_404.json"}},
		"DELETE /openai/v1/containers/cntr_01/files/cfile_01":      {{body: ""}},
	})
	c := rs.client(t)
	ctx := context.Background()
	files, err := c.ContainerFiles(ctx, "cntr_01")
	if err != nil || len(files) != 2 || files[0].Path != "/mnt/data/chart.png" || files[0].Source != "assistant" {
		t.Fatalf("ContainerFiles = %+v, %v", files, err)
	}
	rc, err := c.ContainerFileContent(ctx, "cntr_01", "cfile_01")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != png {
		t.Errorf("content = %q", b)
	}
	if _, err := c.ContainerFileContent(ctx, "cntr_01", "gone"); !IsNotFound(err) {
		t.Errorf("missing file: err = %v, want not found", err)
	}
	if err := c.DeleteContainerFile(ctx, "cntr_01", "cfile_01"); err != nil {
		t.Fatal(err)
	}
}
