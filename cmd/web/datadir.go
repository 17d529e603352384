package main

import (
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
)

// Modes of everything under DATA_DIR: it holds the password hashes, the
// session key and every user's files, so only the server's user may read it.
const (
	dataDirMode  fs.FileMode = 0o700
	dataFileMode fs.FileMode = 0o600
)

// maxLoggedPaths bounds how many tightened paths are named in the log.
const maxLoggedPaths = 10

// secureDataDir creates dir if needed and tightens what is already in it:
// directories to 0700, regular files to 0600, whatever an umask or an older
// version made them. Anything tighter is left as it is, symbolic links are
// neither changed nor followed. What was tightened is logged, because it
// means the data was readable by other users of the machine until now.
func secureDataDir(dir string, log *slog.Logger) error {
	if err := os.MkdirAll(dir, dataDirMode); err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	// A symlinked DATA_DIR is secured where it points.
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	var tightened []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		changed, err := tighten(path, d)
		if changed {
			rel, _ := filepath.Rel(root, path)
			tightened = append(tightened, rel)
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("data dir: %w", err)
	}
	if len(tightened) > 0 {
		log.Warn("data dir: tightened file modes that let other users read the data",
			"dir", root, "count", len(tightened), "paths", tightened[:min(len(tightened), maxLoggedPaths)])
	}
	return nil
}

// tighten sets one entry's mode if it grants more than it should. WalkDir
// calls it on a directory before reading it, so a directory is fixed
// before its entries are listed.
func tighten(path string, d fs.DirEntry) (bool, error) {
	want := dataFileMode
	switch {
	case d.IsDir():
		want = dataDirMode
	case !d.Type().IsRegular():
		return false, nil
	}
	info, err := d.Info()
	if err != nil {
		return false, err
	}
	if info.Mode().Perm()&^want == 0 {
		return false, nil
	}
	return true, os.Chmod(path, want)
}
