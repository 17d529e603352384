package store

import (
	"context"
	"database/sql"
	"strings"
)

// snippetTokens is how many words of context a snippet keeps around its hit.
const snippetTokens = 12

// ftsSnippets has FTS5 cut the passages; snippet() is dear, so it runs
// only on the documents shown. The query reads the matches between the
// oldest and the newest of those documents in FTS5's own order and keeps
// the ones shown: looking each document up by rowid instead starts the
// query's term iterators over for every one, which costs more than
// stepping through the (at most SearchCandidates) matches between them.
func ftsSnippets(ctx context.Context, q querier, list, match string, _ []string, ids string, first, last int64) (map[int64]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT rowid, snippet(search_fts, 0, ?, ?, '…', ?)
		FROM search_fts WHERE search_fts MATCH `+matchLiteral(match)+` AND rowid BETWEEN ? AND ?
		AND +rowid IN (SELECT value FROM `+list+`)`,
		HitStart, HitEnd, snippetTokens, first, last, ids)
	if err != nil {
		return nil, err
	}
	return scanSnippets(rows, func(s string) string { return s })
}

// tsSnippets reads the shown documents' texts and cuts their passages here
// (see snippet): ts_headline would parse the text with PostgreSQL's own
// parser, which reads "df.groupby" as one word the index never holds.
func tsSnippets(ctx context.Context, q querier, list, _ string, words []string, ids string, _, _ int64) (map[int64]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, body FROM search_docs
		WHERE id IN (SELECT CAST(value AS BIGINT) FROM `+list+`)`, ids)
	if err != nil {
		return nil, err
	}
	return scanSnippets(rows, func(body string) string { return snippet(body, words, snippetTokens) })
}

// scanSnippets reads (document id, text) rows into a map, through cut.
func scanSnippets(rows *sql.Rows, cut func(string) string) (map[int64]string, error) {
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var doc int64
		var s string
		if err := rows.Scan(&doc, &s); err != nil {
			return nil, err
		}
		out[doc] = cut(s)
	}
	return out, rows.Err()
}

// snippet cuts from body the passage of n words with the most words that
// start with one of words (the first such passage, begun a word or two
// before its first hit), marks those between HitStart and HitEnd, and puts
// "…" where the passage cuts the text, as FTS5's snippet() does.
func snippet(body string, words []string, n int) string {
	spans := wordSpans(body)
	if len(spans) == 0 {
		return ""
	}
	hit := make([]bool, len(spans))
	for i, sp := range spans {
		hit[i] = matchesAny(foldWord(body[sp[0]:sp[1]]), words)
	}
	from := passageStart(hit, n)
	to := min(from+n, len(spans))
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	pos := spans[from][0]
	for i := from; i < to; i++ {
		b.WriteString(body[pos:spans[i][0]])
		w := body[spans[i][0]:spans[i][1]]
		if hit[i] {
			w = HitStart + w + HitEnd
		}
		b.WriteString(w)
		pos = spans[i][1]
	}
	if to < len(spans) {
		b.WriteString("…")
	}
	return b.String()
}

// wordSpans returns the byte offsets [start, end) of each word of s.
func wordSpans(s string) [][2]int {
	var spans [][2]int
	start := -1
	for i, r := range s {
		switch {
		case !notWordRune(r) && start < 0:
			start = i
		case notWordRune(r) && start >= 0:
			spans = append(spans, [2]int{start, i})
			start = -1
		}
	}
	if start >= 0 {
		spans = append(spans, [2]int{start, len(s)})
	}
	return spans
}

func matchesAny(w string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// passageStart is where the passage of n words with the most hits begins:
// the first such window, moved to begin up to two words before its first hit.
func passageStart(hit []bool, n int) int {
	best, bestHits := 0, -1
	for from := 0; from == 0 || from+n <= len(hit); from++ {
		count := 0
		for i := from; i < min(from+n, len(hit)); i++ {
			if hit[i] {
				count++
			}
		}
		if count > bestHits {
			best, bestHits = from, count
		}
	}
	for i := best; i < min(best+n, len(hit)); i++ {
		if hit[i] {
			return max(0, min(i-2, len(hit)-n))
		}
	}
	return best
}
