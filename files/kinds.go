package files

import (
	"path/filepath"
	"slices"
	"strings"
)

// Kind describes a supported file type.
type Kind struct {
	// Ext is the lower-case extension with its dot, as in ".csv".
	Ext string
	// MIME is the media type the app stores and serves the file with: the
	// one browsers know (text/csv for .csv), so downloads open as before.
	MIME string
	// FoundryMIME is the media type the file is uploaded to Foundry with:
	// the one the Code Interpreter article's table gives (application/csv
	// for .csv; see codeInterpreterTypes), or MIME for a kind the table
	// does not list.
	FoundryMIME string
	// Listed reports whether the type is in the "Supported file types"
	// table of the Code Interpreter article (see codeInterpreterTypes).
	// Foundry may refuse an unlisted one, or read it as plain text.
	Listed bool
	// Label names the type for people, with its article: "a CSV file".
	Label string
	// Tabular reports whether pandas in the sandbox reads the file as a table.
	Tabular bool
	// content is the family of magic numbers the bytes must carry.
	content family
}

// family groups types by the signature their bytes start with.
type family int

const (
	famText family = iota
	famZip
	famOLE // Office 97-2003 compound file
	famPDF
	famPNG
	famJPEG
	famGIF
	famTar
	famParquet
	famForeign // recognised, but of no supported type (gzip, audio ...)
)

// kinds lists the types the app accepts: those of the Code Interpreter
// article's table (codeInterpreterTypes), plus six it does not list. .tsv,
// .xls and .parquet hold data the sandbox's pandas reads (read_csv with
// sep="\t", read_excel, read_parquet); .cs, .doc and .sh were in the classic
// agents' list, and analysts still bring them. Uploading those six to Foundry
// is a gamble the upload page warns of (UnlistedNotice).
var kinds = withFoundryTypes([]Kind{
	kind(".c", "text/x-c", "a C source file", false, famText),
	kind(".cs", "text/x-csharp", "a C# source file", false, famText),
	kind(".cpp", "text/x-c++", "a C++ source file", false, famText),
	kind(".csv", "text/csv", "a CSV file", true, famText),
	kind(".doc", "application/msword", "a Word document (.doc)", false, famOLE),
	kind(".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a Word document (.docx)", false, famZip),
	kind(".html", "text/html", "an HTML file", false, famText),
	kind(".java", "text/x-java", "a Java source file", false, famText),
	kind(".json", "application/json", "a JSON file", true, famText),
	kind(".md", "text/markdown", "a Markdown file", false, famText),
	kind(".pdf", "application/pdf", "a PDF document", false, famPDF),
	kind(".php", "text/x-php", "a PHP file", false, famText),
	kind(".pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "a PowerPoint file (.pptx)", false, famZip),
	kind(".py", "text/x-python", "a Python file", false, famText),
	kind(".rb", "text/x-ruby", "a Ruby file", false, famText),
	kind(".tex", "text/x-tex", "a TeX file", false, famText),
	kind(".txt", "text/plain", "a text file", false, famText),
	kind(".css", "text/css", "a CSS file", false, famText),
	kind(".js", "text/javascript", "a JavaScript file", false, famText),
	kind(".sh", "application/x-sh", "a shell script", false, famText),
	kind(".ts", "application/typescript", "a TypeScript file", false, famText),
	kind(".tar", "application/x-tar", "a TAR archive", false, famTar),
	kind(".jpeg", "image/jpeg", "a JPEG image", false, famJPEG),
	kind(".jpg", "image/jpeg", "a JPEG image", false, famJPEG),
	kind(".gif", "image/gif", "a GIF image", false, famGIF),
	kind(".png", "image/png", "a PNG image", false, famPNG),
	kind(".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "an Excel workbook (.xlsx)", true, famZip),
	kind(".xml", "application/xml", "an XML file", false, famText),
	kind(".zip", "application/zip", "a ZIP archive", false, famZip),
	kind(".tsv", "text/tab-separated-values", "a TSV file", true, famText),
	kind(".xls", "application/vnd.ms-excel", "an Excel 97-2003 workbook (.xls)", true, famOLE),
	kind(".parquet", "application/vnd.apache.parquet", "a Parquet file", true, famParquet),
})

// kind is a Kind as the app knows it; withFoundryTypes adds what the Code
// Interpreter article says of it.
func kind(ext, mime, label string, tabular bool, content family) Kind {
	return Kind{Ext: ext, MIME: mime, Label: label, Tabular: tabular, content: content}
}

// withFoundryTypes fills FoundryMIME and Listed from the article's table.
func withFoundryTypes(ks []Kind) []Kind {
	for i, k := range ks {
		ks[i].FoundryMIME, ks[i].Listed = codeInterpreterTypes[k.Ext]
		if !ks[i].Listed {
			ks[i].FoundryMIME = k.MIME
		}
	}
	return ks
}

// KindOf returns the supported kind for a file name's extension, ignoring
// case, and whether there is one.
func KindOf(name string) (Kind, bool) {
	ext := strings.ToLower(filepath.Ext(name))
	i := slices.IndexFunc(kinds, func(k Kind) bool { return k.Ext == ext })
	if i < 0 {
		return Kind{}, false
	}
	return kinds[i], true
}

// Kinds returns every supported kind, for help texts and accept= attributes.
func Kinds() []Kind { return slices.Clone(kinds) }

// isText reports whether the kind's content is text.
func (k Kind) isText() bool { return k.content == famText }
