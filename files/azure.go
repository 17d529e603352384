package files

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/streaming"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/to"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/bloberror"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blockblob"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	"golang.org/x/sync/errgroup"
)

// AzureConfig says where an [AzureBlobs] keeps its blobs: AccountURL with
// Credential, or ConnectionString, and Container.
type AzureConfig struct {
	// AccountURL is the account's blob endpoint,
	// https://<account>.blob.core.windows.net, used with Credential (a
	// managed identity in production).
	AccountURL string
	Credential azcore.TokenCredential
	// ConnectionString, when set, is used instead of AccountURL: an
	// account key or SAS, or Azurite's.
	ConnectionString string
	// Container holds the blobs, each named by its hex sha256; it is
	// created if missing.
	Container string
	// StageDir is the local directory uploads are staged in while they are
	// hashed and checked (DATA_DIR/staging); each staged file is removed
	// once uploaded.
	StageDir string
	// BlockSize is how much of a blob one StageBlock request carries; 0
	// means 8 MiB.
	BlockSize int64
}

// Uploads go in blocks, a few at a time: one Put Blob request of 512 MB
// would start again from its first byte after any failure.
const (
	defaultBlockSize = 8 << 20
	blockParallel    = 4
)

// AzureBlobs is the [BlobStore] in an Azure Blob Storage container, which
// every replica of the app shares. A blob is a block blob named by the hex
// sha256 of its bytes, written create-only, so equal bytes are stored once
// and a stored blob never changes.
type AzureBlobs struct {
	*stager
	container *container.Client
	blockSize int64
}

var _ BlobStore = (*AzureBlobs)(nil)

// NewAzureBlobs connects to the container cfg names, creating it if it is
// missing, so that a wrong account, credential or name fails at start
// rather than at the first upload.
func NewAzureBlobs(ctx context.Context, cfg AzureConfig) (*AzureBlobs, error) {
	c, err := containerClient(cfg)
	if err != nil {
		return nil, err
	}
	if err := ensureContainer(ctx, c); err != nil {
		return nil, err
	}
	st, err := newStager(cfg.StageDir)
	if err != nil {
		return nil, err
	}
	if cfg.BlockSize <= 0 {
		cfg.BlockSize = defaultBlockSize
	}
	return &AzureBlobs{stager: st, container: c, blockSize: cfg.BlockSize}, nil
}

func containerClient(cfg AzureConfig) (*container.Client, error) {
	switch {
	case cfg.Container == "":
		return nil, errors.New("files: azure blobs: no container named")
	case cfg.ConnectionString != "":
		c, err := container.NewClientFromConnectionString(cfg.ConnectionString, cfg.Container, nil)
		if err != nil {
			return nil, fmt.Errorf("files: azure blobs: connection string: %w", err)
		}
		return c, nil
	case cfg.AccountURL == "" || cfg.Credential == nil:
		return nil, errors.New("files: azure blobs: an account URL with a credential, or a connection string, is needed")
	}
	c, err := container.NewClient(cfg.AccountURL+"/"+cfg.Container, cfg.Credential, nil)
	if err != nil {
		return nil, fmt.Errorf("files: azure blobs: account URL: %w", err)
	}
	return c, nil
}

// ensureContainer reads the container's properties first and creates it
// only when missing: an identity allowed to use an existing container may
// not be allowed to create one.
func ensureContainer(ctx context.Context, c *container.Client) error {
	_, err := c.GetProperties(ctx, nil)
	if bloberror.HasCode(err, bloberror.ContainerNotFound) {
		_, err = c.Create(ctx, nil)
		if bloberror.HasCode(err, bloberror.ContainerAlreadyExists) {
			err = nil // another replica made it meanwhile
		}
	}
	if err != nil {
		return fmt.Errorf("files: azure blobs: container: %w", err)
	}
	return nil
}

// Put streams r to a local staging file while hashing it, then uploads it
// create-only under its digest; see [BlobStore].
func (a *AzureBlobs) Put(ctx context.Context, r io.Reader, max int64) (sha string, size int64, err error) {
	return put(ctx, a.stager, a.commit, r, max)
}

// Stage is the upload path up to storing; see [BlobStore]. The staged file
// is local, and uploaded by [Staged.Commit].
func (a *AzureBlobs) Stage(name string, r io.Reader, max int64) (*Staged, error) {
	return stage(a.stager, a.commit, name, r, max)
}

