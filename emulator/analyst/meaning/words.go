package meaning

import (
	"strings"

	"github.com/analyst-workbench/workbench/emulator/analyst/language"
	"github.com/analyst-workbench/workbench/emulator/analyst/schema"
)

// The sets below are closed classes of English that carry an operation, not a column: what the
// lexicon cannot say (WordNet has no scale direction and no notion of "light" verbs). Open-class
// words are never listed here; they are linked to the table or they block.

// lightVerbs do not restrict rows or change a measure: being, having, asking and showing, and
// the verbs that say how an attribute relates to its row ("belong to", "live in", "identify
// as", "located in", "come from"). A verb outside this class must be linked ("survive" →
// Survived) or it blocks.
var lightVerbs = set("be", "have", "do", "list", "name", "show", "give", "tell", "find", "identify",
	"belong", "live", "exist", "locate", "situate", "base", "come", "originate", "occur", "happen", "present", "contain", "include", "represent", "appear", "report",
	"record", "see", "know", "want", "need", "like", "get", "provide", "display", "return", "calculate",
	"compute", "determine", "count", "associate", "correspond", "hold", "are", "enumerate", "mention",
	"state", "specify", "indicate", "retrieve", "extract", "output", "print",
	"make", "receive", "take", "cause", "result", "post", "buy", "purchase", "use", "write", "publish",
	"work", "serve", "operate", "stay", "reside") // "employees who work in Engineering": where a row belongs

// namingVerbs give a thing its name: "a model named 'Golf'", "a film called 'Up'".
var namingVerbs = set("name", "call", "title", "label")

// measureNouns stand for a column's values when they lean on it: "the level of Extraversion",
// "the speed stat", "the final worth values". Away from a column they block.
var measureNouns = set("level", "value", "stat", "statistic", "amount", "figure", "measure", "reading", "score", "rating", "grade", "rate", "quantity", "entry", "entries", "content")

// tableWords name the table, not a column or a row restriction.
var tableWords = set("dataset", "data", "table", "record", "row", "entry", "file", "list", "set", "database", "column", "field")

// personWords name rows of people in general: "individuals", "people".
var personWords = set("individual", "people", "person", "one", "everyone", "anyone", "someone")

// harmless words (other than the above) that never change what is computed.
var harmless = set("please", "there", "also", "you", "i", "we", "me", "us", "present", "available",
	"overall", "any", "all", "each", "every", "entire", "whole", "value", "values", "respectively",
	"those", "ones", "one", "among", "kindly", "exactly", "currently", "listed", "given", "recorded",
	"ever", "still", "just", "really", "actually", "altogether", "approximately", "roughly")

// sequenceWords place a row relative to another by position in the table ("the circuit listed
// below Enna", "the competition after the Fairs Cup"); outside a comparison they block, since a
// table's order is not a column.
var sequenceWords = set("after", "before", "below", "above", "under", "following", "preceding",
	"next", "previous", "prior", "last", "first", "then", "later", "earlier", "between")

// negations turn a condition around; each must be taken by the condition it precedes.
var negations = set("not", "n't", "no", "non", "never", "without", "except", "excluding", "neither", "nor", "besides", "outside")

// exclusions are the two-word negations of a value: "other than Townsville".
var exclusions = set("other than", "apart from", "aside from", "rather than")

// sizeLemmas make a superlative rank groups by their number of rows.
var sizeLemmas = set("many", "few", "common", "frequent", "popular", "prevalent", "usual", "much", "little", "rare", "preferred", "favorite", "favourite")

// amountLemmas are the superlatives of quantity: "the most votes" ranks by Votes when Votes is
// a number, and by how many rows when it names rows ("the most billionaires").
var amountLemmas = set("many", "few", "much", "little")

// kindNouns ask for the different values of a column: "how many surface types", "how many
// kinds of rooms", "the most frequent age group" (groups and brackets of a column's values).
var kindNouns = set("type", "kind", "sort", "variety", "group", "category", "bracket", "band")

