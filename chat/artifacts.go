package chat

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// MissingFile is a container file that could not be copied out.
type MissingFile struct {
	ContainerID string `json:"container_id"`
	FileID      string `json:"file_id"`
	Name        string `json:"name"`
	CellID      string `json:"cell_id,omitzero"`
}

// ArtifactRef is what an answer knows of a copied-out file.
type ArtifactRef struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	CellID      string `json:"cell_id,omitzero"`
	// Earlier is set on a file an earlier turn made, unchanged, that this
	// answer cites: its links work, but it is not shown as this answer's.
	Earlier bool `json:"earlier,omitzero"`
	// Flaw says the file is empty or not what its name says (CheckGenerated).
	Flaw FileFlaw `json:"flaw,omitzero"`
}

// maxArtifactBytes caps one copied-out file: Foundry's cap on files, which
// files.MaxSize states.
const maxArtifactBytes = files.MaxSize

// copyOutRetries and copyOutBackoff pace retries of a download that failed
// with a server error, or with a 404 right after the file was created (the
// service lists files a moment before it serves them).
var (
	copyOutRetries = 4
	copyOutBackoff = 250 * time.Millisecond
)

// copyOutCall keeps what one code interpreter call made: every file of its
// container that the turn created or changed, and its image outputs unless
// the call saved its charts as PNG files (which are the same charts, with a
// name). A session keeps the files of earlier turns; those that are
// unchanged, by content hash, stay with the turn that made them.
func (r *runner) copyOutCall(ctx context.Context, item *foundry.Item) {
	if item.ContainerID == "" {
		return
	}
	savedPNG := false
	files, err := r.s.client.ContainerFiles(ctx, item.ContainerID)
	if err != nil {
		// Listing is not documented on Foundry; citations still get copied.
		r.s.log.Info("list container files", "container", item.ContainerID, "err", err)
	}
	for _, f := range files {
		// A shown figure's own file (cfile_….png) is the call's image output.
		if f.Source == "user" || foundry.IsFigureFile(f.ID, f.Path) || !r.mayHaveChanged(item.ContainerID, f) {
			continue
		}
		a := r.copyContainerFile(ctx, item.ID, item.ContainerID, f.ID, path.Base(f.Path), false)
		if a != nil && a.ContentType == "image/png" {
			savedPNG = true
		}
	}
	r.savedPNG = r.savedPNG || savedPNG
	for i, o := range item.Outputs {
		if o.Type != "image" {
			continue
		}
		r.figures++
		if !savedPNG {
			r.copyImageOutput(ctx, item.ID, o.URL, fmt.Sprintf("figure-%s-%d.png", shortID(item.ID), i+1))
		}
	}
}

// copyFigure decides about a figure citation (foundry.Citation.IsFigure):
// the hosted service cites each figure a cell showed at 0..0, as a file
// cfile_….png of its own, besides the call's image output and any PNG the
// code saved. It is the same chart, so it is kept only when the turn has
// neither: when the service returned no outputs and nothing was saved.
// It reports whether it dealt with the citation.
func (r *runner) copyFigure(ctx context.Context, c foundry.Citation) bool {
	if !c.IsFigure() {
		return false
	}
	r.shownFigures++
	key := c.ContainerID + "/" + c.FileID
	if r.shownFigures <= r.figures || r.savedPNG || r.tried[key] || c.ContainerID == "" {
		return true
	}
	r.copyContainerFile(ctx, "", c.ContainerID, c.FileID, fmt.Sprintf("figure-%d.png", r.shownFigures), false)
	return true
}

// mayHaveChanged reports whether a listed file is worth downloading to
// compare its hash: any file the turn has not seen yet, or one whose size
// changed since it last did. Within one turn a rewrite of the same size is
// missed; across turns every file is hashed again.
func (r *runner) mayHaveChanged(containerID string, f foundry.ContainerFile) bool {
	key := containerID + "/" + f.ID
	size, seen := r.seen[key]
	r.seen[key] = f.Bytes
	return !seen || size != f.Bytes
}

// copyCitation keeps a cited file, if the listing did not already. A cited
// file an earlier turn made is announced as earlier: the answer links to
// it without showing it as its own.
func (r *runner) copyCitation(ctx context.Context, c foundry.Citation) {
	if r.copyFigure(ctx, c) {
		return
	}
	key := c.ContainerID + "/" + c.FileID
	if rec, ok := r.earlier[key]; ok {
		delete(r.earlier, key)
		r.announce(ctx, rec, true)
		return
	}
	if c.ContainerID == "" || c.FileID == "" || r.tried[key] {
		return
	}
	r.copyContainerFile(ctx, "", c.ContainerID, c.FileID, c.Filename, true)
}

