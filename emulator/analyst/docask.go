package analyst

import (
	"slices"
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
)

// docAskKind is what a question asks of a document.
type docAskKind uint8

const (
	docOverview docAskKind = iota // what the file is and holds
	docCount                      // how many lines, words, pages, functions …
	docList                       // the headings, functions, imports, members …
	docFind                       // what it says about a word; whether it mentions one
	docShow                       // its first or last lines
	docPicture                    // an image, shown
	docSize                       // an image's size in pixels
	docColours                    // an image's main colours
	docTitle                      // its title
	docUnclear                    // about a document, but not anything above
)

// docAsk is a question read as one about documents.
type docAsk struct {
	kind  docAskKind
	unit  string   // of docCount and docList: a key of docUnits' values
	terms []string // of docFind
	yesNo bool     // docFind asked as "does it mention …?"
	last  bool     // docShow from the end
	n     int      // docShow's number of lines
	docs  []*Doc   // the documents asked about: the one named, else all that have the unit
}

// docUnits maps the lemma of a noun a question counts or lists to the measure of a Doc it
// names: the measures documents.py reports, not a vocabulary of questions.
var docUnits = map[string]string{
	"line": "line", "word": "word", "character": "char", "char": "char", "letter": "char",
	"page": "page", "slide": "slide", "heading": "heading", "header": "heading", "section": "heading",
	"chapter": "heading", "title": "heading", "function": "function", "method": "function",
	"class": "class", "import": "import", "dependency": "import", "module": "import", "library": "import",
	"package": "import", "include": "import", "file": "member", "member": "member", "entry": "member",
	"paragraph": "paragraph", "table": "table", "rule": "rule", "selector": "rule", "element": "element",
	"tag": "tag",
}

// Verbs and nouns that decide what is asked of a document, by lemma.
var (
	findVerbs    = []string{"mention", "contain", "discuss", "cover", "reference", "refer", "find", "search", "look", "grep"}
	textVerbs    = []string{"say", "mention", "write", "discuss", "state", "quote"}
	showVerbs    = []string{"show", "display", "print", "view", "see", "read", "open", "give", "extract", "dump", "copy"}
	overviewWord = []string{"overview", "summary", "summarize", "summarise", "describe", "description", "content", "contain", "about", "gist"}
	sizeWords    = []string{"size", "dimension", "width", "height", "resolution", "pixel", "big", "large", "wide", "tall"}
	colourWords  = []string{"colour", "color", "palette"}
	pictureWords = []string{"image", "picture", "photo", "photograph", "logo", "screenshot", "look"}
)

// readDocQuestion reads a question about the attached documents. With no table attached every
// question is about them; with tables too, only one that names a document or asks what only a
// document has (its lines, words, pages, headings, functions, an image's pixels) and that no
// column is named like.
func readDocQuestion(question string, p *Profile) (docAsk, bool) {
	if len(p.Docs) == 0 {
		return docAsk{}, false
	}
	lower := strings.ToLower(question)
	s := language.Read(question, language.NewVocabulary(docKeys(allDocs(p))...))
	named := docNamed(lower, p.Docs)
	if named == nil {
		// "the pdf", "the image": the one document of that kind, unless the noun is a table's
		// word too ("which product code sells most" with a script attached asks the table).
		if d, noun := docOfKind(s, p.Docs); d != nil && !(len(p.Frames) > 0 && namesTableWord([]string{noun}, p)) {
			named = d
		}
	}
	a := readDocAsk(s, p.Docs)
	if len(p.Frames) > 0 && named == nil && (a.kind == docOverview || a.kind == docUnclear || a.kind == docShow || namesColumn(a.unit, p)) {
		return docAsk{}, false
	}
	if len(p.Frames) > 0 && named == nil && a.kind == docFind && !anyLemma(s, textVerbs...) && namesTableWord(a.terms, p) {
		return docAsk{}, false // "tell me about sales" asks about a column; "what does it say about" asks the text
	}
	if named != nil && namesFrameWithin(lower, named.Key, p) {
		return docAsk{}, false // "bundle.zip/sales.csv" names a table read from the archive
	}
	a.docs = docsFor(&a, named, p.Docs)
	return a, true
}

