package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Eviction and restore. To make room in the memory budget, an idle
// session's kernel is evicted: its variables are pickled by the worker and
// streamed to a directory on the host, its files in /mnt/data are copied
// there too, and the kernel is killed. The session itself stays open. The
// next call on it claims a fresh worker (waiting in line like a new
// session), puts the files back with their times, and has the worker load
// the variables: modules are imported again, the user's functions and
// classes are defined again from their source, and everything else is
// unpickled. What could not be kept is named in a RestoreReport, which the
// next Exec returns once.

// RestoreReport says what came back when an evicted session was restored.
type RestoreReport struct {
	// Restored names the variables, functions, classes and modules that are
	// back as they were.
	Restored []string
	// Lost names what could not be kept, each with the reason and what to do.
	Lost []LostVariable
	// Files is how many files were put back into /mnt/data.
	Files int
}

// LostVariable is a name a restored session no longer has.
type LostVariable struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
}

// savedState is an evicted session's state on the host: the worker's
// snapshot frames as they came, and the files of /mnt/data.
type savedState struct {
	dir   string
	files []savedFile
}

// savedFile is one file of /mnt/data kept on the host.
type savedFile struct {
	Name    string
	ModTime time.Time
	path    string
}

// Limits on what an eviction takes from the worker: a snapshot frame is a
// header, a chunk or the summary (which carries the source of the user's
// functions); the snapshot as a whole cannot exceed the kernel's memory.
const (
	maxSnapshotJSON = 16 << 20
	evictTimeout    = 5 * time.Minute
)

var errNotIdle = errors.New("sandbox: session is in use")

// evict saves the session's state and ends its kernel, unless it is in use
// by then; the session must have been marked evicting (see victim). A
// failure other than that ends the session: a half-saved state must never
// pass for a whole one.
func (p *Pool) evict(s *Session) {
	start := time.Now()
	err := s.evict()
	switch {
	case errors.Is(err, errNotIdle):
		s.callOffEviction()
	case err != nil:
		p.log.Warn("sandbox: eviction failed; the session ends", "session", s.id, "err", err)
		s.end(fmt.Errorf("%w (its state could not be saved to make room for others: %v)", ErrSessionReset, err))
	default:
		p.mu.Lock()
		p.stats.Evictions++
		p.mu.Unlock()
		p.log.Info("sandbox: evicted an idle session to make room", "session", s.id, "took", time.Since(start).Round(time.Millisecond))
	}
	p.signal()
	p.nudge()
}

// evict saves the evicting session's state and kills its kernel. A call
// that began after the session was picked, or holds the protocol, calls the
// eviction off (errNotIdle).
func (s *Session) evict() error {
	if !s.mu.TryLock() {
		return errNotIdle
	}
	defer s.mu.Unlock()
	if st, _, idle := s.status(); st != stateEvicting || !idle {
		return errNotIdle
	}
	ctx, cancel := context.WithTimeout(s.pool.ctx, evictTimeout)
	defer cancel()
	dir := filepath.Join(s.pool.stateDir, s.id)
	saved, err := s.save(ctx, dir)
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	s.saved = saved // if the session ended meanwhile, dropSaved removes it once we let go of s.mu
	w := s.retire()
	if w == nil {
		return errNotIdle
	}
	w.kill()
	w.release(s.pool)
	return nil
}

// save writes the kernel's variables and files under dir. The caller holds
// s.mu.
func (s *Session) save(ctx context.Context, dir string) (*savedState, error) {
	if err := os.MkdirAll(filepath.Join(dir, "files"), 0o700); err != nil {
		return nil, err
	}
	if err := s.saveVariables(ctx, filepath.Join(dir, "state")); err != nil {
		return nil, fmt.Errorf("save variables: %w", err)
	}
	saved := &savedState{dir: dir}
	if err := s.saveFiles(ctx, saved); err != nil {
		return nil, fmt.Errorf("save files: %w", err)
	}
	return saved, nil
}

// saveVariables streams the worker's snapshot into path, frame by frame,
// without holding more than one frame in memory.
func (s *Session) saveVariables(ctx context.Context, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	out := &conn{w: bufio.NewWriterSize(f, 1<<20)}
	stop := s.guard(ctx)
	defer stop()
	if err := s.w.conn.send(request{Op: "snapshot", MaxBytes: s.cfg.MemoryBytes}); err != nil {
		return s.failure(err)
	}
	var total int64
	for {
		kind, body, err := s.w.conn.readFrameMax(maxSnapshotJSON)
		if err != nil {
			return s.failure(err)
		}
		if total += int64(len(body)); total > s.cfg.MemoryBytes+maxSnapshotJSON {
			return s.failure(fmt.Errorf("sandbox: snapshot larger than the kernel's memory"))
		}
		if kind == frameBlob && len(body) > chunkSize {
			return s.failure(fmt.Errorf("sandbox: snapshot chunk of %d bytes", len(body)))
		}
		if err := out.writeFrame(kind, body); err != nil {
			return err
		}
		if kind == frameJSON && snapshotDone(body) {
			return errors.Join(out.flush(), f.Sync())
		}
	}
}

