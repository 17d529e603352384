package purge_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/emulator"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
)

// noKernels refuses to run code: this test never runs a turn.
type noKernels struct{}

func (noKernels) Session(context.Context, string) (emulator.Kernel, error) {
	return nil, errors.New("no code in purge tests")
}

// TestDeleteConversation_AgainstTheEmulator purges through the real
// foundry client and the emulator's REST surface, so the 404 that says
// "gone" is the one the client really decodes.
func TestDeleteConversation_AgainstTheEmulator(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	emu, err := emulator.New(emulator.Config{Token: "t", DataDir: filepath.Join(e.dir, "engine"), Kernels: noKernels{}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(func() { srv.Close(); emu.Close() })
	client, err := foundry.New(foundry.Config{Endpoint: srv.URL + "/api/projects/test", Credential: foundry.StaticToken("t"), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	svc := purge.New(purge.Config{DB: e.db, Remote: client, Lister: client, Blobs: e.blobs})

	ana := e.user(t, "ana")
	c, _ := e.db.CreateConversation(ctx, ana, "c")
	sha, size := e.put(t, "a,b\n1,2\n")
	f, err := e.db.AddFile(ctx, ana, store.File{ConversationID: c.ID, Name: "t.csv", ContentType: "text/csv", Size: size, SHA256: sha})
	must(t, err)
	rf, err := client.UploadFile(ctx, "t.csv", strings.NewReader("a,b\n1,2\n"))
	must(t, err)
	rc, err := client.CreateConversation(ctx, nil)
	must(t, err)
	must(t, e.db.SetFoundryFileID(ctx, f.ID, rf.ID))
	must(t, e.db.SetFoundryConversation(ctx, c.ID, rc.ID))
	// A container file in a container that no longer exists answers 404,
	// which must count as done rather than stall the purge.
	_, run, err := e.db.StartTurn(ctx, ana, c.ID, "q", "")
	must(t, err)
	_, err = e.db.AddArtifact(ctx, store.Artifact{ConversationID: c.ID, RunID: run.ID, ContainerID: "cntr_gone", ContainerFileID: "cfile_gone",
		Name: "a.png", ContentType: "image/png", Size: size, SHA256: sha, Kind: store.ArtifactImage})
	must(t, err)

	must(t, svc.DeleteConversation(ctx, ana, c.ID))
	dctx, cancel := context.WithTimeout(ctx, 20e9)
	defer cancel()
	must(t, svc.Drain(dctx))

	if _, err := client.File(ctx, rf.ID); !foundry.IsNotFound(err) {
		t.Errorf("file after purge: err = %v, want 404", err)
	}
	if _, err := client.Conversation(ctx, rc.ID); !foundry.IsNotFound(err) {
		t.Errorf("conversation after purge: err = %v, want 404", err)
	}
	if e.blobExists(sha) {
		t.Error("blob left")
	}
	if log := e.audit(t); len(log) != 2 || !strings.HasSuffix(log[1], "completed") {
		t.Errorf("audit = %v", log)
	}
}
