package handlers

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/exports"
	"github.com/analyst-workbench/workbench/notebook"
	"github.com/analyst-workbench/workbench/report"
	"github.com/analyst-workbench/workbench/static"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/thumbs"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// inlineTypes may be shown on our origin; everything else is only ever an
// attachment, so an HTML or SVG file the agent made can never run here.
var inlineTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/gif": true, "image/webp": true}

// downloadArtifact serves a generated file to its conversation's owner or
// an admin; anyone else gets the same 404 as for a missing file.
func (h *Handler) downloadArtifact(c echo.Context) error {
	a, err := h.visibleArtifact(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=3600")
	return h.serveBlob(c, a.SHA256, a.ContentType, a.Name, a.CreatedAt, c.QueryParam("inline") == "1")
}

// serveBlob sends stored bytes under the Cache-Control already set: a
// generated file to its owner, and generated and uploaded files through a
// share. Only images are ever shown inline (inlineTypes).
func (h *Handler) serveBlob(c echo.Context, sha, contentType, name string, modified time.Time, inline bool) error {
	f, err := h.chat.OpenBlob(c.Request().Context(), sha)
	if errors.Is(err, fs.ErrNotExist) {
		return echo.NewHTTPError(http.StatusNotFound, "This file has been deleted.")
	}
	if err != nil {
		return err
	}
	defer f.Close()
	inline = inline && inlineTypes[contentType]
	hdr := c.Response().Header()
	hdr.Set("Content-Type", contentType)
	hdr.Set("X-Content-Type-Options", "nosniff")
	// Even if a browser ignored the disposition, the file runs nothing.
	hdr.Set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox")
	hdr.Set("Content-Disposition", contentDisposition(inline, name))
	http.ServeContent(c.Response(), c.Request(), "", modified, f)
	return nil
}

// contentDisposition names the file for the browser (RFC 6266): an ASCII
// fallback in filename, and, when that had to change the name, the exact
// name in filename* (RFC 8187). The fallback replaces quotes, backslashes,
// semicolons, percent signs, controls and non-ASCII, so it needs no
// escaping a browser could read differently, and even a parser that splits
// at every ";" finds one filename= only.
func contentDisposition(inline bool, name string) string {
	kind := "attachment"
	if inline {
		kind = "inline"
	}
	fallback := strings.Map(func(r rune) rune {
		if r > unicode.MaxASCII || r < 0x20 || r == 0x7f || strings.ContainsRune("\"\\/%;", r) {
			return '_'
		}
		return r
	}, name)
	v := mime.FormatMediaType(kind, map[string]string{"filename": fallback})
	if v == "" {
		return kind
	}
	if fallback != name {
		v += "; filename*=UTF-8''" + encodeExtValue(strings.ToValidUTF8(name, "_"))
	}
	return v
}

// encodeExtValue percent-encodes s as an RFC 8187 value: every byte but
// the attr-chars.
func encodeExtValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isAttrChar(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

func isAttrChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0
}

// showGallery shows every chart of a conversation and lists its other
// generated files.
func (h *Handler) showGallery(c echo.Context) error {
	conv, arts, err := h.conversationArtifacts(c)
	if err != nil {
		return err
	}
	turns, err := h.db.Turns(c.Request().Context(), conv.ID)
	if err != nil {
		return err
	}
	questions := map[string]string{}
	for _, t := range turns {
		questions[t.Run.ID] = caption(t.Message)
	}
	g := views.Gallery{Conversation: conversationView(conv)}
	twins := chartTwins(arts)
	for _, a := range arts {
		if twins[a.ID] {
			continue
		}
		item := views.GalleryItem{ID: a.ID, Name: a.Name, Size: a.Size, ContentType: a.ContentType, RunID: a.RunID,
			CellID: a.CellID, Question: questions[a.RunID], CreatedAt: a.CreatedAt, Flaw: fileFlaw(chat.FileFlaw(a.Flaw))}
		if a.Kind == store.ArtifactImage {
			g.Charts = append(g.Charts, item)
		} else {
			g.Files = append(g.Files, item)
		}
	}
	p, err := h.userPage(c, "Gallery · "+conv.Title, conv.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.GalleryPage(p, g))
}

// caption names the user message that made a chart: the question, or for
// a step who edited the code.
func caption(m *store.Message) string {
	if m.Kind == store.KindStep {
		return "Edited by " + m.Author
	}
	return m.Content
}

// downloadChartsZip streams every chart of a conversation as one zip file,
// written as it is read so memory stays flat however many charts there are.
func (h *Handler) downloadChartsZip(c echo.Context) error {
	conv, arts, err := h.conversationArtifacts(c)
	if err != nil {
		return err
	}
	hdr := c.Response().Header()
	hdr.Set("Content-Type", "application/zip")
	hdr.Set("Content-Disposition", contentDisposition(false, slug(conv.Title)+"-charts.zip"))
	c.Response().WriteHeader(http.StatusOK)
	zw := zip.NewWriter(c.Response())
	used := map[string]int{}
	for _, a := range arts {
		if a.Kind != store.ArtifactImage {
			continue
		}
		if err := h.addToZip(c.Request().Context(), zw, a, used); err != nil {
			// The status is sent; a truncated zip is what the client sees.
			h.log.Error("charts zip", "artifact", a.ID, "err", err)
			return nil
		}
	}
	return zw.Close()
}

func (h *Handler) addToZip(ctx context.Context, zw *zip.Writer, a *store.Artifact, used map[string]int) error {
	f, err := h.chat.OpenBlob(ctx, a.SHA256)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // purged meanwhile: leave it out
	}
	if err != nil {
		return err
	}
	defer f.Close()
	// PNGs are compressed already; storing them is faster and no larger.
	w, err := zw.CreateHeader(&zip.FileHeader{Name: uniqueName(used, a.Name), Method: zip.Store, Modified: a.CreatedAt})
	if err != nil {
		return err
	}
	_, err = io.Copy(w, f)
	return err
}

