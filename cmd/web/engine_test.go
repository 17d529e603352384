package main

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
)

// TestUploadsCarryTheTableType uploads a file of every kind through the
// client as the app configures it, and reads the multipart the service
// receives: each file part carries its kind's FoundryMIME, from the
// product's table, whatever this host's MIME database says.
func TestUploadsCarryTheTableType(t *testing.T) {
	var mu sync.Mutex
	got := map[string]string{} // filename -> Content-Type of its part
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for p, err := mr.NextPart(); err == nil; p, err = mr.NextPart() {
			if p.FormName() == "file" {
				mu.Lock()
				got[p.FileName()] = p.Header.Get("Content-Type")
				mu.Unlock()
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "file-1", "object": "file", "purpose": "assistants", "status": "processed"})
	}))
	defer srv.Close()
	client, err := foundry.New(foundryConfig(srv.URL+"/api/projects/p", foundry.StaticToken("t"), slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	kinds := files.Kinds()
	for _, k := range kinds {
		name := "sample" + strings.ToUpper(k.Ext) // the name's case does not matter
		if _, err := client.UploadFile(context.Background(), name, strings.NewReader("x")); err != nil {
			t.Fatalf("upload %s: %v", name, err)
		}
	}
	for _, k := range kinds {
		name := "sample" + strings.ToUpper(k.Ext)
		if got[name] != k.FoundryMIME {
			t.Errorf("%s went out as %q, want %q", name, got[name], k.FoundryMIME)
		}
	}
	// The two a host's database gets wrong most often, spelled out.
	for name, want := range map[string]string{"sample.CSV": "application/csv", "sample.TS": "application/typescript"} {
		if got[name] != want {
			t.Errorf("%s went out as %q, want %q", name, got[name], want)
		}
	}
}