// snapshotDone reports whether a JSON frame is the snapshot's summary.
func snapshotDone(body []byte) bool {
	var head struct {
		Done bool `json:"done"`
	}
	return json.Unmarshal(body, &head) == nil && head.Done
}

// saveFiles copies every file of /mnt/data under saved.dir.
func (s *Session) saveFiles(ctx context.Context, saved *savedState) error {
	var reply wireReply
	stop := s.guard(ctx)
	err := s.exchange(request{Op: "list"}, &reply, listingBound)
	stop()
	if err != nil {
		return err
	}
	for i, info := range fileInfos(reply.Files) {
		path := filepath.Join(saved.dir, "files", strconv.Itoa(i))
		if err := s.saveFile(ctx, info.Name, path); err != nil {
			return fmt.Errorf("%s: %w", info.Name, err)
		}
		saved.files = append(saved.files, savedFile{Name: info.Name, ModTime: info.ModTime, path: path})
	}
	return nil
}

func (s *Session) saveFile(ctx context.Context, name, path string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	if _, err := s.getTo(ctx, name, bw); err != nil {
		return err
	}
	return bw.Flush()
}

// ensureLive restores an evicted session before a call. The caller holds
// s.mu.
func (s *Session) ensureLive(ctx context.Context) error {
	switch st, err := s.phase(); st {
	case stateEnded:
		return err
	case stateEvicted:
		return s.restore(ctx)
	}
	return nil // live, or picked for an eviction that this call now calls off
}

// restore claims a worker for the evicted session and loads its state. If
// no worker can be had (the line is full, the wait too long), the session
// stays evicted and a later call tries again; if loading fails, the session
// ends.
func (s *Session) restore(ctx context.Context) error {
	start := time.Now()
	w, err := s.pool.claimWorker(ctx, s.owner)
	if err != nil {
		return err
	}
	if !s.attach(w) {
		w.kill()
		w.release(s.pool)
		s.pool.unspare()
		return s.Err()
	}
	rep, err := s.load(ctx, s.saved)
	if err != nil {
		if ended := s.Err(); ended != nil {
			return ended
		}
		s.end(fmt.Errorf("%w (restoring it failed: %v)", ErrSessionReset, err))
		return s.Err()
	}
	os.RemoveAll(s.saved.dir)
	s.saved, s.restored = nil, rep
	s.pool.mu.Lock()
	s.pool.stats.Restores++
	s.pool.mu.Unlock()
	s.pool.log.Info("sandbox: restored an evicted session", "session", s.id, "restored", len(rep.Restored),
		"lost", len(rep.Lost), "files", rep.Files, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// load gives the new kernel the session's memory limit, before anything of
// the user's runs in it (unpickling may), then puts the saved files back
// and streams the saved variables to it. The caller holds s.mu.
func (s *Session) load(ctx context.Context, saved *savedState) (*RestoreReport, error) {
	if err := s.applyMemoryLimit(); err != nil {
		return nil, err
	}
	for _, f := range saved.files {
		if err := s.loadFile(ctx, f); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	rep, err := s.loadVariables(ctx, filepath.Join(saved.dir, "state"))
	if err != nil {
		return nil, err
	}
	rep.Files = len(saved.files)
	return rep, nil
}

func (s *Session) loadFile(ctx context.Context, f savedFile) error {
	r, err := os.Open(f.path)
	if err != nil {
		return err
	}
	defer r.Close()
	return s.put(ctx, f.Name, bufio.NewReaderSize(r, 1<<20), &f.ModTime)
}

// loadVariables replays the saved snapshot frames to the worker and reads
// its report.
func (s *Session) loadVariables(ctx context.Context, path string) (*RestoreReport, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in := &conn{r: bufio.NewReaderSize(f, 1<<20)}
	stop := s.guard(ctx)
	defer stop()
	if err := s.w.conn.write(request{Op: "restore"}); err != nil {
		return nil, s.failure(err)
	}
	for {
		kind, body, err := in.readFrameMax(maxSnapshotJSON)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("saved state: %w", err)
		}
		if err := s.w.conn.writeFrame(kind, body); err != nil {
			return nil, s.failure(err)
		}
	}
	if err := s.w.conn.flush(); err != nil {
		return nil, s.failure(err)
	}
	var reply struct {
		OK       bool           `json:"ok"`
		Restored []string       `json:"restored"`
		Lost     []LostVariable `json:"lost"`
	}
	kind, body, err := s.w.conn.readFrameMax(maxSnapshotJSON)
	if err != nil {
		return nil, s.failure(err)
	}
	if kind != frameJSON || json.Unmarshal(body, &reply) != nil || !reply.OK {
		return nil, s.failure(fmt.Errorf("sandbox: restore: unexpected reply"))
	}
	return &RestoreReport{Restored: reply.Restored, Lost: reply.Lost}, nil
}

// dropSaved removes an ended session's saved state, once no eviction or
// restore holds it.
func (s *Session) dropSaved() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saved != nil {
		os.RemoveAll(s.saved.dir)
		s.saved = nil
	}
}
