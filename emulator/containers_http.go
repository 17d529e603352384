package emulator

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// containerObject is the Container object of the OpenAI containers routes.
type containerObject struct {
	ID           string         `json:"id"`
	Object       string         `json:"object"`
	Name         string         `json:"name"`
	Status       string         `json:"status"`
	CreatedAt    int64          `json:"created_at"`
	LastActiveAt int64          `json:"last_active_at"`
	ExpiresAfter expiresAfter   `json:"expires_after"`
	MemoryLimit  string         `json:"memory_limit"`
	Network      map[string]any `json:"network_policy"`
}

type expiresAfter struct {
	Anchor  string `json:"anchor"`
	Minutes int    `json:"minutes"`
}

func (c *container) object() containerObject {
	c.mu.Lock()
	defer c.mu.Unlock()
	return containerObject{ID: c.id, Object: "container", Name: c.name, Status: c.status,
		CreatedAt: c.createdAt.Unix(), LastActiveAt: c.lastActive.Unix(),
		ExpiresAfter: expiresAfter{Anchor: "last_active_at", Minutes: int(c.idle.Round(time.Minute) / time.Minute)},
		MemoryLimit:  reportedMemoryLimit(c.memoryLimit), Network: map[string]any{"type": "disabled"}}
}

// createContainer starts a container outside any turn; a turn can then name it in its
// code_interpreter tool.
func (s *Server) createContainer(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Name         string        `json:"name"`
		FileIDs      []string      `json:"file_ids"`
		ExpiresAfter *expiresAfter `json:"expires_after"`
		MemoryLimit  string        `json:"memory_limit"`
	}
	if err := decodeJSON(r, &req); err != nil {
		return err
	}
	if err := checkMemoryLimit(req.MemoryLimit, "memory_limit"); err != nil {
		return err
	}
	var idle time.Duration
	if req.ExpiresAfter != nil && req.ExpiresAfter.Minutes > 0 {
		idle = time.Duration(req.ExpiresAfter.Minutes) * time.Minute
	}
	for _, id := range req.FileIDs {
		if _, err := s.file(r, id); err != nil {
			return err
		}
	}
	c, err := s.containers.create(r.Context(), containerRequest{name: req.Name, idle: idle, fileIDs: req.FileIDs,
		memoryLimit: req.MemoryLimit})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.object())
	return nil
}

// container returns a container by path id; an expired one is returned too, for the caller to
// decide.
func (s *Server) container(id string) (*container, error) {
	c, ok := s.containers.get(id)
	if !ok {
		return nil, &apiError{status: http.StatusNotFound, param: "container_id",
			message: fmt.Sprintf("Container with id '%s' not found.", id)}
	}
	return c, nil
}

func (s *Server) showContainer(w http.ResponseWriter, r *http.Request) error {
	c, err := s.container(r.PathValue("container"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, c.object())
	return nil
}

func (s *Server) listContainers(w http.ResponseWriter, r *http.Request) error {
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	all := s.containers.all()
	objects := make([]containerObject, len(all))
	for i, c := range all {
		objects[i] = c.object()
	}
	writeJSON(w, http.StatusOK, paginate(objects, p, func(o containerObject) string { return o.ID }))
	return nil
}

func (s *Server) deleteContainer(w http.ResponseWriter, r *http.Request) error {
	c, err := s.container(r.PathValue("container"))
	if err != nil {
		return err
	}
	c.end("deleted")
	s.containers.remove(c.id)
	writeJSON(w, http.StatusOK, map[string]any{"id": c.id, "object": "container.deleted", "deleted": true})
	return nil
}

// liveContainer is container plus the 404 the hosted service gives for files of an expired one.
func (s *Server) liveContainer(id string) (*container, error) {
	c, err := s.container(id)
	if err != nil {
		return nil, err
	}
	if !c.alive() {
		return nil, &apiError{status: http.StatusNotFound, param: "container_id",
			message: fmt.Sprintf("Container %s is expired.", c.id)}
	}
	return c, nil
}

// addContainerFile takes a multipart "file" or a JSON {"file_id"} naming an uploaded file.
func (s *Server) addContainerFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.liveContainer(r.PathValue("container"))
	if err != nil {
		return err
	}
	var cf *containerFile
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		cf, err = s.putMultipart(r, c)
	} else {
		var req struct {
			FileID string `json:"file_id"`
		}
		if err := decodeJSON(r, &req); err != nil {
			return err
		}
		var f fileObject
		if f, err = s.file(r, req.FileID); err != nil {
			return err
		}
		// An explicit container file keeps its name: the mount name is what Code Interpreter
		// gives the files of a tool's container (mountName); OpenAI's container files route
		// shows "/mnt/data/<filename>" (UNCONFIRMED for Foundry).
		if err = s.copyFile(r.Context(), c, f, f.Filename); err == nil {
			cf = c.fileByName(f.Filename)
		}
	}
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, cf)
	return nil
}

