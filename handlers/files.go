package handlers

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// uploadFiles receives one or more files (multipart field "file") into a
// conversation. The body is read part by part and each file streamed to
// disk, so a 512 MB upload never sits in memory. A file refused on its own
// (its type, its size, a zip bomb) gets its own message and the others go
// on; a request refused as a whole (too many files, over the quota, cut
// off) stores nothing. The CSRF token was checked by checkUploadCSRF.
func (h *Handler) uploadFiles(c echo.Context) error {
	convID := c.Param("id")
	batch, err := h.chat.NewBatch(c.Request().Context(), currentUser(c).ID, convID)
	if err != nil {
		return err
	}
	defer batch.Discard()
	results, err := h.receiveFiles(c, batch)
	if err != nil {
		return err
	}
	for _, o := range batch.Commit(c.Request().Context()) {
		results = append(results, h.uploadResult(o.Name, o.Err))
	}
	if len(results) == 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "Choose a file to upload.")
	}
	for _, r := range results {
		h.metrics.uploads.WithLabelValues(map[bool]string{true: "stored", false: "refused"}[r.OK]).Inc()
	}
	if isNavigation(c) {
		return redirect(c, "/conversations/"+convID)
	}
	panel, err := h.filesPanel(c, convID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.UploadAnswer(panel, results, csrfToken(c)))
}

// receiveFiles adds the request's file parts to batch. It returns the
// refusals of single files, or the error that refuses the whole request.
func (h *Handler) receiveFiles(c echo.Context, batch *chat.Batch) ([]views.UploadResult, error) {
	mr := uploadParts(c)
	var refused []views.UploadResult
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return refused, nil
		}
		if err != nil {
			return nil, h.bodyError(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		body := &readErrors{r: part}
		err = batch.Add(part.FileName(), body)
		part.Close()
		var limit *chat.LimitError
		switch {
		case errors.As(err, &limit):
			return nil, echo.NewHTTPError(http.StatusRequestEntityTooLarge, limit.Msg).SetInternal(err)
		case body.err != nil:
			return nil, h.bodyError(body.err)
		case err != nil:
			refused = append(refused, h.uploadResult(part.FileName(), err))
		}
	}
}

// uploadResult is what the page says of one file.
func (h *Handler) uploadResult(name string, err error) views.UploadResult {
	name = files.ShortName(name)
	if msg, ok := userMessage(err); ok {
		return views.UploadResult{Name: name, Error: msg}
	}
	if err != nil {
		h.log.Error("upload", "file", name, "err", err)
		return views.UploadResult{Name: name, Error: "The file could not be stored. Try again; if it keeps failing, tell your administrator."}
	}
	return views.UploadResult{Name: name, OK: true, Notice: files.UploadNotice(name, h.engine.Local)}
}

// readErrors remembers the error of a failed read, to tell a body cut off
// from a file refused.
type readErrors struct {
	r   io.Reader
	err error
}

func (r *readErrors) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		r.err = err
	}
	return n, err
}

// bodyError turns a failure to read an upload's body into what the user
// is told: it stalled, it was too large, or it was cut off.
func (h *Handler) bodyError(err error) error {
	switch {
	case errors.Is(err, errBodyIdle):
		return echo.NewHTTPError(http.StatusRequestTimeout, fmt.Sprintf("The upload stalled: nothing arrived for %s. "+
			"Nothing was stored. Check your connection and upload the file again.", spellDuration(h.bodyIdle))).SetInternal(err)
	case errors.Is(err, echo.ErrStatusRequestEntityTooLarge):
		return echo.NewHTTPError(http.StatusRequestEntityTooLarge, fmt.Sprintf("This upload is larger than one upload may be "+
			"(%d files of %s). Nothing was stored: upload the files in smaller groups.", chat.MaxFilesPerRequest, files.HumanSize(files.MaxSize))).SetInternal(err)
	}
	return echo.NewHTTPError(http.StatusBadRequest, "The upload was interrupted before it was complete. Nothing was stored: upload the file again.").SetInternal(err)
}

// spellDuration writes d for people: "1 minute", "90 seconds".
func spellDuration(d time.Duration) string {
	n, unit := int(d.Round(time.Second)/time.Second), "second"
	if n >= 60 && n%60 == 0 {
		n, unit = n/60, "minute"
	}
	if n != 1 {
		unit += "s"
	}
	return fmt.Sprintf("%d %s", n, unit)
}

// filesPanel loads the conversation's files for the page.
func (h *Handler) filesPanel(c echo.Context, convID string) (views.FilesPanel, error) {
	ups, err := h.chat.Files(c.Request().Context(), currentUser(c).ID, convID)
	if err != nil {
		return views.FilesPanel{}, err
	}
	panel := views.FilesPanel{ConversationID: convID, MaxBytes: h.chat.MaxUpload()}
	for _, u := range ups {
		panel.Files = append(panel.Files, fileView(u))
	}
	return panel, nil
}

func fileView(u chat.Uploaded) views.FileCard {
	card := views.FileCard{ID: u.File.ID, Name: u.File.Name, Size: u.File.Size, Type: u.File.ContentType}
	if p := u.Profile; p != nil {
		card.Rows, card.RowsExact, card.Problems = p.Rows, p.RowsExact, p.Problems
		card.Format, card.Delimiter, card.Encoding, card.Sheets = p.Format, p.Delimiter, p.Encoding, p.Sheets
		for _, col := range p.Columns {
			card.Columns = append(card.Columns, views.FileColumn{Name: col.Name, Type: col.Type, MissingPct: col.MissingPct})
		}
		card.Sample = p.Sample
	}
	return card
}

// removeFile removes an uploaded file from the conversation through the
// purge path (here and in Foundry); htmx gets the refreshed panel, chips
// and count, a plain form a redirect back.
func (h *Handler) removeFile(c echo.Context) error {
	convID := c.Param("id")
	if _, err := h.purge.RemoveFile(c.Request().Context(), currentUser(c).ID, convID, c.Param("file")); err != nil {
		return err
	}
	if !isHTMX(c) {
		return redirect(c, "/conversations/"+convID)
	}
	panel, err := h.filesPanel(c, convID)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.FilesChanged(panel, csrfToken(c)))
}
