package analyst

import (
	"slices"
	"strconv"
	"strings"
)

// The parse of outlier rules: their method and threshold, or percentile bounds.

// readOutlierRule reads an outlier rule named by its method: "z-score above 3", "3 standard
// deviations", "1.5×IQR", "3 times the IQR", "beyond the 99th percentile". A question about
// outliers that names no method keeps the default 1.5×IQR (outlier stays "").
func readOutlierRule(ps *parsed, s *statAsk, q *Query) bool {
	switch {
	case ps.has("zscore") || ps.hasWord("z") && (ps.has("outlier") || ps.numAround(ps.wordAt("z"), 2) >= 0):
		s.outlier, s.k = "zscore", 3
		at := ps.at("zscore")
		if at < 0 {
			at = ps.wordAt("z")
			// "|z| > 3" names the score, never a value Z of some column (a wind direction).
			q.Filters = slices.DeleteFunc(q.Filters, func(x Filter) bool { return x.Kind == "cat" && strings.EqualFold(x.Value, "z") })
		}
		ps.taken[at] = true
		s.k, s.defaultK = paramNear(ps, s, at, 3)
		s.zSide = zSide(ps)
	case ps.has("std") && ps.has("outlier") || ps.has("std") && ps.numBefore(ps.at("std")) >= 0 && (ps.has("outlier") || ps.hasWord("from")):
		s.outlier = "zscore"
		s.k, s.defaultK = paramNear(ps, s, ps.at("std"), 3)
		q.Agg = "" // "3 standard deviations" is the threshold, not a statistic asked
		ps.taken[ps.at("std")] = true
	case ps.has("iqr") && !ps.has("outlier") && (ps.hasWord("range") || ps.hasWord("iqr") && ps.hasWord("of")):
		q.Agg = "iqr" // "the interquartile range of bmi" is a statistic, not a rule for outliers
		ps.taken[ps.at("iqr")] = true
		if i := ps.wordAt("range"); i >= 0 {
			ps.taken[i] = true
		}
		return false
	case ps.has("percentile") && !ps.has("outlier") && !slices.ContainsFunc(boundWords, ps.hasWord) && quantileAsked(ps, q):
		return false // "the 90th percentile of price" is a statistic
	case ps.has("iqr"):
		s.outlier = "iqr"
		s.k, s.defaultK = paramNear(ps, s, ps.at("iqr"), 1.5)
	case ps.has("percentile") && (ps.has("outlier") || ps.has(">") || ps.has("<") || slices.ContainsFunc(boundWords, ps.hasWord)):
		s.outlier = "percentile"
		readPercentiles(ps, s)
	default:
		return false
	}
	return true
}

// boundWords place values beyond a percentile.
var boundWords = []string{"beyond", "outside", "above", "below", "under", "over", "exceed", "exceeding", "flag"}

// paramNear reads the number of a threshold next to its name, after it ("z-score above 3",
// "IQR with k = 3") or before it ("3 sigma", "1.5 IQR", "3 times the IQR"); def when none is
// typed, and then defaulted is true.
func paramNear(ps *parsed, s *statAsk, at int, def float64) (v float64, defaulted bool) {
	j := ps.numAround(at, 4)
	if j < 0 {
		j = ps.numBefore(at)
	}
	if j < 0 {
		j = smallNumber(ps) // "z-score outliers in Score, threshold 2"
	}
	if j < 0 {
		return def, true
	}
	v, _ = parseNum(ps.toks[j].low)
	if v <= 0 {
		return def, true
	}
	s.take(ps, j)
	return v, false
}

// smallNumber returns the position of the first number not yet read that can be a threshold
// (above 0 and at most 10), or -1.
func smallNumber(ps *parsed) int {
	for i, t := range ps.toks {
		if v, _ := parseNum(t.low); t.num && !ps.taken[i] && v > 0 && v <= 10 {
			return i
		}
	}
	return -1
}

// readPercentiles reads the percentile bounds: "outside the 5th and 95th percentiles", "above
// the 99th percentile", "below the 1st percentile"; a single low bound without a direction is
// read both ways ("the 5th percentile" trims 5% at each end).
func readPercentiles(ps *parsed, s *statAsk) {
	var ps2 []float64
	for i, t := range ps.toks {
		v, ok := ordinalNumber(t.low)
		if !ok {
			continue
		}
		if v < 1 {
			v *= 100
		}
		if v > 0 && v < 100 {
			ps2 = append(ps2, v)
			s.take(ps, i)
			ps.taken[i] = true
		}
	}
	s.lowPct, s.highPct = 0, 100
	below := ps.has("<") || ps.hasWord("below") || ps.hasWord("under") || ps.has("bottom") || ps.has("min")
	switch {
	case len(ps2) >= 2:
		s.lowPct, s.highPct = min(ps2[0], ps2[1]), max(ps2[0], ps2[1])
	case len(ps2) == 1 && below:
		s.lowPct = ps2[0]
	case len(ps2) == 1 && ps2[0] >= 50:
		s.highPct = ps2[0]
	case len(ps2) == 1:
		s.lowPct, s.highPct = ps2[0], 100-ps2[0]
	default:
		s.lowPct, s.highPct, s.defaultK = 1, 99, true
	}
}

// ordinalNumber reads "99", "99th", "1st", "2.5th", "0.99".
func ordinalNumber(w string) (float64, bool) {
	for _, suf := range []string{"th", "st", "nd", "rd", "%"} {
		w = strings.TrimSuffix(w, suf)
	}
	v, err := strconv.ParseFloat(w, 64)
	return v, err == nil
}

// quantileAsked reads "the 90th percentile" (an ordinal right before the word) as the
// aggregation q90 and reports whether it did.
func quantileAsked(ps *parsed, q *Query) bool {
	at := ps.at("percentile")
	if at < 1 || !ordinalToken.MatchString(ps.toks[at-1].low) {
		return false
	}
	n, err := strconv.Atoi(strings.TrimRight(ps.toks[at-1].low, "stndrh"))
	if err != nil || n <= 0 || n >= 100 {
		return false
	}
	q.Agg = "q" + strconv.Itoa(n)
	ps.taken[at], ps.taken[at-1] = true, true
	return true
}

// zSide reads a one-sided z threshold: "a z-score above 2" counts the values above, unless the
// question speaks of outliers (which lie on either side) or of both directions.
func zSide(ps *parsed) string {
	if ps.has("outlier") || ps.hasWord("absolute") || ps.hasWord("|") || ps.hasWord("or") || ps.hasWord("either") || ps.hasWord("beyond") || ps.hasWord("outside") {
		return ""
	}
	up := ps.has(">") || ps.has(">=") || ps.hasWord("above") || ps.hasWord("over") || ps.hasWord("exceeding") || ps.hasWord("exceeds") || ps.hasWord("exceed")
	down := ps.has("<") || ps.has("<=") || ps.hasWord("below") || ps.hasWord("under")
	switch {
	case up && !down:
		return "above"
	case down && !up:
		return "below"
	}
	return ""
}
