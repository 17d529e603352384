package chat_test

import (
	"context"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
)

// names lists the names of the artifacts an answer shows as its own.
func names(a *chat.Answer) []string {
	var out []string
	for _, art := range a.Own() {
		out = append(out, art.Name)
	}
	return out
}

// Each answer shows exactly the files its turn created or changed, by
// content hash: files of earlier turns, still in the session, are not
// shown again; a file rewritten with new content is the later turn's too.
func TestArtifactsAreAttributedByHash(t *testing.T) {
	e := newEnv(t)
	first, _ := e.wait(t, e.start(t, python("open('/mnt/data/a.txt','w').write('one')\nopen('/mnt/data/b.txt','w').write('two')")))
	if got := names(first); len(got) != 2 {
		t.Fatalf("first turn shows %v, want a.txt and b.txt", got)
	}
	secondRun := e.start(t, python("print('nothing written')"))
	second, _ := e.wait(t, secondRun)
	if got := names(second); len(got) != 0 {
		t.Fatalf("a turn that wrote nothing shows %v", got)
	}
	third, _ := e.wait(t, e.start(t, python("open('/mnt/data/b.txt','w').write('TWO')\nopen('/mnt/data/c.txt','w').write('three')")))
	if got := names(third); len(got) != 2 || got[0] != "b.txt" || got[1] != "c.txt" {
		t.Fatalf("third turn shows %v, want the changed b.txt and the new c.txt, in order", got)
	}
	same, _ := e.wait(t, e.start(t, python("open('/mnt/data/c.txt','w').write('three')")))
	if got := names(same); len(got) != 0 {
		t.Fatalf("rewriting the same bytes shows %v", got)
	}

	t.Run("the gallery keeps every version with its turn", func(t *testing.T) {
		arts, err := e.db.Artifacts(context.Background(), e.userID, e.convID)
		if err != nil {
			t.Fatal(err)
		}
		if len(arts) != 4 {
			t.Fatalf("%d artifacts kept, want 4 (a, b, b changed, c)", len(arts))
		}
	})
	t.Run("a replayed answer shows the same files", func(t *testing.T) {
		a, err := e.svc.Answer(context.Background(), e.userID, e.convID, secondRun.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got := names(a); len(got) != 0 {
			t.Fatalf("replay shows %v", got)
		}
	})
}