// commit uploads a staged file as the blob sha unless it is stored
// already, and removes the staged file.
func (a *AzureBlobs) commit(ctx context.Context, path, sha string) error {
	defer os.Remove(path)
	_, err := a.container.NewBlobClient(sha).GetProperties(ctx, nil)
	switch {
	case err == nil:
		return nil // the same bytes are stored: no need to send them again
	case !bloberror.HasCode(err, bloberror.BlobNotFound):
		return fmt.Errorf("files: put: %w", err)
	}
	return a.upload(ctx, path, sha)
}

// upload sends the file at path as the block blob sha, committed with
// If-None-Match: * so that a blob another writer stored meanwhile is kept
// as it is; that refusal is not an error, since the bytes are the same.
func (a *AzureBlobs) upload(ctx context.Context, path, sha string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	bb := a.container.NewBlockBlobClient(sha)
	ids, err := a.stageBlocks(ctx, bb, f, info.Size())
	if err != nil {
		return fmt.Errorf("files: put: %w", err)
	}
	_, err = bb.CommitBlockList(ctx, ids, &blockblob.CommitBlockListOptions{
		AccessConditions: &blob.AccessConditions{ModifiedAccessConditions: &blob.ModifiedAccessConditions{IfNoneMatch: to.Ptr(azcore.ETagAny)}},
	})
	if err != nil && !bloberror.HasCode(err, bloberror.BlobAlreadyExists, bloberror.ConditionNotMet) {
		return fmt.Errorf("files: put: commit: %w", err)
	}
	return nil
}

// stageBlocks uploads f in blocks of a.blockSize, blockParallel at a time,
// and returns their ids in order. An empty file has no blocks: committing
// the empty list makes an empty blob.
func (a *AzureBlobs) stageBlocks(ctx context.Context, bb *blockblob.Client, f *os.File, size int64) ([]string, error) {
	n := int((size + a.blockSize - 1) / a.blockSize)
	ids := make([]string, n)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(blockParallel)
	for i := range n {
		// Ids of one blob must all have the same length.
		ids[i] = base64.StdEncoding.EncodeToString(fmt.Appendf(nil, "block-%08d", i))
		off := int64(i) * a.blockSize
		part := io.NewSectionReader(f, off, min(a.blockSize, size-off))
		g.Go(func() error {
			_, err := bb.StageBlock(gctx, ids[i], streaming.NopCloser(part), nil)
			return err
		})
	}
	return ids, g.Wait()
}

// Open reads the blob's properties, so that a missing blob is known before
// anything is sent, and returns a reader that downloads by ranges.
func (a *AzureBlobs) Open(ctx context.Context, sha string) (Blob, error) {
	if !validDigest(sha) {
		return nil, ErrBadDigest
	}
	c := a.container.NewBlobClient(sha)
	props, err := c.GetProperties(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("files: open blob: %w", notExist(err))
	}
	return newAzureBlob(ctx, c, *props.ContentLength), nil
}

// Remove deletes the blob; one already gone is not an error.
func (a *AzureBlobs) Remove(ctx context.Context, sha string) error {
	if !validDigest(sha) {
		return ErrBadDigest
	}
	_, err := a.container.NewBlobClient(sha).Delete(ctx, nil)
	if err != nil && !bloberror.HasCode(err, bloberror.BlobNotFound) {
		return fmt.Errorf("files: remove blob: %w", err)
	}
	return nil
}

// Walk lists the container a page (up to 5,000 blobs) at a time. Names
// that are not digests are not the app's blobs and are left out.
func (a *AzureBlobs) Walk(ctx context.Context, fn func(BlobInfo) error) error {
	pager := a.container.NewListBlobsFlatPager(nil)
	for pager.More() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			return fmt.Errorf("files: walk blobs: %w", err)
		}
		for _, it := range page.Segment.BlobItems {
			if it.Name == nil || !validDigest(*it.Name) || it.Properties == nil {
				continue
			}
			info := BlobInfo{SHA256: *it.Name}
			if p := it.Properties; p.ContentLength != nil && p.LastModified != nil {
				info.Size, info.Modified = *p.ContentLength, *p.LastModified
			}
			if err := fn(info); err != nil {
				return err
			}
		}
	}
	return nil
}

// notExist makes a missing blob match fs.ErrNotExist, as the disk store's
// does, so that callers need not know which store they use.
func notExist(err error) error {
	if bloberror.HasCode(err, bloberror.BlobNotFound) {
		return fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	return err
}
