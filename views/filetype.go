package views

import (
	"mime"
	"strings"
)

// humanTypes names the usual content types as an analyst would.
var humanTypes = map[string]string{
	"text/csv":                  "CSV table",
	"text/tab-separated-values": "TSV table",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "Excel workbook",
	"application/vnd.ms-excel":       "Excel workbook",
	"application/json":               "JSON",
	"application/x-ndjson":           "JSON lines",
	"application/pdf":                "PDF document",
	"application/zip":                "ZIP archive",
	"text/plain":                     "Text",
	"text/html":                      "HTML page",
	"text/markdown":                  "Markdown",
	"application/x-ipynb+json":       "Jupyter notebook",
	"application/vnd.apache.parquet": "Parquet table",
}

// HumanType names a file's type for people: "CSV table", "PNG image",
// falling back on the name's extension ("DAT file").
func HumanType(contentType, name string) string {
	t, _, err := mime.ParseMediaType(contentType)
	if err == nil {
		if h, ok := humanTypes[t]; ok {
			return h
		}
		if kind, sub, ok := strings.Cut(t, "/"); ok && (kind == "image" || kind == "audio" || kind == "video") {
			sub = strings.TrimPrefix(strings.SplitN(sub, "+", 2)[0], "x-")
			return strings.ToUpper(sub) + " " + kind
		}
	}
	if l := extLabel(name); l != "FILE" {
		return l + " file"
	}
	return "File"
}
