package emulator

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// fileObject is the File object of foundry-api.md §3.
type fileObject struct {
	ID            string  `json:"id"`
	Object        string  `json:"object"`
	Bytes         int64   `json:"bytes"`
	CreatedAt     int64   `json:"created_at"`
	Filename      string  `json:"filename"`
	Purpose       string  `json:"purpose"`
	Status        string  `json:"status"`
	ExpiresAt     *int64  `json:"expires_at"`
	StatusDetails *string `json:"status_details"`
}

// codeInterpreterExtensions are the types of the "Supported file types" table of the Code
// Interpreter article (MicrosoftDocs/azure-ai-docs, articles/foundry/agents/how-to/tools/
// code-interpreter.md, ms.date 2026-04-03).
const codeInterpreterExtensions = `.c .cpp .csv .docx .html .java .json .md .pdf .php .pptx .py .rb .tex .txt
	.css .jpeg .jpg .js .gif .png .tar .ts .xlsx .xml .zip`

// toleratedExtensions are not in that table but are accepted all the same: .tsv, .xls and
// .parquet hold data the sandbox's pandas reads, and .cs, .doc and .sh were in the classic
// agents' list. What the hosted service does with an unlisted type is UNCONFIRMED: the article's
// troubleshooting says only that an upload "fails" for an "unsupported file type", not whether
// the upload or the tool refuses it. The emulator is liberal: it accepts these, so that what the
// user sees of them is the app's own warning, and refuses only a name with no extension or with
// one of no known type, which nothing could read as meant.
const toleratedExtensions = `.tsv .xls .parquet .cs .doc .sh`

// supportedExtensions are the extensions an upload may have.
var supportedExtensions = func() map[string]bool {
	m := map[string]bool{}
	for _, ext := range strings.Fields(codeInterpreterExtensions + " " + toleratedExtensions) {
		m[ext] = true
	}
	return m
}()

// SupportedExtensions lists the file extensions an upload may have, sorted.
func SupportedExtensions() []string {
	exts := make([]string, 0, len(supportedExtensions))
	for ext := range supportedExtensions {
		exts = append(exts, ext)
	}
	sort.Strings(exts)
	return exts
}

// uploadFile streams the multipart part "file" to disk, never holding it in memory, and
// records it.
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) error {
	// The body limit is a backstop for a client that lies about part sizes; the precise check
	// is on the file part. The slack covers the other parts and the multipart framing.
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxFileSize+1<<20)
	mr, err := r.MultipartReader()
	if err != nil {
		return errBadRequest("file", "Expected a multipart/form-data body with a 'file' part: %v.", err)
	}
	f := fileObject{ID: newID("file-"), Object: "file", CreatedAt: s.now().Unix(), Status: "processed"}
	tmp, err := s.readUpload(mr, &f)
	if tmp != "" {
		defer os.Remove(tmp) // a no-op once renamed
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, s.filePath(f.ID)); err != nil {
		return err
	}
	if err := putObject(r.Context(), s.st.db, "files", f.ID, f); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, f)
	return nil
}

// readUpload reads the parts of an upload into f and spools the file to a temporary file, whose
// path it returns for the caller to move or remove. Parts may come in any order, so purpose is
// checked after the file is read.
func (s *Server) readUpload(mr *multipart.Reader, f *fileObject) (tmp string, err error) {
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return tmp, s.uploadError(err)
		}
		switch part.FormName() {
		case "file":
			if tmp != "" {
				return tmp, errBadRequest("file", "Only one 'file' part is allowed.")
			}
			f.Filename = filepath.Base(part.FileName())
			if err := checkFileType(f.Filename); err != nil {
				return tmp, err
			}
			if tmp, f.Bytes, err = s.spool(part); err != nil {
				return tmp, s.uploadError(err)
			}
		case "purpose":
			f.Purpose = readSmallPart(part)
		default: // expires_after[…] and unknown fields: accepted and ignored
			readSmallPart(part)
		}
	}
	if tmp == "" {
		return "", errBadRequest("file", "Missing required parameter: 'file'.")
	}
	return tmp, checkPurpose(f.Purpose)
}

// uploadPurpose is the only purpose a file for Code Interpreter may have.
const uploadPurpose = "assistants"

// checkPurpose refuses an upload whose purpose is missing or not "assistants", as the Code
// Interpreter article's troubleshooting says an upload "with the wrong purpose" fails. The hosted
// service takes other purposes for other features (batch, fine-tuning), which this engine does
// not have; its code and wording for a wrong one are UNCONFIRMED (OpenAI's enum refusal is
// "invalid_value").
func checkPurpose(purpose string) error {
	switch purpose {
	case uploadPurpose:
		return nil
	case "":
		return errBadRequest("purpose", "Missing required parameter: 'purpose'.")
	}
	return &apiError{status: http.StatusBadRequest, code: "invalid_value", param: "purpose",
		message: fmt.Sprintf("Invalid value for 'purpose': %q. Files for Code Interpreter are uploaded with purpose 'assistants'.", purpose)}
}

