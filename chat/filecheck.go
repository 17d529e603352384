package chat

import (
	"bytes"
	"errors"
	"net/http"
	"path"
	"strings"

	"github.com/analyst-workbench/workbench/files"
)

// FileFlaw is what the bytes of a generated file say is wrong with it: the
// code that wrote it failed or stopped half-way ("generated file is corrupt
// or empty"). A flawed file is kept all the same, since the user may still
// want it; the answer and the gallery name the flaw.
type FileFlaw string

// The flaws a generated file may have.
const (
	// FileSound is a file with nothing found wrong, or of a type with no
	// signature to check it against.
	FileSound FileFlaw = ""
	// FileEmpty is a file of 0 bytes.
	FileEmpty FileFlaw = "empty"
	// FileNotType is a file of a binary type (PNG, PDF, Excel ...) whose
	// bytes do not start as that type's do.
	FileNotType FileFlaw = "not_type"
	// FileNotText is a file of a text type (CSV, JSON ...) that holds
	// binary data.
	FileNotText FileFlaw = "not_text"
)

// CheckGenerated decides whether a generated file called name, of size
// bytes starting with head (up to files.HeadSize of them), is what its name
// says. The signatures and the test for text are the upload check's
// (files.Check), so a file the code wrote is held to what an upload of the
// same name would be.
func CheckGenerated(name string, size int64, head []byte) FileFlaw {
	if size == 0 {
		return FileEmpty
	}
	if otherImage(name, head) {
		return FileSound // a viewer opens an image by its bytes, whatever its extension
	}
	if flaw, ok := checkExtra(name, head); ok {
		return flaw
	}
	_, err := files.Check(name, head)
	switch {
	case err == nil:
		return FileSound
	case errors.Is(err, files.ErrMismatch), errors.Is(err, files.ErrExecutable):
		if expectsText(name) {
			return FileNotText
		}
		return FileNotType
	}
	return FileSound // no extension, or a type the upload check does not know
}

// expectsText reports whether files of this name hold text: the upload
// check accepts plain text under it. Asking files.Check, rather than
// keeping a second list of text types, keeps the two checks in step.
func expectsText(name string) bool {
	_, err := files.Check(name, []byte("text\n"))
	return err == nil
}

// otherImage reports a real image named as an image of another type (a PNG
// saved as chart.jpg): every viewer shows it, so it is not called corrupt.
func otherImage(name string, head []byte) bool {
	ct := http.DetectContentType(head)
	return isImageExt(name) && strings.HasPrefix(ct, "image/") && ct != "image/svg+xml"
}

func isImageExt(name string) bool {
	switch strings.ToLower(path.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".gif", ".webp":
		return true
	}
	return false
}

// extraSignatures are types code often writes that uploads do not accept,
// so files.Check does not know them; "" marks a text type.
var extraSignatures = map[string]string{
	".svg":  "",          // XML
	".webp": "RIFF",      // then the size, then WEBP
	".bmp":  "BM",        // Windows bitmap
	".gz":   "\x1f\x8b",  // gzip
	".npy":  "\x93NUMPY", // numpy.save
}

// checkExtra checks a file of a type in extraSignatures; ok is false for
// any other type.
func checkExtra(name string, head []byte) (flaw FileFlaw, ok bool) {
	magic, ok := extraSignatures[strings.ToLower(path.Ext(name))]
	switch {
	case !ok:
		return FileSound, false
	case magic == "" && !strings.HasPrefix(http.DetectContentType(head), "text/"):
		return FileNotText, true
	case !bytes.HasPrefix(head, []byte(magic)):
		return FileNotType, true
	}
	return FileSound, true
}
