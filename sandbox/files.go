package sandbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Files move through the worker protocol: the worker opens them under
// /mnt/data without following symlinks and serves only regular files, so a
// link planted by user code can never make the host read a host file (the
// host never opens a path inside the sandbox at all).

const chunkSize = 1 << 20

// cleanName accepts "x.csv", "sub/x.csv" or "/mnt/data/x.csv" and returns
// the path relative to /mnt/data.
func cleanName(name string) (string, error) {
	rel := strings.TrimPrefix(name, dataDir+"/")
	bad := rel == "" || len(rel) > 4096 || strings.HasPrefix(rel, "/") || strings.ContainsRune(rel, 0)
	for _, part := range strings.Split(rel, "/") {
		bad = bad || part == "" || part == "." || part == ".."
	}
	if bad {
		return "", fmt.Errorf("sandbox: invalid file name %q", name)
	}
	return rel, nil
}

// fileError maps a worker's failure text to an error callers can test.
func fileError(op, name, msg string) error {
	switch {
	case strings.HasPrefix(msg, "FileNotFoundError"):
		return fmt.Errorf("sandbox: %s %s: %w", op, name, fs.ErrNotExist)
	case strings.Contains(msg, "No space left") || strings.Contains(msg, "File too large") ||
		strings.Contains(msg, "larger than"):
		return fmt.Errorf("sandbox: %s %s: %w: %s", op, name, ErrFileTooLarge, msg)
	}
	return fmt.Errorf("sandbox: %s %s: %s", op, name, msg)
}

// PutFile writes r to /mnt/data/name, creating parent directories. A file
// that would exceed Config.DataBytes (the size of /mnt/data) fails with an
// error wrapping ErrFileTooLarge and leaves nothing behind.
func (s *Session) PutFile(ctx context.Context, name string, r io.Reader) error {
	rel, err := cleanName(name)
	if err != nil {
		return err
	}
	if err := s.begin(); err != nil {
		return err
	}
	defer s.finish()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLive(ctx); err != nil {
		return err
	}
	return s.put(ctx, rel, r, nil)
}

// put writes r to /mnt/data/rel, with the modification time mtime when
// given (a restored file keeps its time). The caller holds s.mu.
func (s *Session) put(ctx context.Context, rel string, r io.Reader, mtime *time.Time) error {
	req := request{Op: "put", Name: rel}
	if mtime != nil {
		ns := mtime.UnixNano()
		req.MtimeNS = &ns
	}
	if err := s.w.conn.send(req); err != nil {
		return s.failure(err)
	}
	streamErr := s.streamUp(ctx, r)
	if err := s.w.conn.flush(); err != nil {
		return s.failure(err)
	}
	stop := s.guard(ctx)
	defer stop()
	var reply wireReply
	if err := s.w.conn.recvWithin(&reply, smallBound); err != nil {
		return s.failure(err)
	}
	s.measure(reply.DataBytes)
	if streamErr != nil {
		return fmt.Errorf("sandbox: put %s: %w", rel, streamErr)
	}
	if !reply.OK {
		return fileError("put", rel, reply.errorText())
	}
	return nil
}

// streamUp sends r as chunks and ends the stream: with an empty chunk on
// success, with an abort frame (the worker deletes the partial file) when
// r fails, ctx ends or the file outgrows /mnt/data.
func (s *Session) streamUp(ctx context.Context, r io.Reader) error {
	buf := make([]byte, chunkSize)
	var total int64
	for {
		n, rerr := io.ReadFull(r, buf)
		total += int64(n)
		var err error
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case total > s.cfg.DataBytes:
			err = fmt.Errorf("%w: more than %d bytes", ErrFileTooLarge, s.cfg.DataBytes)
		case rerr != nil && rerr != io.EOF && rerr != io.ErrUnexpectedEOF:
			err = rerr
		}
		if err != nil {
			return errors.Join(err, s.w.conn.writeFrame(frameAbort, nil))
		}
		if n > 0 {
			if werr := s.w.conn.writeFrame(frameBlob, buf[:n]); werr != nil {
				return werr
			}
		}
		if rerr != nil {
			return s.w.conn.writeFrame(frameBlob, nil)
		}
	}
}

