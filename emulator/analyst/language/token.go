package language

// Kind says what a token is, before any meaning is given to it.
type Kind uint8

// The kinds of token. Numbers, dates, quoted strings, names and operators are recognised before
// words, so that "No. of cases_median", "2011-05-01" or ">=" arrive as one token each.
const (
	Word     Kind = iota // an English word, or anything word-like the lexicon may not know
	Number               // 20, 1,000, 3.5, 20%, $5, 3rd; also number words ("five")
	Date                 // 2011-05-01, 05/01/2011, March 2011, March 3, 2011
	Quoted               // "John" or 'male': Text holds what is between the quotes
	Name                 // an entry of the caller's Vocabulary: a column name, a category value
	Operator             // >, >=, "more than", "at least", "or more", "equal to"
	Punct                // , ; : ? ! ( ) . and any other symbol
)

var kindNames = [...]string{"word", "number", "date", "quoted", "name", "operator", "punct"}

// String returns the kind's lowercase name.
func (k Kind) String() string { return kindNames[k] }

// Token is one unit of a question.
type Token struct {
	Text  string // as typed (for a Quoted token, without the quotes)
	Lower string // Text in lowercase
	Lemma string // dictionary form: "paid" → pay; for a Name, its entry lowercased
	POS   string // Penn Treebank tag: from the tagger, corrected where the lexicon is sure
	Kind  Kind
	// Start and End are byte offsets into Sentence.Text (a Quoted token's include the quotes).
	Start, End int
	// Value is a Number's value ("20%" → 20, "five" → 5, "3rd" → 3) or a Date's year.
	Value float64
	// Percent and Ordinal qualify a Number: "20%", "3rd".
	Percent, Ordinal bool
	// Op is an Operator's comparison: ">", ">=", "<", "<=", "=" or "!=".
	Op string
	// Entry is a Name's entry as the caller registered it.
	Entry string
}

// Is reports whether the token's lowercase text is one of words.
func (t Token) Is(words ...string) bool {
	for _, w := range words {
		if t.Lower == w {
			return true
		}
	}
	return false
}

// IsNoun reports whether the token is tagged as a noun (common or proper), or is a Name or a
// Quoted string, which stand where nouns stand.
func (t Token) IsNoun() bool {
	return t.Kind == Name || t.Kind == Quoted || len(t.POS) >= 2 && t.POS[:2] == "NN"
}

// IsVerb reports whether the token is tagged as a verb (not a modal).
func (t Token) IsVerb() bool { return len(t.POS) >= 2 && t.POS[:2] == "VB" }

// IsAdjective reports whether the token is tagged as an adjective of any degree.
func (t Token) IsAdjective() bool { return len(t.POS) >= 2 && t.POS[:2] == "JJ" }

// IsPlural reports whether the token is tagged as a plural noun.
func (t Token) IsPlural() bool { return t.POS == "NNS" || t.POS == "NNPS" }
