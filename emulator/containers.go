package emulator

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// container is a Code Interpreter container: one kernel (a sandbox session) and the files the
// API knows in its /mnt/data. Containers live in memory only; they are sessions and, as in the
// hosted service, do not outlive their lifetime (or, here, a restart).
type container struct {
	id, name    string
	createdAt   time.Time
	idle        time.Duration
	memoryLimit string // as asked; "" for none (see limitKernelMemory)

	// ops serialises kernel calls: a kernel runs one thing at a time.
	ops sync.Mutex

	mu         sync.Mutex // guards the fields below
	kernel     Kernel
	lastActive time.Time
	status     string // "active", "expired" or "deleted"
	files      []*containerFile
	copied     map[string]bool // ids of uploaded files already copied in
	closed     chan struct{}   // closed once the kernel is closed
}

// containerFile is a file of a container, as the container files routes show it.
type containerFile struct {
	ID        string `json:"id"`
	Object    string `json:"object"`
	Bytes     int64  `json:"bytes"`
	Container string `json:"container_id"`
	CreatedAt int64  `json:"created_at"`
	Path      string `json:"path"`
	Source    string `json:"source"` // "user" or "assistant"

	modTime time.Time
}

// name is the file's path relative to /mnt/data, as the kernel knows it.
func (f *containerFile) name() string { return strings.TrimPrefix(f.Path, "/mnt/data/") }

// containerSet holds every container of the server.
type containerSet struct {
	s    *Server
	mu   sync.Mutex
	byID map[string]*container
	// byConversation maps a conversation to the container its last turn used.
	byConversation map[string]string
	stop           chan struct{}
	stopOnce       sync.Once
}

func newContainerSet(s *Server) *containerSet {
	return &containerSet{s: s, byID: map[string]*container{}, byConversation: map[string]string{},
		stop: make(chan struct{})}
}

// containerRequest says what container to make; zero fields take defaults.
type containerRequest struct {
	id      string        // chosen ahead, when a turn announced it before the kernel was ready
	name    string        // default: the id
	owner   string        // the end user the kernel is for
	idle    time.Duration // default: the server's idle timeout
	fileIDs []string      // uploaded files to copy into /mnt/data
	// memoryLimit is the container's size (see memoryLimits), checked already; "" for none.
	memoryLimit string
}

// create starts a kernel and copies the given uploaded files into its /mnt/data.
func (cs *containerSet) create(ctx context.Context, spec containerRequest) (*container, error) {
	k, err := cs.s.kernels.Session(ctx, spec.owner)
	if err != nil {
		return nil, fmt.Errorf("start kernel: %w", err)
	}
	if err := cs.s.limitKernelMemory(ctx, k, spec.memoryLimit); err != nil {
		k.Close()
		return nil, err
	}
	now := cs.s.now()
	c := &container{id: cmp.Or(spec.id, newID("cntr_")), name: spec.name, createdAt: now, idle: cmp.Or(spec.idle, cs.s.cfg.IdleTimeout),
		memoryLimit: spec.memoryLimit, kernel: k, lastActive: now, status: "active", copied: map[string]bool{}, closed: make(chan struct{})}
	if c.name == "" {
		c.name = c.id
	}
	if err := cs.s.copyFiles(ctx, c, spec.fileIDs); err != nil {
		k.Close()
		return nil, err
	}
	cs.mu.Lock()
	cs.byID[c.id] = c
	cs.mu.Unlock()
	cs.s.log.Info("container created", "container", c.id, "kernel", k.ID(), "files", len(spec.fileIDs))
	return c, nil
}

// get returns a container by id, expiring it first if its time is up.
func (cs *containerSet) get(id string) (*container, bool) {
	cs.mu.Lock()
	c, ok := cs.byID[id]
	cs.mu.Unlock()
	if ok {
		cs.expireIfDue(c)
	}
	return c, ok
}

// forConversation returns the live container of a conversation's last turn, if any.
func (cs *containerSet) forConversation(conversationID string) *container {
	cs.mu.Lock()
	id := cs.byConversation[conversationID]
	cs.mu.Unlock()
	if c, ok := cs.get(id); ok && c.alive() {
		return c
	}
	return nil
}

