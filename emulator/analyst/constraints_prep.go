package analyst

import (
	"strings"
)

// missingWords name a missing value.
var missingWords = setOf("missing", "null", "nulls", "nan", "nans", "na", "empty", "blank", "none", "n/a", "incomplete")

// rowWords are the fillers of "drop any rows that have …".
var rowWords = setOf("all", "any", "the", "rows", "row", "records", "record", "entries", "entry", "observations",
	"lines", "samples", "data", "points", "passengers", "with", "that", "have", "has", "having", "contain",
	"containing", "where", "which", "a", "cases")

// readDropMissing reads "drop rows with missing values (in Age) first", "ignore missing
// values", "dropna", "remove rows where Age is missing".
func (r *clauseReader) readDropMissing(i int) int {
	if r.is(i, "dropna", "dropna()") {
		r.ref.Drop = "any"
		end := i + 1
		for r.is(end, "(", ")") {
			end++
		}
		r.edit(r.lead(i), end, "")
		return end
	}
	verb := r.word(i)
	mode := map[string]string{"drop": "any", "remove": "any", "delete": "any", "discard": "any", "dropping": "any",
		"removing": "any", "exclude": "used", "excluding": "used", "ignore": "used", "ignoring": "used",
		"omit": "used", "omitting": "used", "skip": "used", "skipping": "used"}[verb]
	if mode == "" {
		return i
	}
	return r.dropRest(i, i+1, mode)
}

// dropRest reads a drop of missing values after its verb at i, from j: "rows with missing
// values (in Age)", "rows where Age is missing"; "… and duplicates" removes those too.
func (r *clauseReader) dropRest(i, j int, mode string) int {
	j = r.skip(j, rowWords)
	var cols []string
	if !missingWords[r.word(j)] {
		// "remove rows where Age is missing"
		c, k := r.columnList(j)
		if len(c) == 0 || !r.is(k, "is", "are") || !missingWords[r.word(k+1)] {
			return i
		}
		cols, j = c, k+1
	}
	j++
	if c, k := r.columnList(j); len(c) > 0 && len(cols) == 0 {
		cols, j = c, k // "rows with missing Age"
	}
	j = r.skip(j, setOf("values", "value", "data", "entries", "cells", "fields", "rows"))
	if r.is(j, "in", "for", "of", "from") {
		if c, k := r.columnList(r.skip(j+1, setOf("the"))); len(c) > 0 {
			cols, j = c, k
			j = r.skip(j, setOf("column", "columns"))
		}
	}
	end := r.trail(j)
	if r.is(end, "and") && r.is(r.skip(end+1, setOf("any", "all", "the")), "duplicates", "duplicate", "duplicated") {
		r.ref.Dedupe = true
		end = r.trail(r.skip(r.skip(end+1, setOf("any", "all", "the"))+1, setOf("rows", "records", "entries")))
	}
	r.ref.Drop = mode
	if len(cols) > 0 {
		r.ref.Drop, r.ref.DropOn = "cols", cols
	}
	r.edit(r.lead(i), end, "")
	return end
}

// readMissingPassive reads "missing values should be ignored", "NaNs are dropped".
func (r *clauseReader) readMissingPassive(i int) int {
	if !missingWords[r.word(i)] {
		return i
	}
	j := r.skip(i+1, setOf("values", "value", "data", "entries", "cells"))
	j = r.skip(j, setOf("should", "must", "are", "will", "can", "be", "to", "get"))
	mode := map[string]string{"ignored": "used", "excluded": "used", "skipped": "used", "omitted": "used",
		"dropped": "any", "removed": "any", "deleted": "any", "discarded": "any"}[r.word(j)]
	if mode == "" || j == i+1 {
		return i
	}
	start := i
	for start > 0 && r.is(start-1, "all", "any", "the") {
		start--
	}
	r.ref.Drop = mode
	end := r.trail(j + 1)
	r.edit(r.lead(start), end, "")
	return end
}