// copyContainerFile downloads one container file into the blob store and
// records it. A file that still fails after the retries is reported in the
// answer rather than failing the turn. It returns the artifact only when
// this turn made it: a version recorded by an earlier turn (same file, same
// content) is announced only if cited, and then as earlier.
func (r *runner) copyContainerFile(ctx context.Context, cellID, containerID, fileID, name string, cited bool) *store.Artifact {
	key := containerID + "/" + fileID
	r.tried[key] = true
	name = safeName(name, fileID)
	room, err := r.keepRoom(ctx)
	if err != nil {
		r.notKept(ctx, name, err)
		return nil
	}
	var sha string
	var size int64
	err = retry(ctx, func() error {
		body, err := r.s.client.ContainerFileContent(ctx, containerID, fileID)
		if err != nil {
			return err
		}
		defer body.Close()
		sha, size, err = r.s.store.Put(ctx, body, room)
		return err
	})
	if r.refusedToKeep(ctx, name, room, err) {
		return nil
	}
	if err != nil {
		r.s.log.Warn("copy out", "container", containerID, "file", fileID, "err", err)
		r.emit(ctx, Event{Type: EventCopyFailed, Missing: &MissingFile{ContainerID: containerID, FileID: fileID, Name: name, CellID: cellID}})
		return nil
	}
	rec := r.recordArtifact(ctx, store.Artifact{CellID: cellID, ContainerID: containerID, ContainerFileID: fileID,
		Name: name, Size: size, SHA256: sha}, cited)
	if rec == nil || rec.RunID != r.run.ID {
		if rec != nil && !cited {
			r.earlier[key] = rec // announced if the answer cites it
		}
		return nil
	}
	delete(r.earlier, key)
	return rec
}

// errQuotaFull says that a generated file would take its owner past the
// storage quota, which uploads and generated files share.
type errQuotaFull struct{ quota int64 }

func (e errQuotaFull) Error() string {
	return "Your storage quota of " + files.HumanSize(e.quota) + " is full (uploads and generated files count alike). " +
		"Delete conversations or files you no longer need, or ask your administrator for more room."
}

// keepRoom is how many bytes a generated file may take: what the user's
// quota leaves, at most maxArtifactBytes. A full quota is an errQuotaFull.
func (r *runner) keepRoom(ctx context.Context) (int64, error) {
	if r.s.quota <= 0 {
		return maxArtifactBytes, nil
	}
	used, err := r.s.db.UploadUsage(ctx, r.userID)
	if err != nil {
		return 0, err
	}
	if used.Bytes >= r.s.quota {
		return 0, errQuotaFull{r.s.quota}
	}
	return min(maxArtifactBytes, r.s.quota-used.Bytes), nil
}

// refusedToKeep tells the answer, and reports, when a file was not stored
// because of the quota (room was the quota's, not the size limit) or the
// disk's floor.
func (r *runner) refusedToKeep(ctx context.Context, name string, room int64, err error) bool {
	switch {
	case errors.Is(err, files.ErrLowDisk):
		r.notKept(ctx, name, err)
	case errors.Is(err, files.ErrTooLarge) && room < maxArtifactBytes:
		r.notKept(ctx, name, errQuotaFull{r.s.quota})
	default:
		return false
	}
	return true
}

// notKept says in the answer that a generated file was not stored, and why.
func (r *runner) notKept(ctx context.Context, name string, why error) {
	r.s.log.Warn("generated file not kept", "name", name, "err", why)
	msg := why.Error()
	var ue *files.UserError
	if errors.As(why, &ue) {
		msg = ue.Msg
	}
	r.notice(ctx, name+" was not kept. "+msg)
}

// copyImageOutput keeps an image output given as a data: URL.
func (r *runner) copyImageOutput(ctx context.Context, cellID, url, name string) {
	data, ok := decodeDataURL(url)
	if !ok {
		return
	}
	room, err := r.keepRoom(ctx)
	if err != nil {
		r.notKept(ctx, name, err)
		return
	}
	sha, size, err := r.s.store.Put(ctx, bytes.NewReader(data), room)
	if r.refusedToKeep(ctx, name, room, err) {
		return
	}
	if err != nil {
		r.s.log.Warn("store image output", "err", err)
		return
	}
	r.recordArtifact(ctx, store.Artifact{CellID: cellID, Name: name, Size: size, SHA256: sha}, false)
}