func (cs *containerSet) setConversation(conversationID string, c *container) {
	if conversationID == "" {
		return
	}
	cs.mu.Lock()
	cs.byConversation[conversationID] = c.id
	cs.mu.Unlock()
}

// forgetConversation ends the container of a deleted conversation.
func (cs *containerSet) forgetConversation(conversationID string) {
	cs.mu.Lock()
	id := cs.byConversation[conversationID]
	delete(cs.byConversation, conversationID)
	cs.mu.Unlock()
	if c, ok := cs.get(id); ok {
		c.end("deleted")
		cs.remove(id)
	}
}

func (cs *containerSet) remove(id string) {
	cs.mu.Lock()
	delete(cs.byID, id)
	cs.mu.Unlock()
}

// all returns every container, oldest first.
func (cs *containerSet) all() []*container {
	cs.mu.Lock()
	list := make([]*container, 0, len(cs.byID))
	for _, c := range cs.byID {
		list = append(list, c)
	}
	cs.mu.Unlock()
	sort.Slice(list, func(i, j int) bool { return list[i].createdAt.Before(list[j].createdAt) })
	for _, c := range list {
		cs.expireIfDue(c)
	}
	return list
}

// expireIfDue ends a container idle for too long, older than the lifetime, or whose kernel died.
func (cs *containerSet) expireIfDue(c *container) {
	now := cs.s.now()
	c.mu.Lock()
	due := c.status == "active" && (now.Sub(c.lastActive) >= c.idle ||
		now.Sub(c.createdAt) >= cs.s.cfg.Lifetime || isClosed(c.kernel.Done()))
	c.mu.Unlock()
	if due {
		cs.s.log.Info("container expired", "container", c.id)
		c.end("expired")
	}
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// sweepLoop expires containers in the background so that idle kernels free their memory even
// when nobody asks about them.
func (cs *containerSet) sweepLoop() {
	every := min(cs.s.cfg.IdleTimeout, cs.s.cfg.Lifetime) / 4
	every = max(min(every, 30*time.Second), 10*time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-cs.stop:
			return
		case <-t.C:
			cs.all()
		}
	}
}

// stopSweep ends sweepLoop.
func (cs *containerSet) stopSweep() {
	cs.stopOnce.Do(func() { close(cs.stop) })
}

// closeAll ends every container and waits for their kernels to close; the server is closing.
func (cs *containerSet) closeAll() {
	cs.stopSweep()
	for _, c := range cs.all() {
		c.end("expired")
		<-c.closed
	}
}

// alive reports whether the container can still run code.
func (c *container) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status == "active"
}

// end records why the container ended and closes its kernel in the background; the files'
// metadata stays for the list routes.
func (c *container) end(status string) {
	c.mu.Lock()
	was := c.status
	c.status = status
	c.mu.Unlock()
	if was != "active" {
		return
	}
	go func() {
		defer close(c.closed)
		// Interrupt the running cell, if any, and close once it has returned: closing a
		// sandbox session under a running cell races with the sandbox's own interrupt.
		_ = c.kernel.Interrupt()
		c.ops.Lock()
		defer c.ops.Unlock()
		_ = c.kernel.Close()
	}()
}

func (c *container) touch(now time.Time) {
	c.mu.Lock()
	c.lastActive = now
	c.mu.Unlock()
}

// errContainerGone is returned by kernel operations on a container that is no longer active.
var errContainerGone = errors.New("container is no longer active")

// exec runs a cell and returns the files it wrote or changed, registered as container files.
func (c *container) exec(ctx context.Context, code string, now func() time.Time) (*ExecResult, []*containerFile, error) {
	c.ops.Lock()
	defer c.ops.Unlock()
	if !c.alive() {
		return nil, nil, errContainerGone
	}
	c.touch(now())
	res, err := c.kernel.Exec(ctx, code)
	c.touch(now())
	if err != nil {
		return nil, nil, err
	}
	var changed []*containerFile
	for _, f := range res.Files {
		if cf, isNew := c.upsertFile(f, "assistant", now()); isNew {
			changed = append(changed, cf)
		}
	}
	return res, changed, nil
}

