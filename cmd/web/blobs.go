package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/handlers"
)

// blobStore is the store of file bytes with the local disk it stages them
// on, whose free space /metrics shows and DATA_MIN_FREE_MB guards: the
// blobs themselves on disk, the uploads in flight with Azure.
type blobStore interface {
	files.BlobStore
	handlers.DiskStore
	SetMinFree(n int64)
}

// blobConnectTimeout bounds reaching the Azure container at start: a wrong
// account or credential should stop the start with a message, not hang it.
const blobConnectTimeout = time.Minute

// openBlobs opens the store of uploaded and generated files that
// BLOB_STORE names.
func openBlobs(ctx context.Context, cfg config) (blobStore, error) {
	var blobs blobStore
	var err error
	if cfg.Blobs.Store == blobStoreAzure {
		blobs, err = openAzureBlobs(ctx, cfg)
	} else {
		blobs, err = files.NewBlobs(filepath.Join(cfg.DataDir, "blobs"))
	}
	if err != nil {
		return nil, err
	}
	blobs.SetMinFree(int64(cfg.MinFreeMB) << 20)
	return blobs, nil
}

// openAzureBlobs connects to the container, with the managed identity (any
// DefaultAzureCredential) for an account URL. Uploads are staged in
// DATA_DIR/staging, on this replica's disk, only while they are checked
// and sent.
func openAzureBlobs(ctx context.Context, cfg config) (*files.AzureBlobs, error) {
	s := cfg.Blobs
	acfg := files.AzureConfig{AccountURL: s.AccountURL, ConnectionString: s.ConnectionString, Container: s.Container,
		StageDir: filepath.Join(cfg.DataDir, "staging")}
	setting := "AZURE_STORAGE_CONNECTION_STRING"
	if s.ConnectionString == "" {
		setting = "AZURE_STORAGE_ACCOUNT_URL"
		cred, err := azidentity.NewDefaultAzureCredential(nil)
		if err != nil {
			return nil, fmt.Errorf("%s: no Azure credential: %w", setting, err)
		}
		acfg.Credential = cred
	}
	cctx, cancel := context.WithTimeout(ctx, blobConnectTimeout)
	defer cancel()
	blobs, err := files.NewAzureBlobs(cctx, acfg)
	if err != nil {
		return nil, fmt.Errorf("BLOB_STORE=azure: cannot use container %q through %s: %w", s.Container, setting, err)
	}
	return blobs, nil
}