// readDocAsk decides what the question asks, from its form and the lemmas of its words.
func readDocAsk(s *language.Sentence, docs []Doc) docAsk {
	form := s.Form().Kind
	unit := askedUnit(s, docs)
	switch {
	case len(quotedTerms(s)) > 0 || (anyLemma(s, "about") || anyLemma(s, findVerbs...)) && findObject(s) != nil:
		terms := quotedTerms(s)
		if len(terms) == 0 {
			terms = findObject(s)
		}
		if len(terms) > 0 {
			// "which slides mention revenue" searches the decks; "which pages" the PDFs.
			return docAsk{kind: docFind, terms: terms, yesNo: form == language.YesNo, unit: unit}
		}
	case anyLemma(s, colourWords...):
		return docAsk{kind: docColours}
	case anyLemma(s, sizeWords...) && !(form == language.HowMany && unit != ""):
		return docAsk{kind: docSize}
	}
	if anyLemma(s, "title") && !anyLemma(s, "slide", "heading", "section") && form != language.HowMany {
		return docAsk{kind: docTitle}
	}
	if unit != "" && (form == language.HowMany || hasLemma(s, "number") || hasLemma(s, "count")) {
		return docAsk{kind: docCount, unit: unit}
	}
	if unit != "" && unit != "line" && unit != "word" && unit != "char" && (form == language.Wh || form == language.Imperative) {
		return docAsk{kind: docList, unit: unit}
	}
	if anyLemma(s, showVerbs...) && (unit == "line" || anyLemma(s, "text", "first", "last", "beginning", "end", "start", "content")) {
		return showAsk(s)
	}
	if anyLemma(s, showVerbs...) && anyLemma(s, pictureWords...) || hasLemma(s, "look") && hasLemma(s, "like") {
		return docAsk{kind: docPicture}
	}
	if anyLemma(s, overviewWord...) || form == language.Wh && anyLemma(s, "what", "file", "document", "this", "it") && len(s.Tokens) <= 8 {
		return docAsk{kind: docOverview}
	}
	return docAsk{kind: docUnclear}
}

// showAsk reads "show the first 10 lines", "print the last lines", "show the text".
func showAsk(s *language.Sentence) docAsk {
	a := docAsk{kind: docShow, n: 10, last: anyLemma(s, "last", "end", "final", "bottom")}
	for _, t := range s.Tokens {
		if t.Kind == language.Number && !t.Ordinal && t.Value >= 1 && t.Value <= 200 {
			a.n = int(t.Value)
		}
	}
	return a
}

// askedUnit returns the measure of a document the question's nouns name, or "". "file" is an
// archive's members only when an archive is attached.
func askedUnit(s *language.Sentence, docs []Doc) string {
	for _, t := range s.Tokens {
		if t.Kind != language.Word || !strings.HasPrefix(t.POS, "NN") && !strings.HasPrefix(t.POS, "VB") {
			continue // a file's name ("page.html") is a Name, not the unit "page"
		}
		u, ok := docUnits[t.Lemma]
		if !ok || u == "member" && !slices.ContainsFunc(docs, func(d Doc) bool { return d.Kind == "archive" }) {
			continue
		}
		if u == "heading" && t.Lemma == "title" && t.Lower == "title" {
			continue // "the title" asks for one title, said in the overview
		}
		return u
	}
	return ""
}

// quotedTerms returns the quoted strings of the question.
func quotedTerms(s *language.Sentence) []string {
	var out []string
	for _, t := range s.Tokens {
		if t.Kind == language.Quoted && strings.TrimSpace(t.Text) != "" {
			out = append(out, t.Text)
		}
	}
	return out
}

// findObject returns the words searched for: those after "about", or after a verb of finding
// ("mention budget", "search for budget", "where is budget mentioned"), without determiners,
// prepositions, pronouns, the document's own noun or "word"/"term" themselves.
func findObject(s *language.Sentence) []string {
	from, to := -1, len(s.Tokens)
	for i, t := range s.Tokens {
		switch {
		case t.Lemma == "about" || t.Lower == "about":
			from = i + 1
		case from < 0 && slices.Contains(findVerbs, t.Lemma):
			if i > 0 && (s.Tokens[i-1].Lemma == "be") && i > 1 {
				from, to = 0, i // "where is the budget mentioned"
			} else {
				from = i + 1
			}
		}
	}
	if from < 0 {
		return nil
	}
	var out []string
	for _, t := range s.Tokens[from:to] {
		if t.Kind == language.Punct || t.Lower == "in" || t.Lower == "of" && len(out) == 0 {
			if len(out) > 0 && t.Lower == "in" {
				break // "… in the report": where, not what
			}
			continue
		}
		if skipFindWord(t) {
			continue
		}
		if t.POS == "NNS" && t.Lemma != "" && t.Kind == language.Word {
			out = append(out, t.Lemma) // "hotels" finds "hotel" too: a term matches the words it starts
			continue
		}
		out = append(out, t.Text)
	}
	return out
}

// skipFindWord reports a word that is not what is searched for: the question's own grammar and
// the document's nouns.
func skipFindWord(t language.Token) bool {
	switch t.POS {
	case "DT", "PRP", "PRP$", "WDT", "WP", "WRB", "MD", "TO", "CC", "EX", "IN":
		return t.Lower != "on" // "on" may be searched for only inside quotes; kept out anyway below
	}
	if strings.HasPrefix(t.POS, "VB") && (t.Lemma == "be" || t.Lemma == "do" || t.Lemma == "say" || slices.Contains(findVerbs, t.Lemma)) {
		return true
	}
	switch t.Lemma {
	case "word", "term", "phrase", "text", "file", "document", "report", "it", "anything", "something", "line", "mention":
		return true
	}
	return t.Lower == "on"
}

