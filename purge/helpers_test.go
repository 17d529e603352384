package purge_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// fakeRemote is Foundry as the purge sees it: it records every call, fails
// keys a set number of times with a 500, answers 404 for keys that are
// gone, and can hold calls until released.
type fakeRemote struct {
	mu      sync.Mutex
	fails   map[string]int
	gone    map[string]bool
	calls   map[string]int
	deleted map[string]int
	// files, convs and versions are what the listing methods return.
	files    []foundry.File
	convs    []foundry.Conversation
	versions map[string][]foundry.AgentVersion
	// onDelete, if set, runs before a successful deletion is recorded.
	onDelete func(key string)
}

func newFakeRemote() *fakeRemote {
	return &fakeRemote{fails: map[string]int{}, gone: map[string]bool{}, calls: map[string]int{}, deleted: map[string]int{}}
}

func (f *fakeRemote) call(key string) error {
	f.mu.Lock()
	f.calls[key]++
	if f.fails[key] > 0 {
		f.fails[key]--
		f.mu.Unlock()
		return fmt.Errorf("foundry: delete %s: %w", key, &foundry.APIError{StatusCode: 500, Message: "boom"})
	}
	if f.gone[key] {
		f.mu.Unlock()
		return fmt.Errorf("foundry: delete %s: %w", key, &foundry.APIError{StatusCode: 404})
	}
	hook := f.onDelete
	f.mu.Unlock()
	if hook != nil {
		hook(key)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.deleted[key]++
	// A deleted object is gone: asking again is a 404, as in Foundry.
	f.gone[key] = true
	return nil
}

func (f *fakeRemote) DeleteFile(_ context.Context, id string) error { return f.call("file:" + id) }
func (f *fakeRemote) DeleteConversation(_ context.Context, id string) error {
	return f.call("conversation:" + id)
}
func (f *fakeRemote) DeleteContainerFile(_ context.Context, c, id string) error {
	return f.call("container_file:" + c + "/" + id)
}
func (f *fakeRemote) DeleteAgentVersion(_ context.Context, name, v string) error {
	return f.call("agent_version:" + name + "/" + v)
}
func (f *fakeRemote) DeleteAgent(_ context.Context, name string) error {
	return f.call("agent:" + name)
}
func (f *fakeRemote) DeleteResponse(_ context.Context, id string) error {
	return f.call("response:" + id)
}
func (f *fakeRemote) Files(context.Context) ([]foundry.File, error) { return f.files, nil }
func (f *fakeRemote) Conversations(context.Context) ([]foundry.Conversation, error) {
	return f.convs, nil
}
func (f *fakeRemote) AgentVersions(_ context.Context, name string) ([]foundry.AgentVersion, error) {
	return f.versions[name], nil
}

// sum returns calls or deletions of the keys, sorted, as "key=n".
func (f *fakeRemote) counts(deleted bool) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	m := f.calls
	if deleted {
		m = f.deleted
	}
	var out []string
	for k, n := range m {
		out = append(out, fmt.Sprintf("%s=%d", k, n))
	}
	sort.Strings(out)
	return out
}

// env is a purge service over a real SQLite file and a real blob store.
type env struct {
	dir    string
	db     *store.DB
	blobs  *files.Blobs
	remote *fakeRemote
	svc    *purge.Service
}

func openDB(t testing.TB, path string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), path, migrations.FS, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func newEnv(t testing.TB) *env {
	t.Helper()
	dir := t.TempDir()
	e := &env{dir: dir, db: openDB(t, filepath.Join(dir, "app.db")), remote: newFakeRemote()}
	var err error
	if e.blobs, err = files.NewBlobs(filepath.Join(dir, "blobs")); err != nil {
		t.Fatal(err)
	}
	e.svc = e.service()
	return e
}

// service builds a Service over the env with a quick backoff.
func (e *env) service() *purge.Service {
	return purge.New(purge.Config{DB: e.db, Remote: e.remote, Blobs: e.blobs, Lister: e.remote, Tag: ourTag,
		MinBackoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond})
}