// readFill reads "fill missing values with the median", "impute missing Age with its mean",
// "replace NaN in Embarked with the mode", "fill missing ages with 0".
func (r *clauseReader) readFill(i int) int {
	if !r.is(i, "fill", "impute", "replace", "substitute", "filling", "imputing", "replacing") {
		return i
	}
	j := i + 1
	var cols []string
	sawMissing := false
	for j < len(r.ws) && !r.is(j, "with", "by", "using") {
		switch {
		case missingWords[r.word(j)]:
			sawMissing = true
			j++
		case fillFiller[r.word(j)]:
			j++
		default:
			c, k := r.columnList(j)
			if len(c) == 0 {
				return r.fillUnread(i, j, sawMissing)
			}
			cols, j = append(cols, c...), k
		}
	}
	if !sawMissing && r.word(i) != "impute" && r.word(i) != "imputing" {
		return i // "replace" alone is no fill
	}
	if j >= len(r.ws) {
		return r.fillUnread(i, j, true)
	}
	how, value, end := r.fillValue(r.skip(j+1, setOf("the", "its", "their", "each", "column", "column's", "columns'", "a", "respective")))
	if how == "" {
		return r.fillUnread(i, j+1, true)
	}
	end = r.skip(end, setOf("value", "values", "of", "the", "column", "columns", "each", "respective"))
	for _, c := range cols {
		if k := r.columnAt(end, c); k > end {
			end = k // "with the median age"
		}
	}
	if len(cols) == 0 {
		if c, k := r.columnList(end); len(c) > 0 && r.is(end-1, "of") {
			end = k
		}
	}
	end = r.trail(end)
	r.ref.Fills = append(r.ref.Fills, fillSpec{Cols: cols, How: how, Value: value})
	r.edit(r.lead(i), end, "")
	return end
}

var fillFiller = setOf("in", "the", "all", "any", "values", "value", "entries", "data", "cells", "of", "for", "from", "column", "columns", "gaps")

// fillUnread declines a fill it cannot read ("fill missing values by interpolation").
func (r *clauseReader) fillUnread(i, j int, missing bool) int {
	if !missing {
		return i
	}
	end := j
	for end < len(r.ws) && !r.is(end, ",", ".", ";", "then") {
		end++
	}
	r.unread(i, end, "fill missing values with the median", "drop rows with missing values")
	return end
}

// fillValue reads what fills the gaps: mean, median, mode, most frequent, zero, a number or a
// quoted string.
func (r *clauseReader) fillValue(i int) (how, value string, end int) {
	switch w := r.word(i); {
	case w == "mean" || w == "average" || w == "avg":
		return "mean", "", i + 1
	case w == "median":
		return "median", "", i + 1
	case w == "mode":
		return "mode", "", i + 1
	case w == "most" && r.is(i+1, "frequent", "common"):
		return "mode", "", i + 2
	case w == "zero" || w == "zeros" || w == "zeroes":
		return "value", "0", i + 1
	case i < len(r.ws) && r.ws[i].num:
		return "value", r.ws[i].s, i + 1
	case r.is(i, "-") && i+1 < len(r.ws) && r.ws[i+1].num:
		return "value", "-" + r.ws[i+1].s, i + 2
	case i < len(r.ws) && r.ws[i].quoted:
		return "value", pyStr(r.ws[i].s), i + 1
	}
	return "", "", i
}

// readDedupe reads "remove duplicate rows", "drop duplicates first", "deduplicate the data".
func (r *clauseReader) readDedupe(i int) int {
	end := 0
	switch {
	case r.is(i, "dedupe", "deduplicate", "de-duplicate", "deduplicated", "drop_duplicates"):
		end = r.skip(i+1, setOf("the", "data", "rows", "table", "dataset", "file", "(", ")"))
	case r.is(i, "drop", "remove", "delete", "eliminate", "discard", "dropping", "removing", "without"):
		j := r.skip(i+1, setOf("any", "all", "the", "exact", "fully"))
		if !r.is(j, "duplicate", "duplicates", "duplicated") {
			return i
		}
		end = r.skip(j+1, setOf("rows", "row", "records", "entries", "lines", "values"))
	default:
		return i
	}
	end = r.trail(end)
	r.ref.Dedupe = true
	if r.is(end, "and") {
		if n := r.dropRest(i, end+1, "any"); n > end+1 {
			r.edits = r.edits[:len(r.edits)-1] // one edit for the whole clause
			end = n
		}
	}
	r.edit(r.lead(i), end, "")
	return end
}

