package handlers

import (
	"crypto/subtle"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/views"
	"github.com/labstack/echo/v4"
)

// uploadFiles receives one or more files (multipart field "file") into a
// conversation. The body is read part by part and each file streamed to the
// blob store, so a 512 MB upload never sits in memory. Every file gets its
// own outcome: one refused file does not lose the others.
func (h *Handler) uploadFiles(c echo.Context) error {
	ctx, userID, convID := c.Request().Context(), currentUser(c).ID, c.Param("id")
	if _, err := h.db.Conversation(ctx, userID, convID); err != nil {
		return err
	}
	mr, err := c.Request().MultipartReader()
	if err != nil {
		return echo.NewHTTPError(http.StatusBadRequest, "Choose a file to upload.")
	}
	var results []views.UploadResult
	csrfOK := c.Get(ctxCSRFChecked) == true
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			results = append(results, views.UploadResult{Error: "The upload was interrupted. Try again."})
			break
		}
		switch part.FormName() {
		case "_csrf":
			csrfOK = csrfOK || h.partTokenValid(c, part)
		case "file":
			if !csrfOK {
				return errForbiddenCSRF
			}
			res := h.saveUpload(c, convID, part)
			h.metrics.uploads.WithLabelValues(map[bool]string{true: "stored", false: "refused"}[res.OK]).Inc()
			results = append(results, res)
		}
		part.Close()
	}
	if len(results) == 0 {
		return echo.NewHTTPError(http.StatusBadRequest, "Choose a file to upload.")
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

func (h *Handler) saveUpload(c echo.Context, convID string, part *multipart.Part) views.UploadResult {
	name := part.FileName()
	up, err := h.chat.Upload(c.Request().Context(), currentUser(c).ID, convID, name, part)
	if msg, ok := userMessage(err); ok {
		return views.UploadResult{Name: name, Error: msg}
	}
	if err != nil {
		h.log.Error("upload", "file", name, "err", err)
		return views.UploadResult{Name: name, Error: "The file could not be stored. Try again; if it keeps failing, tell your administrator."}
	}
	return views.UploadResult{Name: up.File.Name, OK: true}
}

// partTokenValid checks the CSRF token sent as the form's first field, for
// uploads from a plain HTML form, without buffering the files behind it.
func (h *Handler) partTokenValid(c echo.Context, part *multipart.Part) bool {
	b, err := io.ReadAll(io.LimitReader(part, 256))
	want := csrfToken(c)
	return err == nil && want != "" && subtle.ConstantTimeCompare(b, []byte(want)) == 1
}

// filesPanel loads the conversation's files for the page.
func (h *Handler) filesPanel(c echo.Context, convID string) (views.FilesPanel, error) {
	ups, err := h.chat.Files(c.Request().Context(), currentUser(c).ID, convID)
	if err != nil {
		return views.FilesPanel{}, err
	}
	panel := views.FilesPanel{ConversationID: convID}
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