// uniqueName numbers repeated names: chart.png, chart (2).png.
func uniqueName(used map[string]int, name string) string {
	used[name]++
	if n := used[name]; n > 1 {
		ext := path.Ext(name)
		return strings.TrimSuffix(name, ext) + " (" + strconv.Itoa(n) + ")" + ext
	}
	return name
}

// conversationArtifacts loads the user's conversation named in the path and
// its artifacts; another user's conversation is not found.
func (h *Handler) conversationArtifacts(c echo.Context) (*store.Conversation, []*store.Artifact, error) {
	ctx, userID := c.Request().Context(), currentUser(c).ID
	conv, err := h.db.Conversation(ctx, userID, c.Param("id"))
	if err != nil {
		return nil, nil, err
	}
	arts, err := h.db.Artifacts(ctx, userID, conv.ID)
	return conv, arts, err
}

// exportFormat is one form a conversation downloads in. The three are
// written from the one gathering of the conversation (chat.Service.Report).
type exportFormat struct {
	ext, contentType string
	// policy is the download's Content-Security-Policy, if it needs one.
	policy string
	write  func(w io.Writer, r report.Report, name string) error
}

// The forms of export: a Jupyter notebook; a zip of a Markdown file and
// the charts it shows; one HTML page to read offline or send by e-mail,
// served with a policy that lets it run and load nothing, even if a
// browser shows it here.
var (
	notebookExport = exportFormat{ext: ".ipynb", contentType: "application/x-ipynb+json",
		write: func(w io.Writer, r report.Report, _ string) error { return notebook.Write(w, exports.Notebook(r)) }}
	markdownExport = exportFormat{ext: ".zip", contentType: "application/zip",
		write: func(w io.Writer, r report.Report, name string) error {
			return report.WriteMarkdownZip(w, r, name+".md")
		}}
	htmlExport = exportFormat{ext: ".html", contentType: "text/html; charset=utf-8", policy: report.CSP,
		write: func(w io.Writer, r report.Report, _ string) error {
			return report.WriteHTML(w, r, report.DefaultMaxHTML)
		}}
)

