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
	// MIME is the media type to send with the file.
	MIME string
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

// kinds lists the types the Code Interpreter tool of Microsoft Foundry
// documents as supported, plus .tsv, .xls and .parquet: those three are not in
// that list, but the sandbox's pandas reads them (read_csv with sep="\t",
// read_excel, read_parquet), and analysts have data in them.
var kinds = []Kind{
	{".c", "text/x-c", "a C source file", false, famText},
	{".cs", "text/x-csharp", "a C# source file", false, famText},
	{".cpp", "text/x-c++", "a C++ source file", false, famText},
	{".csv", "text/csv", "a CSV file", true, famText},
	{".doc", "application/msword", "a Word document (.doc)", false, famOLE},
	{".docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "a Word document (.docx)", false, famZip},
	{".html", "text/html", "an HTML file", false, famText},
	{".java", "text/x-java", "a Java source file", false, famText},
	{".json", "application/json", "a JSON file", true, famText},
	{".md", "text/markdown", "a Markdown file", false, famText},
	{".pdf", "application/pdf", "a PDF document", false, famPDF},
	{".php", "text/x-php", "a PHP file", false, famText},
	{".pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation", "a PowerPoint file (.pptx)", false, famZip},
	{".py", "text/x-python", "a Python file", false, famText},
	{".rb", "text/x-ruby", "a Ruby file", false, famText},
	{".tex", "text/x-tex", "a TeX file", false, famText},
	{".txt", "text/plain", "a text file", false, famText},
	{".css", "text/css", "a CSS file", false, famText},
	{".js", "text/javascript", "a JavaScript file", false, famText},
	{".sh", "application/x-sh", "a shell script", false, famText},
	{".ts", "application/typescript", "a TypeScript file", false, famText},
	{".tar", "application/x-tar", "a TAR archive", false, famTar},
	{".jpeg", "image/jpeg", "a JPEG image", false, famJPEG},
	{".jpg", "image/jpeg", "a JPEG image", false, famJPEG},
	{".gif", "image/gif", "a GIF image", false, famGIF},
	{".png", "image/png", "a PNG image", false, famPNG},
	{".xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "an Excel workbook (.xlsx)", true, famZip},
	{".xml", "application/xml", "an XML file", false, famText},
	{".zip", "application/zip", "a ZIP archive", false, famZip},
	// Not in Foundry's list; read by the sandbox's pandas.
	{".tsv", "text/tab-separated-values", "a TSV file", true, famText},
	{".xls", "application/vnd.ms-excel", "an Excel 97-2003 workbook (.xls)", true, famOLE},
	{".parquet", "application/vnd.apache.parquet", "a Parquet file", true, famParquet},
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
