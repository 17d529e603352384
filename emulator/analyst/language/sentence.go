package language

// Span is a half-open range of token indexes, [Start, End).
type Span struct{ Start, End int }

// Len returns the number of tokens in the span.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether token i lies in the span.
func (s Span) Contains(i int) bool { return i >= s.Start && i < s.End }

// Sentence is a question read: its tokens, its parts and the chunks of a shallow parse. Indexes
// in chunks refer to Tokens (token indexes) or to Phrases (phrase indexes), as each field says;
// -1 means absent.
type Sentence struct {
	Text   string
	Tokens []Token
	// Parts are the steps of a question that asks for several ("filter …, then plot …",
	// "1. … 2. …"); a plain question has one.
	Parts []Part
	// Phrases are the noun phrases, in order.
	Phrases []NounPhrase
	// Verbs are the verb groups, in order.
	Verbs []VerbGroup
	// Comparisons are the comparative conditions: "more than 20", "older than 30",
	// "between 1970 and 2011", "at least 3".
	Comparisons []Comparison
	// Superlatives are "the highest", "the worst", "the 3 cheapest", "top 5", "most common".
	Superlatives []Superlative
	// Coordinations join noun phrases with "and" or "or".
	Coordinations []Coordination
	// Relatives are relative clauses: "passengers who survived", "the fare paid by …".
	Relatives []RelativeClause
}

// Words returns the question's words under a token span, as typed; "" for an empty span.
func (s *Sentence) Words(sp Span) string {
	if sp.End <= sp.Start {
		return ""
	}
	return s.Text[s.Tokens[sp.Start].Start:s.Tokens[sp.End-1].End]
}

// Form is the first part's question form: what kind of answer the question asks for.
func (s *Sentence) Form() Form {
	if len(s.Parts) == 0 {
		return Form{Kind: Statement, Word: -1, Focus: -1}
	}
	return s.Parts[0].Form
}

// Part is one step of a question, between clause joints.
type Part struct {
	Span
	// Joint is the lowercase text that opened this part: "then", "and then", "after that",
	// "1.", ";", "."; "" for the first part when nothing opens it.
	Joint string
	Form  Form
}

// FormKind is the grammatical form of a question.
type FormKind uint8

// The question forms.
const (
	Statement  FormKind = iota // no question form: "average fare by class"
	YesNo                      // an auxiliary first: "Is …", "Does …", "Did …", "Can …"
	HowMany                    // "How many …"
	HowMuch                    // "How much …"
	How                        // "How old …", "How long …", "How …"
	Wh                         // "Which/What/Who/Whom/Whose/When/Where/Why …"
	Imperative                 // a verb first: "List …", "Name …", "Show …", "Calculate …"
)

var formNames = [...]string{"statement", "yes/no", "how many", "how much", "how", "wh", "imperative"}

// String returns the form's name.
func (k FormKind) String() string { return formNames[k] }

// Form says how a part asks.
type Form struct {
	Kind FormKind
	// Word is the token that decides the form: the auxiliary, "how", the wh-word, the verb.
	Word int
	// Focus is the noun phrase asked about (a phrase index): "which country", "how many
	// passengers", "what is the average fare", the subject after the auxiliary, the object of
	// the imperative verb.
	Focus int
	// Denied marks a statement that no row is so, read as the yes/no question whether that
	// holds: "There were no days when …", "No tornado has …". Word is "no".
	Denied bool
}

// NounPhrase is a base noun phrase and what hangs on it.
type NounPhrase struct {
	Span
	Det       int   // token: the, a, which, what, each, all, his…; -1
	Numbers   []int // tokens: counts and numbers before the head ("the 3 cheapest", "top 5")
	Modifiers []int // tokens: adjectives, participles and compound nouns before the head
	Head      int   // token: the head noun, or the adjective of an elliptical "the highest"
	// Attachments are the prepositional phrases on this phrase: "of passengers", "in 2011".
	Attachments []Attachment
}

// Attachment is a prepositional phrase attached to a noun phrase.
type Attachment struct {
	Prep   int // token: of, in, for, with, from, among, by, per…
	Object int // phrase index of the preposition's object
}

// VerbGroup is a run of auxiliaries and a main verb: "did not survive", "has been", "is".
type VerbGroup struct {
	Span
	Main     int   // token: the last verb
	Aux      []int // tokens: auxiliaries and modals before it
	Negated  bool  // "not", "n't", "never" inside
	Particle int   // token: "up" of "sum up"; -1
}

// Comparison is a comparative condition.
type Comparison struct {
	Span
	// Op is >, >=, <, <=, =, != or "between". For "<adjective>er than" it is ">" on the
	// adjective's own scale ("older than 30": more old; "cheaper than 5": more cheap), except
	// for the degree words less, fewer, lower, smaller, under, below, which give "<".
	Op string
	// Adjective is the comparative adjective or adverb ("older", "higher"), or -1.
	Adjective int
	// Value is the compared value: a number, a date, a name or a noun phrase's tokens.
	Value Span
	// Upper is the second bound of "between … and …".
	Upper Span
}

// Superlative is an extreme: "the highest", "the worst", "the 3 cheapest", "top 5",
// "the most expensive", "the least common".
type Superlative struct {
	Span
	Word int // token: "highest", "worst", "most", "least", "top", "bottom"
	// Adjective is the adjective the superlative is of: Word itself for "-est" forms, the
	// following adjective after most/least ("most expensive"); -1 for top/bottom alone.
	Adjective int
	// Lemma is the adjective's dictionary form: "highest" → high, "worst" → bad; "" for top and
	// bottom.
	Lemma string
	N     int  // how many: 3 in "the 3 cheapest", 5 in "top 5"; 0 when not said
	Least bool // least, fewest, bottom: the other end of the adjective's scale
	// Phrase is the noun phrase the superlative sits in, or -1.
	Phrase int
}

// Coordination joins phrases with a conjunction: "age and fare", "male or female passengers".
type Coordination struct {
	Conj  int   // token: and, or
	Items []int // phrase indexes, in order
}

// RelativeClause modifies a noun phrase: "passengers who survived", "the fare paid by him".
type RelativeClause struct {
	Span
	Antecedent int // phrase index
	Pronoun    int // token: who, which, that, whose; -1 for a reduced clause ("paid by")
	Verb       int // verb group index
}