// recordArtifact records a copied-out file and announces it. The store
// returns the existing row for a version an earlier turn kept; that one is
// announced only when announceEarlier is set, marked as earlier.
func (r *runner) recordArtifact(ctx context.Context, a store.Artifact, announceEarlier bool) *store.Artifact {
	if !r.drawableSpec(ctx, a) {
		return nil
	}
	a.ConversationID, a.RunID = r.convID, r.run.ID
	head := r.head(ctx, a.SHA256)
	a.ContentType, a.Kind = contentType(a.Name, head)
	// An empty or corrupt file is kept as it is (the user may want it), and
	// its flaw goes with it to the answer and the gallery.
	a.Flaw = string(CheckGenerated(a.Name, a.Size, head))
	rec, err := r.s.db.AddArtifact(ctx, a)
	if err != nil {
		r.s.log.Error("record artifact", "err", err)
		return nil
	}
	if rec.RunID == r.run.ID || announceEarlier {
		r.announce(ctx, rec, rec.RunID != r.run.ID)
	}
	return rec
}

// drawableSpec reports whether a is not a chart spec, or one the page may
// draw (CheckVegaLite); the answer says why another is not kept, and its
// PNG stands for the chart.
func (r *runner) drawableSpec(ctx context.Context, a store.Artifact) bool {
	if !strings.HasSuffix(a.Name, VegaLiteExt) {
		return true
	}
	f, err := r.s.store.Open(ctx, a.SHA256)
	if err == nil {
		err = CheckVegaLite(f)
		f.Close()
	}
	if err != nil {
		r.notice(ctx, "The chart spec "+a.Name+" is not kept: a chart is drawn only from Vega-Lite with its data inline, and "+err.Error()+".")
		return false
	}
	return true
}

// announce tells the answer of a kept file; earlier marks one an earlier
// turn made, which the answer links to without showing it as its own.
func (r *runner) announce(ctx context.Context, rec *store.Artifact, earlier bool) {
	for _, a := range r.answer.Artifacts {
		if a.ID == rec.ID {
			return // announced already: by the replica this run was adopted from
		}
	}
	r.emit(ctx, Event{Type: EventArtifact, Artifact: &ArtifactRef{ID: rec.ID, Name: rec.Name, Kind: rec.Kind,
		ContentType: rec.ContentType, Size: rec.Size, CellID: rec.CellID, Earlier: earlier, Flaw: FileFlaw(rec.Flaw)}})
}

// retry runs f until it succeeds, fails with an error not worth retrying,
// or the retries run out.
func retry(ctx context.Context, f func() error) error {
	var err error
	for i := 0; i <= copyOutRetries; i++ {
		if err = f(); err == nil || !retryable(err) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(copyOutBackoff << i):
		}
	}
	return err
}

func retryable(err error) bool {
	var api *foundry.APIError
	return errors.As(err, &api) && (api.StatusCode >= 500 || api.StatusCode == http.StatusNotFound || api.StatusCode == http.StatusTooManyRequests)
}

// safeName keeps the last element of a name the sandbox chose, so that no
// name can point outside where it is stored or shown.
func safeName(name, fallback string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if name == "." || name == "/" || name == ".." || strings.TrimSpace(name) == "" {
		return fallback
	}
	return name
}

// contentType decides the stored type from the name, checked against the
// first bytes: only real PNG, JPEG, GIF or WebP images count as images.
func contentType(name string, head []byte) (string, string) {
	ct := mime.TypeByExtension(strings.ToLower(path.Ext(name)))
	if ct == "" {
		ct = "application/octet-stream"
	}
	ct, _, _ = mime.ParseMediaType(ct)
	if strings.HasPrefix(ct, "image/") {
		sniffed := http.DetectContentType(head)
		switch sniffed {
		case "image/png", "image/jpeg", "image/gif", "image/webp":
			return sniffed, store.ArtifactImage
		}
		if ct == "image/svg+xml" {
			return ct, store.ArtifactFile
		}
		return "application/octet-stream", store.ArtifactFile
	}
	return ct, store.ArtifactFile
}

// head reads the first bytes of a stored blob, what CheckGenerated looks
// at (http.DetectContentType reads the first 512 of them): one ranged
// read, wherever the blob is. An unreadable blob has no head, and so is no
// image.
func (r *runner) head(ctx context.Context, sha string) []byte {
	f, err := r.s.store.Open(ctx, sha)
	if err != nil {
		return nil
	}
	defer f.Close()
	head := make([]byte, files.HeadSize)
	n, _ := f.ReadAt(head, 0)
	return head[:n]
}

func decodeDataURL(url string) ([]byte, bool) {
	meta, data, ok := strings.Cut(url, ",")
	if !ok || !strings.HasPrefix(meta, "data:image/") || !strings.HasSuffix(meta, ";base64") {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(data)
	return b, err == nil && len(b) > 0
}

func shortID(id string) string {
	id = strings.TrimPrefix(strings.TrimPrefix(id, "ci_"), "call_")
	if len(id) > 6 {
		return id[:6]
	}
	return id
}