// ourTag is the metadata the app's Foundry objects carry in these tests.
var ourTag = map[string]string{"app": "workbench", "workbench_install": "i1"}

// lostUpload leaves a Foundry file behind that the app uploaded and whose
// row is gone, as after a crash between an upload and a purge.
func (e *env) lostUpload(t testing.TB, userID, id string) {
	t.Helper()
	ctx := context.Background()
	c, err := e.db.CreateConversation(ctx, userID, "lost")
	if err != nil {
		t.Fatal(err)
	}
	sha, size := e.put(t, "bytes of "+id)
	f, err := e.db.AddFile(ctx, userID, store.File{ConversationID: c.ID, Name: id, ContentType: "text/csv", Size: size, SHA256: sha})
	if err != nil {
		t.Fatal(err)
	}
	must(t, e.db.SetFoundryFileID(ctx, f.ID, id))
	must(t, e.db.DeleteConversation(ctx, userID, c.ID))
}

// seeded names what seed made for one conversation.
type seeded struct {
	conv     *store.Conversation
	file     *store.File
	artifact *store.Artifact
}

// seed makes a conversation of user with one uploaded file (content
// fileBytes, sent to Foundry) and one artifact (content artBytes, in a
// container), and a Foundry conversation. The ids derive from tag.
func (e *env) seed(t testing.TB, userID, tag, fileBytes, artBytes string) seeded {
	t.Helper()
	ctx := context.Background()
	c, err := e.db.CreateConversation(ctx, userID, "conversation "+tag)
	if err != nil {
		t.Fatal(err)
	}
	sha, size := e.put(t, fileBytes)
	f, err := e.db.AddFile(ctx, userID, store.File{ConversationID: c.ID, Name: tag + ".csv", ContentType: "text/csv", Size: size, SHA256: sha})
	if err != nil {
		t.Fatal(err)
	}
	must(t, e.db.SetFoundryFileID(ctx, f.ID, "assistant-"+tag))
	must(t, e.db.SetFoundryConversation(ctx, c.ID, "conv_"+tag))
	_, run, err := e.db.StartTurn(ctx, userID, c.ID, "plot it", "")
	if err != nil {
		t.Fatal(err)
	}
	asha, asize := e.put(t, artBytes)
	a, err := e.db.AddArtifact(ctx, store.Artifact{ConversationID: c.ID, RunID: run.ID, ContainerID: "cntr_" + tag,
		ContainerFileID: "cfile_" + tag, Name: "chart.png", ContentType: "image/png", Size: asize, SHA256: asha, Kind: store.ArtifactImage})
	if err != nil {
		t.Fatal(err)
	}
	f.FoundryFileID = "assistant-" + tag
	c.FoundryConversationID = "conv_" + tag
	return seeded{conv: c, file: f, artifact: a}
}

// remoteKeys are the fake remote's keys of what s holds in Foundry.
func (s seeded) remoteKeys() []string {
	return []string{"file:" + s.file.FoundryFileID, "conversation:" + s.conv.FoundryConversationID,
		"container_file:" + s.artifact.ContainerID + "/" + s.artifact.ContainerFileID}
}

func (e *env) put(t testing.TB, content string) (string, int64) {
	t.Helper()
	sha, size, err := e.blobs.Put(context.Background(), bytes.NewReader([]byte(content)), files.MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	return sha, size
}

func (e *env) blobExists(sha string) bool {
	_, err := os.Stat(e.blobs.Path(sha))
	return err == nil
}

func (e *env) user(t testing.TB, name string) string {
	t.Helper()
	u, err := e.db.CreateUser(context.Background(), name, "h", store.RoleAnalyst, nil)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func (e *env) drain(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := e.svc.Drain(ctx); err != nil {
		t.Fatal(err)
	}
}

// audit returns the audit log oldest first as "actor action outcome".
func (e *env) audit(t testing.TB) []string {
	t.Helper()
	entries, err := e.db.AuditLog(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for i := len(entries) - 1; i >= 0; i-- {
		out = append(out, entries[i].Actor+" "+entries[i].Action+" "+entries[i].Outcome)
	}
	return out
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
