package main

import (
	"context"
	"path/filepath"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/handlers"
)

// blobStore is the store of file bytes with the local disk it stages them
// on, whose free space /metrics shows and DATA_MIN_FREE_MB guards.
type blobStore interface {
	files.BlobStore
	handlers.DiskStore
	SetMinFree(n int64)
}

// openBlobs opens the store of uploaded and generated files.
func openBlobs(_ context.Context, cfg config) (blobStore, error) {
	blobs, err := files.NewBlobs(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		return nil, err
	}
	blobs.SetMinFree(int64(cfg.MinFreeMB) << 20)
	return blobs, nil
}
