package chat_test

import (
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
)

// TestGeneratedFilesKeepTheQuotaAndTheDiskFloor has a cell write a file
// past the user's storage quota beside a small one, then runs a turn with
// the disk under its free-space floor, and wants the answer to say of each
// file not kept that it was not, and why.
func TestGeneratedFilesKeepTheQuotaAndTheDiskFloor(t *testing.T) {
	t.Run("quota", func(t *testing.T) {
		e := newEnvOpts(t, envOptions{service: func(c *chat.Config) { c.UserQuota = 1 << 20 }})
		a, _ := e.wait(t, e.start(t, python("open('/mnt/data/big.bin', 'wb').write(b'x' * (2 << 20))\nopen('/mnt/data/small.csv', 'w').write('a\\n1\\n')")))
		if !hasNotice(a, "big.bin was not kept", "storage quota of 1 MB is full") {
			t.Errorf("no quota notice in %q", a.Notices)
		}
		if len(a.Artifacts) != 1 || a.Artifacts[0].Name != "small.csv" {
			t.Errorf("kept %+v, want small.csv only", a.Artifacts)
		}
	})
	t.Run("disk floor", func(t *testing.T) {
		e := newEnvOpts(t, envOptions{service: func(c *chat.Config) {
			disk := c.Files.(*files.Blobs)
			free, err := disk.FreeBytes()
			if err != nil {
				t.Fatal(err)
			}
			disk.SetMinFree(free + 1<<30)
		}})
		a, _ := e.wait(t, e.start(t, python("open('/mnt/data/out.csv', 'w').write('a\\n1\\n')")))
		if !hasNotice(a, "out.csv was not kept", "disk is almost full") || len(a.Artifacts) != 0 {
			t.Errorf("notices %q, artifacts %+v; want out.csv refused for the disk", a.Notices, a.Artifacts)
		}
	})
}

// hasNotice reports whether one of the answer's notices holds every part.
func hasNotice(a *chat.Answer, parts ...string) bool {
	for _, n := range a.Notices {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(n, p)
		}
		if all {
			return true
		}
	}
	return false
}
