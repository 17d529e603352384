// Package language reads an analyst's English question into tokens, tags, lemmas and a shallow
// parse, for the rule-based analyst to map onto a table. It knows grammar and English words;
// it knows nothing of any table (package schema links its output to columns and values).
//
// # Pipeline
//
// Read scans the question (the caller's Vocabulary names first, then quoted strings, dates,
// numbers, comparison symbols, words with their clitics split off), joins grammar phrases into
// Operator tokens ("more than", "at least", "or more") and month-name dates, tags the tokens
// with prose's averaged-perceptron tagger (github.com/jdkato/prose/v2, its embedded treebank
// model), corrects the tags where the lexicon is sure (a clause-initial verb before its object
// is an imperative, "Were" is a verb, "fare" after a determiner is a noun), lemmatises, splits
// the question into parts at clause joints, chunks each part and reads its question form.
//
// # Lexicon and lemmas
//
// The lexicon is WordNet 3.0 (Debian's wordnet-base), reduced by internal/wngen to lemmas with
// their parts of speech and senses, the morphological exception lists, noun and verb
// hypernyms, derivational links and adjective attributes, and embedded gzip-compressed
// (wordnet.gz, 1.47 MB; the licence is in WORDNET_LICENSE). It is decoded once, on first use,
// in about 65–100 ms on an idle machine. Regenerate with `go generate` after installing
// wordnet-base.
//
// Lemmas come from WordNet's own morphy (exception lists, then suffix rules checked against
// the lemma list), driven by the Penn tag, rather than from github.com/aaaton/golem: morphy
// needs no data beyond the WordNet table the lexicon embeds anyway, it uses the part of speech
// ("left"/VBD → leave, "left"/JJ → left; "better"/JJR → good), and golem v4's English
// dictionary is a separate module that the Go module proxy does not serve. Words WordNet lacks
// keep their form, except that regular plurals lose their ending ("pokemons" → pokemon).
//
// # What the parse gives
//
// Noun phrases with determiner, counts, modifiers, head and prepositional attachments (low
// attachment); verb groups; comparisons (operators, "-er than", "between … and …", "over 30",
// "after 2011"); superlatives ("the highest", "the 3 cheapest", "top 5", "most common",
// "the most billionaires"); coordinations; relative clauses (with who/which/that/whose, or a
// participle: "the fare paid by …"); and per part the question form (yes/no, how many, how
// much, how, wh, imperative, statement) with the phrase it focuses on. On DataBench's train and
// dev questions, 254 of the 262 boolean ones read as yes/no (the rest are statements to verify,
// "There are no tornadoes that …"), and no question of another answer type does.
//
// # Cost
//
// Once the lexicon and prose's model are loaded (together a few hundred milliseconds, once per
// process), Read takes a median of about 0.12 ms per corpus question on an idle core, most of it
// in prose's tagger (BenchmarkRead).
package language
