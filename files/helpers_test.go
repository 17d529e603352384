package files

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// writeTemp writes data to a file called name in a fresh temporary directory
// and returns its path.
func writeTemp(t testing.TB, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// profileOf checks and profiles data as a file called name.
func profileOf(t *testing.T, name string, data []byte) *FileProfile {
	t.Helper()
	k, err := Check(name, data[:min(len(data), HeadSize)])
	if err != nil {
		t.Fatalf("Check(%q) = %v", name, err)
	}
	p, err := Profile(context.Background(), writeTemp(t, name, data), k)
	if err != nil {
		t.Fatalf("Profile(%q) = %v", name, err)
	}
	return p
}

// column returns the profile's column called name, failing the test if
// there is none.
func column(t *testing.T, p *FileProfile, name string) Column {
	t.Helper()
	for _, c := range p.Columns {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no column %q in %+v", name, p.Columns)
	return Column{}
}