// GetFile returns the contents of /mnt/data/name, whole in memory: for
// small files. CopyFile streams one of any size.
func (s *Session) GetFile(ctx context.Context, name string) ([]byte, error) {
	var out bytes.Buffer
	if _, err := s.CopyFile(ctx, name, &out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// CopyFile writes the contents of /mnt/data/name to w as it arrives, a
// chunk at a time, and returns its size: a copy holds one chunk in memory,
// whatever the file's size. Symlinks and anything but regular files are
// refused; a missing file gives an error wrapping fs.ErrNotExist, before
// anything is written to w. The host holds the worker to Config.DataBytes
// and to the size it announced: a worker that announces or sends more ends
// the session with a *LimitError or a protocol error. When w fails, the rest
// of the file is read and dropped, so the session stays usable, and w's
// error is returned.
func (s *Session) CopyFile(ctx context.Context, name string, w io.Writer) (int64, error) {
	rel, err := cleanName(name)
	if err != nil {
		return 0, err
	}
	if err := s.begin(); err != nil {
		return 0, err
	}
	defer s.finish()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLive(ctx); err != nil {
		return 0, err
	}
	return s.getTo(ctx, rel, w)
}

// getTo copies /mnt/data/rel to w and returns its size. The caller holds
// s.mu.
func (s *Session) getTo(ctx context.Context, rel string, w io.Writer) (int64, error) {
	stop := s.guard(ctx)
	defer stop()
	req := request{Op: "get", Name: rel, Max: s.cfg.DataBytes}
	if err := s.w.conn.send(req); err != nil {
		return 0, s.failure(err)
	}
	var reply wireReply
	if err := s.w.conn.recvWithin(&reply, smallBound); err != nil {
		return 0, s.failure(err)
	}
	if !reply.OK {
		return 0, fileError("get", rel, reply.errorText())
	}
	if reply.Size < 0 || reply.Size > s.cfg.DataBytes {
		return 0, s.failure(&LimitError{Limit: LimitFileBytes, Got: reply.Size, Max: s.cfg.DataBytes})
	}
	return s.recvFile(reply.Size, w)
}

// recvFile copies a file's chunks to w, up to the empty one that ends them.
// size, the worker's word, only bounds them: nothing is allocated from it.
// After w fails the chunks are still read, to keep the protocol in step.
func (s *Session) recvFile(size int64, w io.Writer) (int64, error) {
	var n int64
	var werr error
	for {
		b, err := s.w.conn.recvBlobWithin(bound{max: chunkSize})
		if err != nil {
			return n, s.failure(err)
		}
		if len(b) == 0 {
			return n, werr // shorter than announced: the file shrank meanwhile
		}
		if n += int64(len(b)); n > size {
			return n, s.failure(protocolError("a file of more than the %d bytes announced", size))
		}
		if werr == nil {
			_, werr = w.Write(b)
		}
	}
}

// ListFiles returns the regular files under /mnt/data, sorted by name, with
// names relative to it. Symlinks are not listed.
func (s *Session) ListFiles(ctx context.Context) ([]FileInfo, error) {
	var reply wireReply
	if err := s.simple(ctx, request{Op: "list"}, &reply, listingBound); err != nil {
		return nil, err
	}
	return fileInfos(reply.Files), nil
}

// DeleteFile removes /mnt/data/name (a file or symlink, not a directory).
func (s *Session) DeleteFile(ctx context.Context, name string) error {
	rel, err := cleanName(name)
	if err != nil {
		return err
	}
	var reply wireReply
	if err := s.simple(ctx, request{Op: "delete", Name: rel}, &reply, smallBound); err != nil {
		return err
	}
	if !reply.OK {
		return fileError("delete", name, reply.errorText())
	}
	return nil
}

// simple runs a one-request, one-reply exchange; the reply is at most b.
func (s *Session) simple(ctx context.Context, req request, reply *wireReply, b bound) error {
	if err := s.begin(); err != nil {
		return err
	}
	defer s.finish()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.ensureLive(ctx); err != nil {
		return err
	}
	stop := s.guard(ctx)
	defer stop()
	return s.exchange(req, reply, b)
}

// exchange sends one request and reads its reply within b. The caller
// holds s.mu.
func (s *Session) exchange(req request, reply *wireReply, b bound) error {
	if err := s.w.conn.send(req); err != nil {
		return s.failure(err)
	}
	if err := s.w.conn.recvWithin(reply, b); err != nil {
		return s.failure(err)
	}
	return nil
}