// export returns the handler that downloads the conversation, or the steps
// chosen, as f.
func (h *Handler) export(f exportFormat) echo.HandlerFunc {
	return func(c echo.Context) error {
		steps, err := exportSteps(c)
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		x, err := h.chat.Export(ctx, currentUser(c).ID, c.Param("id"), steps)
		if err != nil {
			return exportError(err)
		}
		r := exports.Report(x, func(sha string) (io.ReadCloser, error) { return h.chat.OpenBlob(ctx, sha) })
		name := slug(r.Title)
		var buf bytes.Buffer
		if err := f.write(&buf, r, name); err != nil {
			return err
		}
		hdr := c.Response().Header()
		hdr.Set("Content-Disposition", contentDisposition(false, name+f.ext))
		if f.policy != "" {
			hdr.Set("Content-Security-Policy", f.policy)
		}
		hdr.Set("X-Content-Type-Options", "nosniff")
		return c.Blob(http.StatusOK, f.contentType, buf.Bytes())
	}
}

// exportError tells the user which chosen step the conversation does not
// have; other errors go on to the error handler.
func exportError(err error) error {
	var se *chat.StepError
	if errors.As(err, &se) {
		return echo.NewHTTPError(http.StatusBadRequest, se.UserMessage())
	}
	return err
}

// maxExportSteps bounds the step ids one export request may name.
const maxExportSteps = 1000

// exportSteps reads the steps to export: repeated step=<run id> (the
// export page's checkboxes) and steps=<id>,<id> (a link), in order, each
// once. None means the whole conversation, unless the export page sent
// them (chosen=1) with every box unticked.
func exportSteps(c echo.Context) ([]string, error) {
	q := c.QueryParams()
	ids := q["step"]
	for _, list := range q["steps"] {
		ids = append(ids, strings.Split(list, ",")...)
	}
	var out []string
	for _, id := range ids {
		if id = strings.TrimSpace(id); id != "" && !slices.Contains(out, id) && len(out) < maxExportSteps {
			out = append(out, id)
		}
	}
	if len(out) == 0 && q.Get("chosen") != "" {
		return nil, echo.NewHTTPError(http.StatusBadRequest, "Tick at least one step to export, then choose the format again.")
	}
	return out, nil
}

// showExport offers the steps of a conversation for export, each ticked.
func (h *Handler) showExport(c echo.Context) error {
	conv, turns, err := h.conversationTurns(c)
	if err != nil {
		return err
	}
	e := views.ExportChoice{Conversation: conversationView(conv)}
	for i, t := range turns {
		label := report.Heading(t.Message.Content)
		if t.Message.Kind == store.KindStep {
			label = caption(t.Message)
		}
		e.Steps = append(e.Steps, views.ExportStep{RunID: t.Run.ID, N: i + 1, Question: label, Asked: t.Message.CreatedAt})
	}
	p, err := h.userPage(c, "Export · "+conv.Title, conv.ID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExportPage(p, e))
}

// showThumbnail serves a chart's cached thumbnail; a source that is not a
// usable image gets the placeholder instead of an error.
func (h *Handler) showThumbnail(c echo.Context) error {
	a, err := h.visibleArtifact(c)
	if err != nil {
		return err
	}
	path, err := h.thumbs.Thumbnail(a.SHA256, func() (io.ReadCloser, error) { return h.chat.OpenBlob(c.Request().Context(), a.SHA256) })
	if errors.Is(err, thumbs.ErrNotImage) || errors.Is(err, fs.ErrNotExist) {
		return c.Redirect(http.StatusFound, static.URL("img/no-preview.svg"))
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "private, max-age=86400")
	c.Response().Header().Set("X-Content-Type-Options", "nosniff")
	return c.File(path)
}

// visibleArtifact loads the artifact named in the path if the user owns its
// conversation or is an admin; anyone else gets the same 404 as for a
// missing one.
func (h *Handler) visibleArtifact(c echo.Context) (*store.Artifact, error) {
	u := currentUser(c)
	a, err := h.db.Artifact(c.Request().Context(), c.Param("id"))
	if err != nil {
		return nil, err
	}
	if a.UserID != u.ID && !u.IsAdmin() {
		return nil, store.ErrNotFound
	}
	return a, nil
}