// countNouns ask for a number of rows: "the highest number of survivors".
var countNouns = set("number", "count", "amount", "frequency", "representation", "occurrence", "quantity", "total")

// degreeLemmas are superlatives of a column's own scale: "the highest fare", "the top rank".
var degreeLemmas = set("high", "low", "large", "small", "big", "great", "maximum", "minimum", "top", "bottom", "long", "short")

// lowPole lists the adjectives at the low end of their scale: "the youngest" is the smallest
// age, "the cheapest" the smallest price. WordNet relates old and young to age but does not
// say which end each is.
var lowPole = set("young", "low", "small", "short", "cheap", "poor", "few", "little", "light", "slow",
	"early", "thin", "narrow", "shallow", "weak", "minimum", "bottom", "least", "rare")

// negativePrefixes make an adjective of the other end of its stem's scale: "unhappy",
// "insecure", "dishonest".
var negativePrefixes = []string{"un", "in", "im", "il", "ir", "dis", "non"}

// lowEnd reports an adjective at the low end of its scale: one of lowPole, or an English
// adjective made by a negative prefix on one at the high end ("the unhappiest" is the lowest
// happiness; "the unhealthiest" the lowest health), as WordNet's lexicon knows the stem.
func (rd *reader) lowEnd(lemma string) bool {
	if lowPole[lemma] {
		return true
	}
	lx := rd.ix.Lexicon()
	for _, p := range negativePrefixes {
		if stem, ok := strings.CutPrefix(lemma, p); ok && len(stem) > 2 && lx.POS(lemma).Has(language.Adjective) &&
			lx.POS(stem).Has(language.Adjective) {
			return !lowPole[stem]
		}
	}
	return false
}

// moneyAdjectives order by the table's money column: "the richest", "the most expensive".
var moneyAdjectives = set("rich", "wealthy", "poor", "expensive", "cheap", "costly", "pricey", "affluent")

// rankColumns are columns where a small number is the better place: "the top 5 ranks" are
// 1 to 5.
var rankColumns = set("rank", "ranking", "position", "place", "standing", "seed")

// idColumns end the names of columns that number rows rather than measure them: "Incident
// Number", "customer_id". "The highest number of incidents" counts rows; it does not rank ids.
var idColumns = set("id", "number", "key", "no", "code", "num")

// aggWords name an aggregate.
var aggWords = map[string]Agg{
	"average": Mean, "mean": Mean, "avg": Mean, "total": Sum, "sum": Sum, "median": Median,
	"maximum": Max, "max": Max, "minimum": Min, "min": Min, "highest": Max, "lowest": Min,
}

// distinctWords turn a count into a count of different values.
var distinctWords = set("unique", "distinct", "different")

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// content reports whether a token carries content that some rule must account for: nouns,
// adjectives, verbs, adverbs of degree, numbers, names, quoted values, dates and comparison
// operators. Function words (determiners, prepositions, pronouns, auxiliaries, conjunctions,
// wh-words) and punctuation never do.
func content(t language.Token) bool {
	switch t.Kind {
	case language.Number, language.Date, language.Quoted, language.Name, language.Operator:
		return true
	case language.Punct:
		return false
	}
	if harmless[t.Lower] || harmless[t.Lemma] || personWords[t.Lemma] || tableWords[t.Lemma] {
		return false
	}
	switch {
	case t.IsNoun(), t.IsAdjective():
		return true
	case t.IsVerb():
		return !lightVerbs[t.Lemma] && !lightVerbs[t.Lower]
	case strings.HasPrefix(t.POS, "RB"):
		return true // "significantly", "only", "again": an adverb not known harmless may change the question
	}
	return false
}

// lemmaOfColumn returns the last word of a column's name in lowercase: "finalWorth" → worth,
// "Age" → age, "Passenger Class" → class.
func lemmaOfColumn(name string) string {
	words := columnWords(name)
	if len(words) == 0 {
		return strings.ToLower(name)
	}
	return words[len(words)-1]
}

// columnWords splits a column's name into lowercase words, as the linker does.
func columnWords(name string) []string { return schema.NameWords(name) }
