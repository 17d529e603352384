// Package schema links the phrases of a question, read by package language, to a table: to
// its columns, to values of its categorical and boolean columns, or to the rows themselves.
// Every phrase gets ranked candidates with scores, and a flag when the best two are too close
// to choose between, so that the analyst asks back only about what stays ambiguous.
//
// Scores follow the strength of the evidence: the column's name as written (1.0), the same
// words up to case, separators, camelCase and plural (0.97), the same lemmas (0.95), an
// abbreviation (0.75–0.85: temp, qty, pct, Pclass, tmax), a WordNet synonym (0.8: horsepower →
// hp), a derivation (0.75: survivors → Survived), an adjective's attribute (0.7: older → Age);
// a phrase naming only some of a column's words scores less (worth → finalWorth). Values score
// 0.85–0.95; a currency amount points to money columns at 0.5; a time word ("which month") to
// the one date or time-named column at 0.6 (0.5 each when there are several, so the analyst
// asks); the row entity scores 0.5–0.85. Compound names are read English-wise: the head of a
// name (its last word that is not an operation word, outside parentheses) weighs most in a
// partial match, and "type of complaint" or "siblings or spouses" are read as one phrase.
//
// UseScore (0.55) is where a link is taken as meant; on DataBench's 1,308 train and dev
// questions the linked columns reach precision 0.86 and recall 0.83 against the gold
// columns_used (TestDataBenchLinking).
package schema
