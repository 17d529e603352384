package analyst

import (
	"path"
	"strings"
)

// Doc is an attached file read as a document rather than a table (documents.py): prose, source
// code, a web page, an XML file, a Word document, slides, a PDF, an image or an archive. Only
// the fields its kind has are set.
type Doc struct {
	Key   string `json:"key"` // the key in the kernel's `documents` dict, as people name the file
	Kind  string `json:"kind"`
	Lines int    `json:"lines"` // lines with text (paragraphs of a Word document, lines of slides or pages)
	Words int    `json:"words"`
	Chars int    `json:"chars"`
	// Excerpt is the first lines with text.
	Excerpt    []string `json:"excerpt"`
	Title      string   `json:"title"`
	Headings   []string `json:"headings"` // headings and sections; a deck's slide titles
	Language   string   `json:"language"` // of source code
	Functions  []string `json:"functions"`
	Classes    []string `json:"classes"`
	Imports    []string `json:"imports"`
	Rules      int      `json:"rules"` // of a style sheet
	Paragraphs int      `json:"paragraphs"`
	Slides     int      `json:"slides"`
	Pages      int      `json:"pages"`
	Scanned    bool     `json:"scanned"` // a PDF with pages but no text: scanned images
	Root       string   `json:"root"`    // an XML file's root element
	Elements   int      `json:"elements"`
	Tags       []string `json:"tags"`
	// Tables are the keys of the frames read from this document.
	Tables  []string `json:"tables"`
	Archive string   `json:"archive"` // ZIP or TAR
	Members []Member `json:"members"`
	Width   int      `json:"width"`
	Height  int      `json:"height"`
	Mode    string   `json:"mode"`
	Format  string   `json:"format"`
	Frames  int      `json:"frames"` // of an animated GIF
	Colours []Colour `json:"colours"`
}

// Member is one file of an archive.
type Member struct {
	Name  string `json:"name"`
	Bytes int64  `json:"bytes"`
	Read  string `json:"read"` // "table", "document" or "" when not read
	Error string `json:"error"`
}

// Colour is one of an image's main colours and the share of its pixels, in percent.
type Colour struct {
	Hex   string `json:"hex"`
	Share int    `json:"share"`
}

// isImage reports a picture.
func (d *Doc) isImage() bool { return d.Kind == "image" }

// label names the document's type for people, with its article.
func (d *Doc) label() string {
	switch d.Kind {
	case "code":
		return article(d.Language) + " " + d.Language + " source file"
	case "image":
		return article(d.Format) + " " + d.Format + " image"
	case "archive":
		return "a " + d.Archive + " archive"
	case "text":
		return "a text file"
	case "Word":
		return "a Word document"
	case "PowerPoint":
		return "a PowerPoint deck"
	case "PDF":
		return "a PDF document"
	}
	return article(d.Kind) + " " + d.Kind + " file"
}

// article is "an" before a vowel sound, else "a".
func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) || strings.HasPrefix(word, "HTML") || strings.HasPrefix(word, "XML") {
		return "an"
	}
	return "a"
}

// docExt lists the extensions documents.py reads as documents; an image only when it was
// attached (a chart the analyst drew is not an input).
var docExt = map[string]bool{".txt": true, ".md": true, ".tex": true, ".py": true, ".js": true, ".ts": true,
	".java": true, ".c": true, ".cpp": true, ".cs": true, ".php": true, ".rb": true, ".css": true, ".sh": true,
	".html": true, ".htm": true, ".xml": true, ".docx": true, ".pptx": true, ".pdf": true, ".zip": true,
	".tar": true, ".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".parquet": true}

// imageExt lists the picture extensions.
var imageExt = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true}

// isInput reports whether a file in /mnt/data is one the loader reads: a table, or a
// document; a picture only when it was uploaded (its mounted name), not drawn by a turn.
func isInput(name string) bool {
	ext := strings.ToLower(path.Ext(name))
	if imageExt[ext] {
		return mountedName.MatchString(name)
	}
	return dataExt[ext] || docExt[ext]
}

// docNamed returns the document whose name the question uses, or nil.
func docNamed(lower string, docs []Doc) *Doc {
	for i := range docs {
		key := strings.ToLower(docs[i].Key)
		stem := strings.TrimSuffix(key, path.Ext(key))
		if strings.Contains(lower, key) || len(stem) >= 3 && containsWord(lower, stem) {
			return &docs[i]
		}
	}
	return nil
}

// containsWord reports whether s holds w between word boundaries.
func containsWord(s, w string) bool { return wordIndex(s, w) >= 0 }

// wordIndex is where w first stands in s between word boundaries, or -1.
func wordIndex(s, w string) int {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return -1
		}
		at := i + j
		before := at == 0 || !isWordByte(s[at-1])
		after := at+len(w) == len(s) || !isWordByte(s[at+len(w)])
		if before && after {
			return at
		}
		i = at + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