// readScale reads "min-max scale Fare", "normalize Fare (with min-max scaling)", "standardize
// Age", "z-score normalize Age": the clause becomes the columns' names, so that the statistic
// asked is of the scaled columns.
func (r *clauseReader) readScale(i int) int {
	if len(r.ref.Scales) > 0 && r.is(i, "normalized", "normalised", "scaled", "rescaled", "standardized", "standardised", "transformed") {
		if cols, _ := r.columnList(r.skip(i+1, setOf("the", "column", "columns"))); len(cols) == 0 {
			r.edit(i, i+1, "") // "the mean of the normalized values": the column just scaled
			return i + 1
		}
	}
	how, j := "", i
	switch {
	case r.is(i, "min-max", "minmax") && r.is(i+1, "scale", "normalize", "normalise", "scaling", "normalization"):
		how, j = "minmax", i+2
	case r.is(i, "z-score", "zscore") && r.is(i+1, "normalize", "normalise", "standardize", "standardise", "scale"):
		how, j = "z", i+2
	case r.is(i, "normalize", "normalise", "rescale", "scale", "normalized", "scaled"):
		how, j = "minmax", i+1
	case r.is(i, "standardize", "standardise", "standardized"):
		how, j = "z", i+1
	default:
		return i
	}
	cols, end := r.columnList(r.skip(j, setOf("the", "column", "columns")))
	if len(cols) == 0 {
		return i
	}
	end = r.skip(end, setOf("column", "columns", "values"))
	if r.is(end, "with", "using", "by", "to") {
		k := r.skip(end+1, setOf("a", "the"))
		switch {
		case r.is(k, "min-max", "minmax", "0-1") || r.is(k, "[") || r.is(k, "0") && r.is(k+1, "-", "to", ","):
			how, end = "minmax", r.scaleTail(k)
		case r.is(k, "z-score", "zscore", "z-scores", "standard", "standardization", "standardisation"):
			how, end = "z", r.scaleTail(k+1)
		case r.is(k, "robust", "log", "max-abs", "maxabs", "quantile", "unit"):
			r.unread(i, k+2, "min-max scale "+cols[0], "standardize "+cols[0])
			return k + 2
		}
	}
	end = r.trail(end)
	r.ref.Scales = append(r.ref.Scales, scaleSpec{Cols: cols, How: how})
	r.edit(r.lead(i), end, strings.Join(cols, " and "))
	return end
}

// scaleTail moves past "min-max scaling", "[0, 1]", "0 to 1", "the 0-1 range".
func (r *clauseReader) scaleTail(k int) int {
	return r.skip(k, setOf("min-max", "minmax", "scaling", "scaler", "normalization", "normalisation", "scores",
		"[", "]", "0", "1", "-", "to", ",", "range", "0-1", "z-score", "standardization"))
}

// readEncode reads "label encode Sex", "encode Sex as numbers", "one-hot encode Embarked".
func (r *clauseReader) readEncode(i int) int {
	how, j := "", i
	switch {
	case r.is(i, "one-hot", "onehot") && r.is(i+1, "encode", "encoding"):
		how, j = "onehot", i+2
	case r.is(i, "one") && r.is(i+1, "hot") && r.is(i+2, "encode"):
		how, j = "onehot", i+3
	case r.is(i, "label", "ordinal") && r.is(i+1, "encode"):
		how, j = "label", i+2
	case r.is(i, "encode", "label-encode"):
		how, j = "label", i+1
	default:
		return i
	}
	cols, end := r.columnList(r.skip(j, setOf("the", "column", "columns")))
	if len(cols) == 0 {
		return i
	}
	end = r.skip(end, setOf("column", "columns", "as", "numbers", "numerically", "integers", "codes", "numeric", "0/1", "into", "with", "label", "encoding", "dummies", "dummy", "variables"))
	end = r.trail(end)
	repl := ""
	for _, c := range cols {
		r.ref.Encodes = append(r.ref.Encodes, encodeSpec{Col: c, How: how})
	}
	if how == "label" {
		repl = strings.Join(cols, " and ")
	}
	r.edit(r.lead(i), end, repl)
	return end
}