// docsFor returns the documents a question is about: the one it names, else those that have
// what it asks (lines to search, an image's pixels, the unit counted).
func docsFor(a *docAsk, named *Doc, docs []Doc) []*Doc {
	if named != nil {
		return []*Doc{named}
	}
	var out []*Doc
	for i := range docs {
		d := &docs[i]
		switch a.kind {
		case docTitle:
			if d.isImage() || d.Kind == "archive" || d.Kind == "code" {
				continue
			}
		case docPicture, docSize, docColours:
			if !d.isImage() {
				continue
			}
		case docFind, docShow:
			if _, ok := unitValue(d, a.unit); d.isImage() || d.Kind == "archive" || a.unit != "" && !ok {
				continue
			}
		case docCount, docList:
			if _, ok := unitValue(d, a.unit); !ok {
				continue
			}
		}
		out = append(out, d)
	}
	return out
}

// kindNouns maps a noun that names a kind of document to the kinds (Doc.Kind, or an
// archive's format) it names.
var kindNouns = map[string][]string{
	"pdf": {"PDF"}, "image": {"image"}, "picture": {"image"}, "photo": {"image"}, "photograph": {"image"},
	"logo": {"image"}, "screenshot": {"image"}, "zip": {"ZIP"}, "archive": {"ZIP", "TAR"}, "tar": {"TAR"},
	"tarball": {"TAR"}, "deck": {"PowerPoint"}, "presentation": {"PowerPoint"}, "powerpoint": {"PowerPoint"},
	"slideshow": {"PowerPoint"}, "docx": {"Word"}, "script": {"code"}, "code": {"code"}, "program": {"code"},
	"webpage": {"HTML"}, "html": {"HTML"}, "xml": {"XML"}, "markdown": {"Markdown"}, "readme": {"Markdown", "text"},
	"document": {"PDF", "Word", "text", "Markdown", "TeX", "HTML", "PowerPoint"}, "report": {"PDF", "Word"},
	"memo": {"Word", "PDF", "text"}, "paper": {"PDF", "TeX"}, "notes": {"text", "Markdown"},
}

// docOfKind returns the one attached document of the kind a noun of the question names ("the
// pdf", "the image"), and the noun; nil when none or several are of it.
func docOfKind(s *language.Sentence, docs []Doc) (*Doc, string) {
	for _, t := range s.Tokens {
		kinds, ok := kindNouns[t.Lemma]
		if !ok || t.Kind != language.Word {
			continue
		}
		var found *Doc
		for i := range docs {
			d := &docs[i]
			if slices.Contains(kinds, d.Kind) || d.Kind == "archive" && slices.Contains(kinds, d.Archive) {
				if found != nil {
					return nil, "" // two of that kind: the question must name one
				}
				found = d
			}
		}
		if found != nil {
			return found, t.Text
		}
	}
	return nil, ""
}

// namesFrameWithin reports whether the question names a table whose key is longer than, and
// holds, the document's: a member of an archive, a table of a page.
func namesFrameWithin(lower, key string, p *Profile) bool {
	for _, f := range p.Frames {
		k := strings.ToLower(f.Key)
		if len(k) > len(key) && strings.Contains(k, strings.ToLower(key)) && strings.Contains(lower, k) {
			return true
		}
	}
	return false
}

// namesTableWord reports whether a word searched for names a table's column, or is one of
// its values.
func namesTableWord(terms []string, p *Profile) bool {
	for _, term := range terms {
		low := strings.ToLower(term)
		for _, f := range p.Frames {
			for _, c := range f.Columns {
				if strings.EqualFold(c.Name, term) || slices.Contains(nameWords(c.Name), low) || slices.ContainsFunc(c.Values, func(v string) bool { return strings.EqualFold(v, term) }) {
					return true
				}
			}
		}
	}
	return false
}

// namesColumn reports whether a table has a column named like the unit (a "words" column).
func namesColumn(unit string, p *Profile) bool {
	if unit == "" {
		return false
	}
	for _, f := range p.Frames {
		for _, c := range f.Columns {
			if low := strings.ToLower(c.Name); low == unit || low == unit+"s" {
				return true
			}
		}
	}
	return false
}

// hasLemma reports whether every lemma given occurs in the sentence.
func hasLemma(s *language.Sentence, lemmas ...string) bool {
	for _, l := range lemmas {
		if !anyLemma(s, l) {
			return false
		}
	}
	return true
}

// anyLemma reports whether one of the lemmas occurs in the sentence (as a lemma or as typed).
func anyLemma(s *language.Sentence, lemmas ...string) bool {
	for _, t := range s.Tokens {
		if slices.Contains(lemmas, t.Lemma) || slices.Contains(lemmas, t.Lower) {
			return true
		}
	}
	return false
}
