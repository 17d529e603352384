package thumbs

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // register the formats charts come in; nothing else is accepted
	_ "image/jpeg"
	_ "image/png"
	"io"
	"io/fs"
)

// accepted lists the formats we decode. image.DecodeConfig knows every
// format registered anywhere in the binary, so we filter its answer.
var accepted = map[string]bool{"png": true, "jpeg": true, "gif": true}

// errOverCap stops a decoder that reads past maxBytes; load reports it as
// ErrTooLarge whatever the decoder made of it.
var errOverCap = errors.New("thumbs: source over the byte cap")

// load opens and decodes the source, refusing it by size before decoding.
func (c *Cache) load(open func() (io.ReadCloser, error)) (image.Image, error) {
	rc, err := open()
	if err != nil {
		return nil, fmt.Errorf("thumbs: open source: %w", err)
	}
	defer rc.Close()
	if err := c.checkFileSize(rc); err != nil {
		return nil, err
	}
	src := &capReader{r: rc, left: c.maxBytes}
	img, err := c.decode(src)
	switch {
	case src.over:
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxBytes)
	case src.err != nil:
		return nil, fmt.Errorf("thumbs: read source: %w", src.err)
	case err != nil:
		return nil, err
	}
	return img, nil
}

// checkFileSize refuses an oversized source without reading it when the
// source knows its size: a file, or an opened blob of either blob store.
func (c *Cache) checkFileSize(rc io.ReadCloser) error {
	size, ok := sourceSize(rc)
	if !ok || size <= c.maxBytes {
		return nil // capReader still enforces the cap while reading
	}
	return fmt.Errorf("%w: %d bytes, cap %d", ErrTooLarge, size, c.maxBytes)
}

// sourceSize is the source's size, if it can tell without being read.
func sourceSize(rc io.ReadCloser) (int64, bool) {
	switch f := rc.(type) {
	case interface{ Size() int64 }:
		return f.Size(), true
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := f.Stat(); err == nil {
			return fi.Size(), true
		}
	}
	return 0, false
}

// decode reads the header first and checks format and pixel count, so a
// decompression bomb is refused before its pixels are allocated.
func (c *Cache) decode(src io.Reader) (image.Image, error) {
	var head bytes.Buffer
	cfg, format, err := image.DecodeConfig(io.TeeReader(src, &head))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	if !accepted[format] {
		return nil, fmt.Errorf("%w: format %s", ErrNotImage, format)
	}
	if cfg.Width < 1 || cfg.Height < 1 {
		return nil, fmt.Errorf("%w: %dx%d pixels", ErrNotImage, cfg.Width, cfg.Height)
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > c.maxPixels {
		return nil, fmt.Errorf("%w: %dx%d pixels, cap %d", ErrTooLarge, cfg.Width, cfg.Height, c.maxPixels)
	}
	// head holds everything DecodeConfig consumed, including its read-ahead.
	return decodeImage(io.MultiReader(&head, src))
}

// decodeImage turns a decoder panic into ErrNotImage. The standard decoders
// are not known to panic, but they parse hostile bytes and one bad chart must
// not take the server down with it.
func decodeImage(r io.Reader) (img image.Image, err error) {
	defer func() {
		if p := recover(); p != nil {
			img, err = nil, fmt.Errorf("%w: decoder panic: %v", ErrNotImage, p)
		}
	}()
	img, _, err = image.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotImage, err)
	}
	return img, nil
}

// capReader fails reads past left bytes and remembers why reading stopped,
// so load can tell an oversized or unreadable source from a corrupted one
// whatever error the decoder passes on.
type capReader struct {
	r    io.Reader
	left int64
	over bool
	err  error
}

func (r *capReader) Read(p []byte) (int, error) {
	if r.over {
		return 0, errOverCap
	}
	// One byte beyond the cap is enough to know the source is over it.
	if int64(len(p)) > r.left+1 {
		p = p[:r.left+1]
	}
	n, err := r.r.Read(p)
	r.left -= int64(n)
	if r.left < 0 {
		r.over = true
		return n, errOverCap
	}
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}