// errFileTooLarge marks an upload over MaxFileSize.
var errFileTooLarge = errors.New("file too large")

// spool copies a part into a temporary file of the files directory, stopping one byte past the
// limit so an oversized upload is detected without being stored.
func (s *Server) spool(part *multipart.Part) (path string, n int64, err error) {
	out, err := os.CreateTemp(s.filesDir, "upload-*")
	if err != nil {
		return "", 0, err
	}
	path = out.Name()
	n, err = io.Copy(out, io.LimitReader(part, s.cfg.MaxFileSize+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > s.cfg.MaxFileSize {
		err = errFileTooLarge
	}
	if err != nil {
		os.Remove(path)
		return "", 0, err
	}
	return path, n, nil
}

func (s *Server) uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.Is(err, errFileTooLarge) || errors.As(err, &tooBig) {
		return &apiError{status: http.StatusBadRequest, code: "file_size_exceeded", param: "file",
			message: fmt.Sprintf("File is too large: the limit is %d bytes.", s.cfg.MaxFileSize)}
	}
	return errBadRequest("file", "Could not read the upload: %v.", err)
}

// checkFileType refuses a name with no extension, or one of no supported type
// (supportedExtensions).
func checkFileType(name string) error {
	if name == "" || name == "." {
		return errBadRequest("file", "The 'file' part needs a filename.")
	}
	if !supportedExtensions[strings.ToLower(filepath.Ext(name))] {
		return &apiError{status: http.StatusBadRequest, code: "unsupported_file", param: "file",
			message: fmt.Sprintf("Invalid file format for %q. Supported formats: %s.", name,
				strings.Join(SupportedExtensions(), ", "))}
	}
	return nil
}

// readSmallPart reads a form field, keeping at most 4 KiB of it.
func readSmallPart(part *multipart.Part) string {
	data, _ := io.ReadAll(io.LimitReader(part, 4096))
	return strings.TrimSpace(string(data))
}

func (s *Server) filePath(id string) string { return filepath.Join(s.filesDir, filepath.Base(id)) }

// file loads a file's metadata or returns the 404 of the API.
func (s *Server) file(r *http.Request, id string) (fileObject, error) {
	var f fileObject
	err := getObject(r.Context(), s.st.db, "files", id, &f)
	if errors.Is(err, errNoRow) {
		return f, &apiError{status: http.StatusNotFound, param: "file_id",
			message: fmt.Sprintf("No such File object: %s", id)}
	}
	return f, err
}

// fileByID loads a file's metadata outside a request.
func (s *Server) fileByID(ctx context.Context, id string) (fileObject, error) {
	var f fileObject
	err := getObject(ctx, s.st.db, "files", id, &f)
	return f, err
}

func (s *Server) showFile(w http.ResponseWriter, r *http.Request) error {
	f, err := s.file(r, r.PathValue("file"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, f)
	return nil
}

func (s *Server) listFiles(w http.ResponseWriter, r *http.Request) error {
	p, err := parsePageQuery(r, true)
	if err != nil {
		return err
	}
	if r.URL.Query().Get("limit") == "" {
		p.limit = maxLimit // OpenAI lists every file unless asked to page
	}
	files, err := listObjects[fileObject](r.Context(), s.st.db, `SELECT body FROM files ORDER BY seq`)
	if err != nil {
		return err
	}
	if purpose := r.URL.Query().Get("purpose"); purpose != "" {
		kept := files[:0]
		for _, f := range files {
			if f.Purpose == purpose {
				kept = append(kept, f)
			}
		}
		files = kept
	}
	writeJSON(w, http.StatusOK, paginate(files, p, func(f fileObject) string { return f.ID }))
	return nil
}

func (s *Server) downloadFile(w http.ResponseWriter, r *http.Request) error {
	f, err := s.file(r, r.PathValue("file"))
	if err != nil {
		return err
	}
	content, err := os.Open(s.filePath(f.ID))
	if err != nil {
		return err
	}
	defer content.Close()
	serveBytes(w, r, f.Filename, time.Unix(f.CreatedAt, 0), content)
	return nil
}

// serveBytes sends content with a type guessed from the name (ranges and HEAD included).
func serveBytes(w http.ResponseWriter, r *http.Request, name string, mod time.Time, content io.ReadSeeker) {
	ctype := mime.TypeByExtension(filepath.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ctype)
	http.ServeContent(w, r, name, mod, content)
}

func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) error {
	f, err := s.file(r, r.PathValue("file"))
	if err != nil {
		return err
	}
	if err := deleteObject(r.Context(), s.st.db, "files", f.ID); err != nil && !errors.Is(err, errNoRow) {
		return err
	}
	if err := os.Remove(s.filePath(f.ID)); err != nil && !errors.Is(err, os.ErrNotExist) {
		s.log.Warn("delete file content", "file", f.ID, "err", err)
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": f.ID, "object": "file", "deleted": true})
	return nil
}
