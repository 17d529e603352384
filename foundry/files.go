package foundry

import (
	"context"
	"io"
	"path/filepath"
	"time"

	"github.com/openai/openai-go/v3"
)

// File is an uploaded file (purpose assistants). Its ID prefix ("file-…" or
// "assistant-…") is UNCONFIRMED for Foundry and never parsed.
type File struct {
	ID        string
	Filename  string
	Bytes     int64
	Purpose   string
	Status    string
	CreatedAt time.Time
}

func fileFrom(f *openai.FileObject) File {
	return File{ID: f.ID, Filename: f.Filename, Bytes: f.Bytes, Purpose: string(f.Purpose),
		Status: string(f.Status), CreatedAt: unixSeconds(f.CreatedAt)}
}

// octetStream is the media type of bytes of no named kind.
const octetStream = "application/octet-stream"

// UploadFile uploads r as name for use by Code Interpreter, with the media
// type Config.ContentType names. The body is buffered by openai-go so that a
// retried upload resends the same bytes.
func (c *Client) UploadFile(ctx context.Context, name string, r io.Reader) (File, error) {
	ctype := c.contentType(filepath.Base(name))
	if ctype == "" {
		ctype = octetStream
	}
	var f *openai.FileObject
	err := c.call(ctx, "upload file "+name, func(ctx context.Context) (err error) {
		f, err = c.files.New(ctx, openai.FileNewParams{
			File:    openai.File(r, filepath.Base(name), ctype),
			Purpose: openai.FilePurposeAssistants,
		})
		return err
	})
	if err != nil {
		return File{}, err
	}
	return fileFrom(f), nil
}

// File returns the metadata of one uploaded file.
func (c *Client) File(ctx context.Context, id string) (File, error) {
	var f *openai.FileObject
	err := c.call(ctx, "file "+id, func(ctx context.Context) (err error) {
		f, err = c.files.Get(ctx, id)
		return err
	})
	if err != nil {
		return File{}, err
	}
	return fileFrom(f), nil
}

// Files lists every uploaded file of purpose assistants, for reconciliation.
func (c *Client) Files(ctx context.Context) ([]File, error) {
	var out []File
	err := c.call(ctx, "list files", func(ctx context.Context) error {
		it := c.files.ListAutoPaging(ctx, openai.FileListParams{Purpose: openai.String("assistants")})
		for it.Next() {
			f := it.Current()
			out = append(out, fileFrom(&f))
		}
		return it.Err()
	})
	return out, err
}

// FileContent opens the bytes of an uploaded file; the caller closes it.
func (c *Client) FileContent(ctx context.Context, id string) (io.ReadCloser, error) {
	var body io.ReadCloser
	err := c.call(ctx, "file content "+id, func(ctx context.Context) error {
		resp, err := c.files.Content(ctx, id)
		if err != nil {
			return err
		}
		body = resp.Body
		return nil
	})
	return body, err
}

// DeleteFile deletes an uploaded file.
func (c *Client) DeleteFile(ctx context.Context, id string) error {
	return c.call(ctx, "delete file "+id, func(ctx context.Context) error {
		_, err := c.files.Delete(ctx, id)
		return err
	})
}

func unixSeconds(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}
