package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Search limits. A prefix term's cost grows with the words it matches and a
// query's cost faster than its number of terms, so what one person types
// must not decide how long a search holds a connection.
const (
	// MaxSearchWords is how many distinct words of a query are searched;
	// the rest are ignored.
	MaxSearchWords = 16
	// MinSearchWordLen is the fewest letters a searched word has: a single
	// letter as a prefix matches most of the index and finds nothing useful.
	MinSearchWordLen = 2
	// SearchTimeout bounds a search, waiting for its turn included. The
	// driver interrupts SQLite when the context ends, so the connection is
	// free again at once, and a search never outlives shutdown's grace.
	SearchTimeout = 1500 * time.Millisecond
	// searchConns is how many of the pool's maxConns connections searches
	// may hold at once.
	searchConns = 2
)

// ErrSearchTooSlow is returned when a search did not finish within
// SearchTimeout, or waited that long for a connection of its own.
var ErrSearchTooSlow = errors.New("store: search took too long")

// SearchKind says what part of a conversation a search hit is in.
type SearchKind string

// The kinds of text the search index holds (see migration 0010).
const (
	SearchTitle   SearchKind = "title"
	SearchMessage SearchKind = "message"
	SearchCode    SearchKind = "code"
	SearchFile    SearchKind = "file"
)

// Snippet markers: the index wraps each hit in them, and the view turns them
// into <mark> after escaping the rest. Control characters never occur in a
// title, a message or code that a person reads, so they cannot be forged.
const (
	HitStart = "\x02"
	HitEnd   = "\x03"
)

// snippetTokens is how many words of context a snippet keeps around its hit.
const snippetTokens = 12

// SearchHit is one of the user's conversations that matched a search, with
// the best matching passage of it.
type SearchHit struct {
	Conversation *Conversation
	Kind         SearchKind
	// Anchor is the id of the element the passage is in (run-…, cell-…,
	// file-…), empty for a title.
	Anchor string
	// Snippet is the passage, its matches between HitStart and HitEnd.
	Snippet string
}

