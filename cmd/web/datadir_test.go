package main

import (
	"bytes"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecureDataDir is issue 13 item 11: a data dir an older version left
// readable by others (0755 directories, 0644 files) is tightened at start
// to 0700 and 0600, and the log says what changed.
func TestSecureDataDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	for _, d := range []string{"", "blobs/ab", "thumbs", "engine/files"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, d), 0o755) // whatever the umask
	}
	for _, f := range []string{"workbench.db", "workbench.db-wal", "workbench.db-shm", "session.key", "blobs/ab/abcd", "thumbs/t.png", "engine/emulator.db"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, f), 0o644)
	}
	tight := filepath.Join(dir, "already-tight")
	os.WriteFile(tight, []byte("x"), 0o400)
	outside := filepath.Join(t.TempDir(), "outside")
	os.WriteFile(outside, []byte("x"), 0o644)
	os.Chmod(outside, 0o644)
	os.Symlink(outside, filepath.Join(dir, "link"))

	var logs bytes.Buffer
	if err := secureDataDir(dir, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
		t.Fatal(err)
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		info, _ := d.Info()
		want := fs.FileMode(0o600)
		switch {
		case d.IsDir():
			want = 0o700
		case path == tight:
			want = 0o400
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode().Perm(), want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(outside); info.Mode().Perm() != 0o644 {
		t.Errorf("a file outside the data dir, behind a symlink, was changed to %v", info.Mode().Perm())
	}
	// Six directories (the data dir too) and seven files.
	if !strings.Contains(logs.String(), "tightened") || !strings.Contains(logs.String(), "count=13") ||
		!strings.Contains(logs.String(), "blobs/ab/abcd") {
		t.Errorf("log does not say what was tightened:\n%s", logs.String())
	}

	logs.Reset()
	if err := secureDataDir(dir, slog.New(slog.NewTextHandler(&logs, nil))); err != nil || logs.Len() != 0 {
		t.Fatalf("second start: %v, log %q", err, logs.String())
	}
}

// TestSecureDataDirCreates checks a fresh data dir: 0700 whatever the umask.
func TestSecureDataDirCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "data")
	if err := secureDataDir(dir, slog.New(slog.DiscardHandler)); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, %v; want 0700", info.Mode().Perm(), err)
	}
}
