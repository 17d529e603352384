package files

import "fmt"

// codeInterpreterTypes is the "Supported file types" table of Microsoft
// Foundry's Code Interpreter article (MicrosoftDocs/azure-ai-docs,
// articles/foundry/agents/how-to/tools/code-interpreter.md, ms.date
// 2026-04-03): each extension with the MIME type the article gives it. Where
// it gives two (.py: also text/x-script.python; .xml: or text/xml), the first.
// The article's troubleshooting says an upload fails for an "unsupported file
// type or wrong purpose".
var codeInterpreterTypes = map[string]string{
	".c":    "text/x-c",
	".cpp":  "text/x-c++",
	".csv":  "application/csv",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".html": "text/html",
	".java": "text/x-java",
	".json": "application/json",
	".md":   "text/markdown",
	".pdf":  "application/pdf",
	".php":  "text/x-php",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".py":   "text/x-python",
	".rb":   "text/x-ruby",
	".tex":  "text/x-tex",
	".txt":  "text/plain",
	".css":  "text/css",
	".jpeg": "image/jpeg",
	".jpg":  "image/jpeg",
	".js":   "text/javascript",
	".gif":  "image/gif",
	".png":  "image/png",
	".tar":  "application/x-tar",
	".ts":   "application/typescript",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".xml":  "application/xml",
	".zip":  "application/zip",
}

// unknownContentType is what a file of no known kind is uploaded as.
const unknownContentType = "application/octet-stream"

// FoundryContentType returns the media type a file called name is uploaded
// to Foundry with: its kind's FoundryMIME, from the product's table rather
// than the host's MIME database (which names .ts a Qt Linguist file, and
// knows none of ten of the article's types on a slim image), so that every
// machine sends the same. A name of no known kind gets
// application/octet-stream.
func FoundryContentType(name string) string {
	if k, ok := KindOf(name); ok {
		return k.FoundryMIME
	}
	return unknownContentType
}

// listedInstead names, for each kind outside the article's table, the listed
// type to save such a file as when Foundry cannot read it (a test holds every
// unlisted kind to having one).
var listedInstead = map[string]string{
	".tsv":     ".csv",
	".parquet": ".csv",
	".xls":     ".xlsx",
	".doc":     ".docx",
	".cs":      ".txt",
	".sh":      ".txt",
}

// UnlistedNotice returns what to tell the user who uploads name when
// Foundry's Code Interpreter is the engine and the file's type is not in the
// article's table of supported types (Kind.Listed): the service may refuse
// it, or read it as plain text. It returns "" for a listed type and for a
// name of no known kind (Check refuses those anyway). The local engine reads
// every kind, so it needs no notice.
func UnlistedNotice(name string) string {
	k, ok := KindOf(name)
	if !ok || k.Listed {
		return ""
	}
	return fmt.Sprintf("A %s file is not in the Code Interpreter's list of supported types; Foundry may refuse it or read it as plain text. "+
		"Save it as %s if the answer cannot read it.", k.Ext, listedInstead[k.Ext])
}

// UploadNotice returns what to tell the user who has just uploaded name, or "": on the local
// engine, a type it keeps but cannot read (Debian packages no reader for Word 97-2003 or
// Parquet); on Foundry, a type outside the article's table (UnlistedNotice).
func UploadNotice(name string, local bool) string {
	if !local {
		return UnlistedNotice(name)
	}
	k, _ := KindOf(name)
	switch k.Ext {
	case ".doc":
		return "The local engine cannot read Word 97-2003 documents (.doc). The file is kept; save it as .docx to ask about its text."
	case ".parquet":
		return "The local engine has no Parquet reader. The file is kept; save the table as CSV or Excel to ask about it here."
	}
	return ""
}
