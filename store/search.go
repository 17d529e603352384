package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
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
	words := searchWords(query)
	if len(words) == 0 {
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
	s := db.d.search
	match := s.match(words)
	hits, docs, err := db.bestHits(ctx, s.bestSQL(match), userID, match, limit)
	if err != nil {
		return nil, searchError(ctx, "search", err)
	}
	if len(docs) == 0 {
		return hits, nil
	}
	ids := jsonList(docs)
	snippets, err := s.snippets(ctx, db.q, db.d.list("?"), match, words, ids, slices.Min(docs), slices.Max(docs))
	if err != nil {
		return nil, searchError(ctx, "search snippets", err)
	}
	for i, doc := range docs {
		hits[i].Snippet = snippets[doc]
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

// searchDialect is how one back end searches: the two find the same
// documents and order them the same way (the oldest matching document of
// each conversation, the conversations newest first).
type searchDialect struct {
	// match turns the searched words into the back end's query.
	match func(words []string) string
	// bestSQL is the query that finds, for match (?1, or written into the
	// query) and a user (?2), up to ?3 matching conversations among those
	// of the ?4 newest matching documents (see SearchCandidates), each with
	// its best candidate's id, kind and anchor, and how many candidates
	// there were.
	bestSQL func(match string) string
	// snippets returns the passage of each document of the JSON list ids,
	// read from the table list, its matches between HitStart and HitEnd.
	// first and last are the lowest and highest of those ids.
	snippets func(ctx context.Context, q querier, list, match string, words []string, ids string, first, last int64) (map[int64]string, error)
}

// ftsSearch is SQLite's: the FTS5 table search_fts under search_docs' ids.
// FTS5 reads its matches newest first (ORDER BY rowid DESC is its own
// order) and the LIMIT stops it after the candidates. The bare columns id,
// kind and anchor come from the row of MIN(id), which SQLite guarantees for
// a query with a single MIN aggregate: the oldest candidate, so a title
// before the first question before its answer. Ranking by bm25 instead
// costs ten times more on a common word.
var ftsSearch = searchDialect{
	match: ftsMatch,
	bestSQL: func(match string) string {
		return `WITH candidates AS MATERIALIZED (
			SELECT d.conversation_id, d.id, d.kind, d.anchor
			FROM search_fts f JOIN search_docs d ON d.id = f.rowid
			WHERE search_fts MATCH ` + matchLiteral(match) + ` AND d.user_id = ?2
			ORDER BY f.rowid DESC LIMIT ?4),
		best AS (
			SELECT conversation_id, id, kind, anchor, MIN(id)
			FROM candidates GROUP BY conversation_id)
		SELECT ` + prefixed("c", conversationColumns) + `, b.id, b.kind, b.anchor, (SELECT COUNT(*) FROM candidates)
		FROM best b JOIN conversations c ON c.id = b.conversation_id
		ORDER BY c.updated_at DESC, c.id DESC
		LIMIT ?3`
	},
	snippets: ftsSnippets,
}

// tsSearch is PostgreSQL's: search_docs' tsvector column terms, matched by
// a prefix tsquery through its GIN index; DISTINCT ON keeps the oldest
// matching document of each conversation, as MIN(d.id) does in SQLite.
var tsSearch = searchDialect{
	match: tsMatch,
	bestSQL: func(string) string {
		return `WITH candidates AS MATERIALIZED (
			SELECT d.conversation_id, d.id, d.kind, d.anchor
			FROM search_docs d
			WHERE d.terms @@ to_tsquery('simple', ?1) AND d.user_id = ?2
			ORDER BY d.id DESC LIMIT ?4),
		best AS (
			SELECT DISTINCT ON (conversation_id) conversation_id, id, kind, anchor
			FROM candidates ORDER BY conversation_id, id)
		SELECT ` + prefixed("c", conversationColumns) + `, b.id, b.kind, b.anchor, (SELECT COUNT(*) FROM candidates)
		FROM best b JOIN conversations c ON c.id = b.conversation_id
		ORDER BY c.updated_at DESC, c.id DESC
		LIMIT ?3`
	},
	snippets: tsSnippets,
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

// bestHits runs a dialect's bestSQL, with more candidates while the page is
// not full and there may be more (see SearchCandidates); docs holds the
// hits' document ids in order.
func (db *DB) bestHits(ctx context.Context, query, userID, match string, limit int) ([]SearchHit, []int64, error) {
	for n := db.searchCandidates; ; n *= candidateGrowth {
		hits, docs, count, err := db.rankCandidates(ctx, query, userID, match, limit, n)
		if err != nil || len(hits) >= limit || count < int64(n) {
			return hits, docs, err
		}
	}
}

// rankCandidates ranks the conversations of the n newest matches; count is
// how many candidates there were (n when there may be more).
func (db *DB) rankCandidates(ctx context.Context, query, userID, match string, limit, n int) (hits []SearchHit, docs []int64, count int64, err error) {
	rows, err := db.q.QueryContext(ctx, query, match, userID, limit, n)
	if err != nil {
		return nil, nil, 0, err
	}
	return scanHits(rows)
}

// scanHits reads rows of a conversation, a document's id, kind and anchor,
// and a count, the same in every row.
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
