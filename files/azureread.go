package files

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/blob"
)

// Read ahead grows from firstWindow to maxWindow bytes a request: a small
// Range (a download resumed, a file's head sniffed) costs one small GET,
// and a whole download of 512 MB about twenty.
const (
	firstWindow = 256 << 10
	maxWindow   = 32 << 20
)

// azureBlob reads a blob by ranged GETs. Read streams one window at a
// time from the current offset; Seek only moves the offset; ReadAt asks
// for exactly the bytes wanted. It is not safe for concurrent Reads, like
// a file; ReadAt may be called concurrently.
type azureBlob struct {
	ctx    context.Context
	client *blob.Client
	size   int64

	pos    int64         // where the next Read starts
	body   io.ReadCloser // the window being read; nil before a Read and after a Seek
	window int64         // length of the next window
}

func newAzureBlob(ctx context.Context, c *blob.Client, size int64) *azureBlob {
	return &azureBlob{ctx: ctx, client: c, size: size, window: firstWindow}
}

// Size is the blob's length in bytes.
func (b *azureBlob) Size() int64 { return b.size }

// Read reads from the current window, opening the next one as each ends.
func (b *azureBlob) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if b.pos >= b.size {
			return 0, io.EOF
		}
		fresh := b.body == nil
		if fresh {
			if err := b.openWindow(); err != nil {
				return 0, err
			}
		}
		n, err := b.body.Read(p)
		b.pos += int64(n)
		if errors.Is(err, io.EOF) {
			b.nextWindow()
			if n == 0 && fresh {
				return 0, io.ErrUnexpectedEOF // a window with nothing in it: the blob is shorter than it said
			}
			err = nil
		}
		if n > 0 || err != nil {
			return n, err
		}
	}
}

func (b *azureBlob) openWindow() error {
	body, err := b.download(b.pos, min(b.window, b.size-b.pos))
	if err != nil {
		return err
	}
	b.body = body
	return nil
}

// nextWindow closes the window read to its end, and doubles the next.
func (b *azureBlob) nextWindow() {
	b.closeWindow()
	b.window = min(2*b.window, maxWindow)
}

func (b *azureBlob) closeWindow() {
	if b.body != nil {
		b.body.Close()
		b.body = nil
	}
}

// Seek moves the offset without any request; a move starts read ahead
// afresh, since what follows a jump is likely a small range.
func (b *azureBlob) Seek(offset int64, whence int) (int64, error) {
	pos := offset
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		pos += b.pos
	case io.SeekEnd:
		pos += b.size
	default:
		return 0, errors.New("files: seek: invalid whence")
	}
	if pos < 0 {
		return 0, errors.New("files: seek: negative position")
	}
	if pos != b.pos {
		b.closeWindow()
		b.pos, b.window = pos, firstWindow
	}
	return pos, nil
}

// ReadAt reads len(p) bytes at off with one ranged GET.
func (b *azureBlob) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("files: read at: negative offset")
	}
	if len(p) == 0 {
		return 0, nil // a Range of no bytes would ask for the whole blob
	}
	if off >= b.size {
		return 0, io.EOF
	}
	want := min(int64(len(p)), b.size-off)
	body, err := b.download(off, want)
	if err != nil {
		return 0, err
	}
	defer body.Close()
	n, err := io.ReadFull(body, p[:want])
	if err == nil && want < int64(len(p)) {
		err = io.EOF
	}
	return n, err
}

// download opens the bytes [off, off+n) of the blob.
func (b *azureBlob) download(off, n int64) (io.ReadCloser, error) {
	resp, err := b.client.DownloadStream(b.ctx, &blob.DownloadStreamOptions{Range: blob.HTTPRange{Offset: off, Count: n}})
	if err != nil {
		return nil, fmt.Errorf("files: read blob: %w", notExist(err))
	}
	return resp.Body, nil
}

// Close ends the window being read, if any.
func (b *azureBlob) Close() error {
	b.closeWindow()
	return nil
}
