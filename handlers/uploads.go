package handlers

import (
	"io"
	"mime/multipart"
	"net/http"
	"strconv"

	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// ctxUploadParts holds an upload's multipart reader, positioned after the
// CSRF token when the form carried it.
const ctxUploadParts = "upload_parts"

// uploadBodyLimit caps an upload request: as many files as one request
// may carry, each of the largest size, and room for the form's fields.
var uploadBodyLimit = strconv.FormatInt(chat.MaxFilesPerRequest*files.MaxSize+1<<20, 10)

// uploadMiddleware is the upload route's own chain, in place of the form
// routes' (a 1 MB body limit and checkCSRF, which reads the form): its own
// body limit, the session, the upload CSRF check, set-up and sign-in.
func (h *Handler) uploadMiddleware() []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{
		middleware.BodyLimit(uploadBodyLimit),
		h.loadSession, h.checkUploadCSRF, h.requireSetup, h.requireUser,
	}
}

// checkUploadCSRF is checkCSRF for uploads, whose bodies must not be
// buffered to read a form field. The token comes in the X-CSRF-Token
// header (the upload script, htmx) or as the multipart form's first field
// (a plain HTML form, whose hidden _csrf field comes first). Either way the
// handler gets the multipart reader after the token (uploadParts), so no
// file is read before the token is checked.
func (h *Handler) checkUploadCSRF(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			return errForbiddenCSRF
		}
		header := r.Header.Get("X-CSRF-Token")
		if header != "" && !tokenValid(c, []byte(header)) {
			return errForbiddenCSRF
		}
		mr, err := r.MultipartReader()
		switch {
		case err != nil && header == "":
			return errForbiddenCSRF
		case err != nil:
			return echo.NewHTTPError(http.StatusBadRequest, "Choose a file to upload.")
		case header == "" && !h.firstPartToken(c, mr):
			return errForbiddenCSRF
		}
		c.Set(ctxUploadParts, mr)
		return next(c)
	}
}

// firstPartToken reports whether the form's first part is a valid _csrf.
func (h *Handler) firstPartToken(c echo.Context, mr *multipart.Reader) bool {
	part, err := mr.NextPart()
	if err != nil {
		return false
	}
	defer part.Close()
	return part.FormName() == "_csrf" && h.partTokenValid(c, part)
}

// partTokenValid checks the CSRF token sent as a form part, without
// reading more than a token's length of it.
func (h *Handler) partTokenValid(c echo.Context, part *multipart.Part) bool {
	b, err := io.ReadAll(io.LimitReader(part, 256))
	return err == nil && tokenValid(c, b)
}

// uploadParts is the multipart reader checkUploadCSRF left for the handler.
func uploadParts(c echo.Context) *multipart.Reader {
	return c.Get(ctxUploadParts).(*multipart.Reader)
}