// SearchConversations returns the user's conversations whose title,
// questions, answers, code or files match every word of query (each as a
// prefix, so that a word being typed matches), newest first, at most limit
// (50 when zero). Other users' conversations are never read. A search that
// takes longer than SearchTimeout fails with ErrSearchTooSlow.
func (db *DB) SearchConversations(ctx context.Context, userID, query string, limit int) ([]SearchHit, error) {
	match := MatchQuery(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	ctx, cancel := context.WithTimeoutCause(ctx, SearchTimeout, ErrSearchTooSlow)
	defer cancel()
	release, err := db.searchSlot(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	hits, docs, err := db.bestHits(ctx, userID, match, limit)
	if err != nil {
		return nil, searchError(ctx, "search", err)
	}
	if err := db.fillSnippets(ctx, match, hits, docs); err != nil {
		return nil, searchError(ctx, "search snippets", err)
	}
	return hits, nil
}

// searchSlot waits for one of the connections searches may hold and
// returns the function that gives it back.
func (db *DB) searchSlot(ctx context.Context) (release func(), err error) {
	select {
	case db.searches <- struct{}{}:
		return func() { <-db.searches }, nil
	case <-ctx.Done():
		return nil, searchError(ctx, "search", ctx.Err())
	}
}

// searchError names a search ended by its deadline ErrSearchTooSlow, so
// that the page can say so; a request the reader left stays context.Canceled.
func searchError(ctx context.Context, what string, err error) error {
	if errors.Is(context.Cause(ctx), ErrSearchTooSlow) {
		return ErrSearchTooSlow
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// SearchCandidates is how many matching passages a search ranks first:
// of the user's passages that match, the SearchCandidates most recently
// written are the candidates, and the conversations they are in are ranked
// (most recently updated first), each shown with its oldest candidate
// passage. If that does not fill the page and there were more matches,
// the search runs again with candidateGrowth times as many candidates,
// until the page is full or every match was a candidate. So a query
// matching fewer passages (every query but a very broad one, such as the
// first letters of a word most passages hold) ranks every match, as it
// always did, and so does one that fewer conversations match than a page
// holds. A broader one would cost in proportion to what it matches (32,000
// passages for three letters took 30 ms of the time of one keystroke);
// capped, its page is the conversations of the most recent matches.
const SearchCandidates = 1000

// candidateGrowth is how many times more candidates each further round of
// a search ranks.
const candidateGrowth = 8

// bestHits finds the user's matching conversations and, for each, the
// document that matched best; docs holds those documents' rowids in order.
// See SearchCandidates for which matches are ranked.
func (db *DB) bestHits(ctx context.Context, userID, match string, limit int) ([]SearchHit, []int64, error) {
	for n := db.searchCandidates; ; n *= candidateGrowth {
		hits, docs, capped, err := db.rankCandidates(ctx, userID, match, limit, n)
		if err != nil || len(hits) >= limit || !capped {
			return hits, docs, err
		}
	}
}

// rankCandidates ranks the conversations of the n newest matches; capped
// reports whether there were as many (so there may be more).
func (db *DB) rankCandidates(ctx context.Context, userID, match string, limit, n int) (hits []SearchHit, docs []int64, capped bool, err error) {
	// FTS5 reads its matches newest first (ORDER BY rowid DESC is its own
	// order) and the LIMIT stops it after the candidates. The bare columns
	// d.id, d.kind and d.anchor come from the row of MIN(d.id), which SQLite
	// guarantees for a query with a single MIN aggregate: the oldest
	// candidate, so a title before the first question before its answer.
	// Ranking by bm25 instead costs ten times more on a common word.
	rows, err := db.q.QueryContext(ctx, `WITH candidates AS MATERIALIZED (
			SELECT d.conversation_id, d.id, d.kind, d.anchor
			FROM search_fts f JOIN search_docs d ON d.id = f.rowid
			WHERE search_fts MATCH `+matchLiteral(match)+` AND d.user_id = ?
			ORDER BY f.rowid DESC LIMIT ?),
		best AS (
			SELECT conversation_id, id, kind, anchor, MIN(id)
			FROM candidates GROUP BY conversation_id)
		SELECT `+prefixed("c", conversationColumns)+`, b.id, b.kind, b.anchor, (SELECT COUNT(*) FROM candidates)
		FROM best b JOIN conversations c ON c.id = b.conversation_id
		ORDER BY c.updated_at DESC, c.id DESC
		LIMIT ?`, userID, n, limit)
	if err != nil {
		return nil, nil, false, err
	}
	hits, docs, count, err := scanHits(rows)
	return hits, docs, count >= int64(n), err
}

// scanHits reads the rows of rankCandidates; count is the value of their
// last column, the same in every row.
func scanHits(rows *sql.Rows) (hits []SearchHit, docs []int64, count int64, err error) {
	defer rows.Close()
	for rows.Next() {
		var h SearchHit
		var doc int64
		conv, err := scanConversation(scanWith(rows, &doc, &h.Kind, &h.Anchor, &count))
		if err != nil {
			return nil, nil, 0, err
		}
		h.Conversation = conv
		hits, docs = append(hits, h), append(docs, doc)
	}
	return hits, docs, count, rows.Err()
}

// fillSnippets computes the passage of each hit's document in one query;
// snippet() is dear, so it runs only on the documents shown. The query
// reads the matches between the oldest and the newest of those documents
// in FTS5's own order and keeps the ones shown: looking each document up
// by rowid instead starts the query's term iterators over for every one,
// which costs more than stepping through the (at most SearchCandidates)
// matches between them.
func (db *DB) fillSnippets(ctx context.Context, match string, hits []SearchHit, docs []int64) error {
	if len(docs) == 0 {
		return nil
	}
	ids, _ := json.Marshal(docs)
	rows, err := db.q.QueryContext(ctx, `SELECT rowid, snippet(search_fts, 0, ?, ?, '…', ?)
		FROM search_fts WHERE search_fts MATCH `+matchLiteral(match)+` AND rowid BETWEEN ? AND ?
		AND +rowid IN (SELECT value FROM json_each(?))`,
		HitStart, HitEnd, snippetTokens, slices.Min(docs), slices.Max(docs), string(ids))
	if err != nil {
		return err
	}
	defer rows.Close()
	snippets := make(map[int64]string, len(docs))
	for rows.Next() {
		var doc int64
		var s string
		if err := rows.Scan(&doc, &s); err != nil {
			return err
		}
		snippets[doc] = s
	}
	for i, doc := range docs {
		hits[i].Snippet = snippets[doc]
	}
	return rows.Err()
}

// matchLiteral quotes an FTS5 query (MatchQuery's) as an SQL string. A
// MATCH bound as a parameter makes SQLite prepare the statement a second
// time when it is run, its plan depending on the value; a search is one
// keystroke, and the second parse of its two statements was a tenth of
// its time. MatchQuery's terms hold only letters, digits, quotes and
// stars, and any single quote would be doubled all the same.
func matchLiteral(match string) string {
	return "'" + strings.ReplaceAll(match, "'", "''") + "'"
}

// MatchQuery turns what a person typed into an FTS5 query: every word must
// occur, each as a prefix. Words are split as the index's tokenizer splits
// them and quoted, so that no character of the input is FTS5 syntax. A word
// is searched once whatever its case, words shorter than MinSearchWordLen
// are left out, and only the first MaxSearchWords words count.
func MatchQuery(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	seen := make(map[string]bool, MaxSearchWords)
	terms := make([]string, 0, MaxSearchWords)
	for _, w := range words {
		w = strings.ToLower(w)
		if utf8.RuneCountInString(w) < MinSearchWordLen || seen[w] {
			continue
		}
		seen[w] = true
		terms = append(terms, `"`+w+`"*`)
		if len(terms) == MaxSearchWords {
			break
		}
	}
	return strings.Join(terms, " ")
}

// prefixed qualifies each of a comma-separated list of columns with table t.
func prefixed(t, columns string) string {
	cols := strings.Split(columns, ",")
	for i, c := range cols {
		cols[i] = t + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// extraScanner scans a row's leading columns with a rowScanner's caller and
// its trailing ones into extra.
type extraScanner struct {
	row   rowScanner
	extra []any
}

func (s extraScanner) Scan(dest ...any) error { return s.row.Scan(append(dest, s.extra...)...) }

// scanWith lets scanConversation read a row that has more columns after the
// conversation's, which go into extra.
func scanWith(row rowScanner, extra ...any) rowScanner { return extraScanner{row, extra} }
