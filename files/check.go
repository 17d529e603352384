package files

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strings"
)

// MaxNameBytes is the longest file name accepted, in bytes: the limit of
// most file systems, the sandbox's among them.
const MaxNameBytes = 255

// HeadSize is how many leading bytes [Check] should be given (fewer if the
// file is shorter): enough for the tar header at offset 257 and for a fair
// guess at a text file's encoding.
const HeadSize = 8 << 10

// Check decides whether a file called name, whose content starts with head,
// may be uploaded. It returns the file's kind, or a [*UserError] when the
// name is longer than [MaxNameBytes], the extension is not supported, the
// file is empty, the content is a program, or the content contradicts the
// extension (a PNG named .csv, binary data named .txt).
func Check(name string, head []byte) (Kind, error) {
	k, ok := KindOf(name)
	switch {
	case len(name) > MaxNameBytes:
		return Kind{}, errNameTooLong(name)
	case filepath.Ext(name) == "":
		return Kind{}, errNoExtension(name)
	case !ok:
		return Kind{}, errUnsupported(name, strings.ToLower(filepath.Ext(name)))
	case len(head) == 0:
		return Kind{}, errEmpty(name)
	case isExecutable(head):
		return Kind{}, errExecutable(name)
	}
	fam, label := sniffBinary(head)
	if k.isText() {
		if label != "" {
			return Kind{}, errMismatch(name, k, fam, label)
		}
		if _, ok := sniffText(head); !ok {
			return Kind{}, errBinary(name, k)
		}
		return k, nil
	}
	if fam == famOLE && k.content == famZip && isEncryptedOffice(head) {
		return Kind{}, errEncrypted("“" + name + "”")
	}
	if fam == k.content || (k.Ext == ".xls" && fam == famZip) {
		// An .xlsx saved as .xls still opens in pandas, which sniffs the bytes.
		return k, nil
	}
	if label == "" {
		label = "data of an unknown kind"
		if _, ok := sniffText(head); ok {
			label = textContent
		}
	}
	return Kind{}, errMismatch(name, k, fam, label)
}

// isExecutable recognises ELF, Mach-O and Windows PE/DOS programs. "MZ" alone
// could start a text file, so a DOS header also needs the NUL bytes every real
// one has.
func isExecutable(head []byte) bool {
	for _, magic := range []string{"\x7fELF", "\xfe\xed\xfa\xce", "\xfe\xed\xfa\xcf", "\xce\xfa\xed\xfe", "\xcf\xfa\xed\xfe", "\xca\xfe\xba\xbe"} {
		if bytes.HasPrefix(head, []byte(magic)) {
			return true
		}
	}
	return bytes.HasPrefix(head, []byte("MZ")) && bytes.IndexByte(head, 0) >= 0
}

// signatures are the magic numbers of the binary families, checked at the
// start of the file.
var signatures = []struct {
	magic string
	fam   family
	label string
}{
	{"PK\x03\x04", famZip, "a ZIP archive (or a Word, Excel or PowerPoint file)"},
	{"PK\x05\x06", famZip, "an empty ZIP archive"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", famOLE, "an Office 97-2003 document (.doc, .xls or .ppt)"},
	{"\x89PNG\r\n\x1a\n", famPNG, "a PNG image"},
	{"\xff\xd8\xff", famJPEG, "a JPEG image"},
	{"GIF87a", famGIF, "a GIF image"},
	{"GIF89a", famGIF, "a GIF image"},
	{"PAR1", famParquet, "a Parquet file"},
}

// sniffBinary names the binary format head starts with, and its family when
// it is one of ours. label is empty for text and for data nothing recognises.
func sniffBinary(head []byte) (family, string) {
	for _, s := range signatures {
		if bytes.HasPrefix(head, []byte(s.magic)) {
			return s.fam, s.label
		}
	}
	// Adobe readers accept the PDF header anywhere in the first kilobyte.
	if bytes.Contains(head[:min(len(head), 1024)], []byte("%PDF-")) {
		return famPDF, "a PDF document"
	}
	if len(head) >= 262 && bytes.Equal(head[257:262], []byte("ustar")) {
		return famTar, "a TAR archive"
	}
	ct := http.DetectContentType(head)
	if strings.HasPrefix(ct, "text/") || ct == "application/octet-stream" {
		return famText, ""
	}
	return famForeign, describeMIME(ct)
}

// describeMIME names what net/http sniffed, for the formats nothing above
// knows (gzip, RAR, WebP, audio, video, fonts ...).
func describeMIME(ct string) string {
	ct, _, _ = strings.Cut(ct, ";")
	switch {
	case ct == "application/x-gzip":
		return "a gzip archive"
	case ct == "application/x-rar-compressed":
		return "a RAR archive"
	case strings.HasPrefix(ct, "image/"):
		return "an image of type " + ct
	case strings.HasPrefix(ct, "audio/"):
		return "audio"
	case strings.HasPrefix(ct, "video/"):
		return "video"
	}
	return "data of type " + ct
}

// encryptedPackage is the UTF-16 name of the stream in which Office keeps a
// password-protected .xlsx, .docx or .pptx, inside an OLE compound file.
var encryptedPackage = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")

// isEncryptedOffice reports whether head starts an encrypted Office Open XML
// file. The stream's name sits in the directory, usually within the first
// kilobytes; if it is further, Check reports the file as a mismatch.
func isEncryptedOffice(head []byte) bool {
	return bytes.HasPrefix(head, []byte("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")) && bytes.Contains(head, encryptedPackage)
}