func (s *Server) putMultipart(r *http.Request, c *container) (*containerFile, error) {
	r.Body = http.MaxBytesReader(nil, r.Body, s.cfg.MaxFileSize+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, errBadRequest("file", "Expected a multipart/form-data body with a 'file' part: %v.", err)
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return nil, errBadRequest("file", "Missing required parameter: 'file'.")
		}
		if err != nil {
			return nil, s.uploadError(err)
		}
		if part.FormName() == "file" {
			name := path.Base(part.FileName())
			if name == "." || name == "/" {
				return nil, errBadRequest("file", "The 'file' part needs a filename.")
			}
			return c.put(r.Context(), name, io.LimitReader(part, s.cfg.MaxFileSize), "user", s.now())
		}
	}
}

func (c *container) fileByName(name string) *containerFile {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cf := range c.files {
		if cf.name() == name {
			return cf
		}
	}
	return nil
}

func (s *Server) listContainerFiles(w http.ResponseWriter, r *http.Request) error {
	c, err := s.container(r.PathValue("container"))
	if err != nil {
		return err
	}
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	c.mu.Lock()
	files := make([]containerFile, len(c.files))
	for i, cf := range c.files {
		files[i] = *cf
	}
	c.mu.Unlock()
	writeJSON(w, http.StatusOK, paginate(files, p, func(f containerFile) string { return f.ID }))
	return nil
}

// containerFile finds a file of a container, or the 404 OpenAI gives for it.
func (s *Server) containerFile(r *http.Request, c *container) (*containerFile, error) {
	id := r.PathValue("file")
	cf, ok := c.file(id)
	if !ok {
		return nil, &apiError{status: http.StatusNotFound, param: "file_id",
			message: fmt.Sprintf("File %s not found on container %s", id, c.id)}
	}
	return cf, nil
}

func (s *Server) showContainerFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.container(r.PathValue("container"))
	if err != nil {
		return err
	}
	cf, err := s.containerFile(r, c)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, cf)
	return nil
}

// downloadContainerFile reads the file from the live kernel: bytes of an expired container are
// gone, as in the hosted service.
func (s *Server) downloadContainerFile(w http.ResponseWriter, r *http.Request) error {
	if s.faults.take(r, FaultContent500) {
		return errInjected500()
	}
	c, err := s.liveContainer(r.PathValue("container"))
	if err != nil {
		return err
	}
	cf, err := s.containerFile(r, c)
	if err != nil {
		return err
	}
	out := &download{w: w, name: cf.name(), mod: cf.modTime}
	c.ops.Lock()
	_, err = c.kernel.CopyFile(r.Context(), cf.name(), out)
	c.ops.Unlock()
	if err != nil && !out.started {
		s.log.Warn("read container file", "container", c.id, "file", cf.ID, "err", err)
		return &apiError{status: http.StatusNotFound, param: "file_id",
			message: fmt.Sprintf("File %s not found on container %s", cf.ID, c.id)}
	}
	c.touch(s.now())
	if err != nil {
		// The status is sent: ending the response short tells the client.
		s.log.Warn("copy container file", "container", c.id, "file", cf.ID, "err", err)
		panic(http.ErrAbortHandler)
	}
	out.start()
	return nil
}

// download streams a container file to the client: its headers go at the
// first byte, so that a file the kernel cannot read still gets the API's
// error, and the bytes are written as the kernel sends them, never held
// whole.
type download struct {
	w       http.ResponseWriter
	name    string
	mod     time.Time
	started bool
}

// start sends the download's headers, once.
func (d *download) start() {
	if d.started {
		return
	}
	d.started = true
	ctype := mime.TypeByExtension(filepath.Ext(d.name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	d.w.Header().Set("Content-Type", ctype)
	if !d.mod.IsZero() {
		d.w.Header().Set("Last-Modified", d.mod.UTC().Format(http.TimeFormat))
	}
	d.w.WriteHeader(http.StatusOK)
}

func (d *download) Write(p []byte) (int, error) {
	d.start()
	return d.w.Write(p)
}

func (s *Server) deleteContainerFile(w http.ResponseWriter, r *http.Request) error {
	c, err := s.container(r.PathValue("container"))
	if err != nil {
		return err
	}
	cf, err := s.containerFile(r, c)
	if err != nil {
		return err
	}
	if c.alive() {
		c.ops.Lock()
		if err := c.kernel.DeleteFile(r.Context(), cf.name()); err != nil {
			s.log.Warn("delete container file", "container", c.id, "file", cf.ID, "err", err)
		}
		c.ops.Unlock()
	}
	c.mu.Lock()
	for i, f := range c.files {
		if f == cf {
			c.files = append(c.files[:i], c.files[i+1:]...)
			break
		}
	}
	c.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"id": cf.ID, "object": "container.file.deleted", "deleted": true})
	return nil
}
