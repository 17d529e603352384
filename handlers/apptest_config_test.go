package handlers_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/thumbs"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

// newAppWith is newApp with settings changed by configure before the
// handlers are built: trusted proxies, a metrics token, a logger.
func newAppWith(t testing.TB, configure func(*handlers.Config)) *app {
	t.Helper()
	dir := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(dir, "app.db"), migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	secrets, err := handlers.SessionSecrets("", dir)
	if err != nil {
		t.Fatal(err)
	}
	accounts := auth.NewAccounts(db, bcrypt.MinCost)
	blobs, err := files.NewBlobs(filepath.Join(dir, "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	thumbCache, err := thumbs.New(filepath.Join(dir, "thumbs"), 320)
	if err != nil {
		t.Fatal(err)
	}
	remote := &recordingRemote{}
	purger := purge.New(purge.Config{DB: db, Remote: remote, Blobs: blobs, BlobDir: filepath.Join(dir, "blobs"),
		MinBackoff: time.Millisecond})
	cfg := handlers.Config{DB: db, Accounts: accounts, Chat: chat.New(chat.Config{DB: db, Files: blobs, MaxUpload: testMaxUpload}),
		Thumbs: thumbCache, Purge: purger, Sessions: handlers.NewSessionStore(secrets), Engine: views.Engine{Local: true}}
	configure(&cfg)
	e := echo.New()
	handlers.New(cfg).Register(e)
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &app{t: t, srv: srv, db: db, accounts: accounts, echo: e, blobs: blobs, purge: purger, remote: remote}
}