// upsertFile records a file seen in /mnt/data and reports whether it is new or changed.
func (c *container) upsertFile(f KernelFile, source string, now time.Time) (*containerFile, bool) {
	name := strings.TrimPrefix(path.Clean("/"+strings.TrimPrefix(f.Name, "/mnt/data/")), "/")
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cf := range c.files {
		if cf.name() == name {
			changed := cf.Bytes != f.Size || !cf.modTime.Equal(f.ModTime)
			cf.Bytes, cf.modTime = f.Size, f.ModTime
			return cf, changed
		}
	}
	cf := &containerFile{ID: newID("cfile_"), Object: "container.file", Bytes: f.Size, Container: c.id,
		CreatedAt: now.Unix(), Path: "/mnt/data/" + name, Source: source, modTime: f.ModTime}
	c.files = append(c.files, cf)
	return cf, true
}

// file returns a container file by id.
func (c *container) file(id string) (*containerFile, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cf := range c.files {
		if cf.ID == id {
			return cf, true
		}
	}
	return nil, false
}

// fileNames lists the files of the container, relative to /mnt/data.
func (c *container) fileNames() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	names := make([]string, len(c.files))
	for i, cf := range c.files {
		names[i] = cf.name()
	}
	return names
}

// put writes a file into /mnt/data and registers it.
func (c *container) put(ctx context.Context, name string, r io.Reader, source string, now time.Time) (*containerFile, error) {
	c.ops.Lock()
	defer c.ops.Unlock()
	if !c.alive() {
		return nil, errContainerGone
	}
	if err := c.kernel.PutFile(ctx, name, r); err != nil {
		return nil, err
	}
	// The kernel's listing gives the size and time that later cells will be compared with.
	listed, err := c.kernel.ListFiles(ctx)
	if err != nil {
		return nil, err
	}
	kf := KernelFile{Name: name}
	for _, f := range listed {
		if strings.TrimPrefix(f.Name, "/mnt/data/") == name {
			kf = f
		}
	}
	cf, _ := c.upsertFile(kf, source, now)
	return cf, nil
}

// copyFiles copies uploaded files into a container's /mnt/data under their mount names
// (mountName), skipping those already there.
func (s *Server) copyFiles(ctx context.Context, c *container, fileIDs []string) error {
	for _, id := range fileIDs {
		c.mu.Lock()
		done := c.copied[id]
		c.mu.Unlock()
		if done {
			continue
		}
		var f fileObject
		if err := getObject(ctx, s.st.db, "files", id, &f); err != nil {
			if errors.Is(err, errNoRow) {
				return &apiError{status: http.StatusNotFound, param: "file_ids", message: fmt.Sprintf("No such File object: %s", id)}
			}
			return err
		}
		if err := s.copyFile(ctx, c, f, mountName(f)); err != nil {
			return fmt.Errorf("copy %s into %s: %w", id, c.id, err)
		}
		c.mu.Lock()
		c.copied[id] = true
		c.mu.Unlock()
	}
	return nil
}

// copyFile copies an uploaded file into a container's /mnt/data as name.
func (s *Server) copyFile(ctx context.Context, c *container, f fileObject, name string) error {
	content, err := os.Open(s.filePath(f.ID))
	if err != nil {
		return err
	}
	defer content.Close()
	_, err = c.put(ctx, name, content, "user", s.now())
	return err
}

// mountName is where an uploaded file lands, relative to /mnt/data: "<file_id>-<filename>",
// as the hosted service mounts it (recorded twice: the code of a live turn read
// "/mnt/data/assistant-XoFcRwENZLR9RMVypCZuHh-synthetic_500_quarterly_results.csv",
// azure-sdk-assets python/…/sample_agent_code_interpreter_with_files].json @ c6752cf; see
// shared/reference/foundry-recorded.md 6e). Code that names an upload by its bare file name
// fails there, so it fails here too.
func mountName(f fileObject) string { return f.ID + "-" + f.Filename }
