package analyst

import (
	"fmt"
	"strings"
)

// The sentences of models: the score on the held-out rows first, then how the model was fitted
// and split (so the numbers can be reproduced), then its coefficients or confusion matrix.

// splitSaid says how the rows were split, from the marker's split fields.
func splitSaid(m marker) string {
	if fittedOnAll(m) {
		return fmt.Sprintf("fitted and scored on all %s rows (no test split was asked for)", m.str("n_train")) + droppedSaid(m)
	}
	return fmt.Sprintf("fitted on %s rows, scored on %s held-out rows (train_test_split with test_size %s and random_state %s)",
		m.str("n_train"), m.str("n_test"), m.str("test_size"), m.str("seed")) + droppedSaid(m)
}

// fittedOnAll reports whether a model was fitted on every row, with no test split.
func fittedOnAll(m marker) bool {
	size, _ := m.num("test_size")
	return size == 0
}

func droppedSaid(m marker) string {
	if d, _ := m.num("dropped"); d > 0 {
		return fmt.Sprintf("; %s rows with a missing value were left out", m.str("dropped"))
	}
	return ""
}

func regressionSentence(m marker) string {
	what := "Linear regression"
	if m.str("model") == "poly" {
		what = "Polynomial regression of degree " + m.str("degree")
	}
	var coefs []string
	for _, it := range m.list("coefs") {
		if p, _ := it.([]any); len(p) == 2 {
			coefs = append(coefs, fmt.Sprintf("`%s` %s", fmtAny(p[0]), fmtAny(p[1])))
		}
	}
	scored := fmt.Sprintf("on the held-out rows **R² = %s** and **RMSE = %s** (R² %s on the training rows)", fmtCorr(numOf(m["r2"])), m.str("rmse"), fmtCorr(numOf(m["r2_train"])))
	if fittedOnAll(m) {
		scored = fmt.Sprintf("**R² = %s** and **RMSE = %s**", fmtCorr(numOf(m["r2"])), m.str("rmse"))
	}
	return fmt.Sprintf("%s of `%s`: %s. Fitted with scikit-learn's LinearRegression, %s. Coefficients: %s; intercept %s.",
		what, m.str("target"), scored, splitSaid(m), strings.Join(coefs, ", "), m.str("intercept"))
}

func classifierSentence(m marker) string {
	what := "Logistic regression"
	if m.str("model") == "tree" {
		what = "Decision-tree classifier"
		if d, _ := m.num("max_depth"); d > 0 {
			what += " (max depth " + m.str("max_depth") + ")"
		}
	}
	weights := pairs(m.list("weights"), 8)
	wordW := "Coefficients (log-odds)"
	if m.str("model") == "tree" {
		wordW = "Most important features"
	}
	s := fmt.Sprintf("%s predicting `%s`: **accuracy %s** on the held-out rows, against %s from always guessing the most common class; %s.",
		what, m.str("target"), fmtCorr(numOf(m["accuracy"])), fmtCorr(numOf(m["majority"])), splitSaid(m))
	if weights != "" {
		s += " " + wordW + ": " + weights + "."
	}
	if table := confusionTable(m); table != "" {
		s += "\n\nConfusion matrix on the held-out rows:\n\n" + table
	}
	return s
}

// confusionTable is the classifier's confusion matrix with its axes named; the cell does not
// print it, so this is the one place it is shown.
func confusionTable(m marker) string {
	labels := m.list("labels")
	cols := append([]any{"actual \\ predicted"}, labels...)
	var rows []any
	for i, r := range m.list("matrix") {
		cells, _ := r.([]any)
		if i < len(labels) {
			rows = append(rows, append([]any{labels[i]}, cells...))
		}
	}
	return mdTable(marker{"columns": cols, "rows": rows})
}

func kmeansSentence(m marker) string {
	s := fmt.Sprintf("k-means with **k = %s** on %s (%s rows, unscaled values, n_init 10, random_state 42): cluster sizes **%s**; inertia %s.",
		m.str("k"), quoteAny(m.list("features")), m.str("n"), joinAny(m.list("sizes"), 50), m.str("inertia"))
	if d, _ := m.num("dropped"); d > 0 {
		s += fmt.Sprintf(" %s rows with a missing value were left out.", m.str("dropped"))
	}
	if len(m.list("rows")) > 0 {
		s += " The cluster centres are in the table above."
	}
	return s
}

// quoteAny writes a marker's list of names as code spans.
func quoteAny(items []any) string {
	var names []string
	for _, it := range items {
		names = append(names, fmtAny(it))
	}
	return quoteList(names)
}

func naiveSentence(m marker) string {
	step := strings.TrimSuffix(m.str("step"), " 00:00:00")
	return fmt.Sprintf("**Naive forecast — not a model: `%s` stays at %s, its last observed value (%s), for the next %s steps** (%s to %s, one step = %s, the median spacing of `%s`). "+
		"A naive forecast carries the last value forward; it is a baseline to beat, with no trend, no seasonality and no uncertainty.",
		m.str("col"), m.str("last"), m.str("last_date"), m.str("horizon"), fmtLabel(m["first"]), fmtLabel(m["end"]), step, m.str("date"))
}
