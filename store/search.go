package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
)

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
// (50 when zero). Other users' conversations are never read.
func (db *DB) SearchConversations(ctx context.Context, userID, query string, limit int) ([]SearchHit, error) {
	match := MatchQuery(query)
	if match == "" {
		return nil, nil
	}
	if limit <= 0 {
		limit = 50
	}
	hits, docs, err := db.bestHits(ctx, userID, match, limit)
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	if err := db.fillSnippets(ctx, match, hits, docs); err != nil {
		return nil, fmt.Errorf("store: search snippets: %w", err)
	}
	return hits, nil
}

// bestHits finds the user's matching conversations and, for each, the
// document that matched best; docs holds those documents' rowids in order.
func (db *DB) bestHits(ctx context.Context, userID, match string, limit int) ([]SearchHit, []int64, error) {
	// The bare columns d.id, d.kind and d.anchor come from the row of MIN(d.id),
	// which SQLite guarantees for a query with a single MIN aggregate: the
	// oldest document, so a title before the first question before its
	// answer. Ranking by bm25 instead costs ten times more on a common word.
	rows, err := db.db.QueryContext(ctx, `WITH best AS (
			SELECT d.conversation_id, d.id, d.kind, d.anchor, MIN(d.id)
			FROM search_fts f JOIN search_docs d ON d.id = f.rowid
			WHERE search_fts MATCH ? AND d.user_id = ?
			GROUP BY d.conversation_id)
		SELECT `+prefixed("c", conversationColumns)+`, b.id, b.kind, b.anchor, 0
		FROM best b JOIN conversations c ON c.id = b.conversation_id
		ORDER BY c.updated_at DESC, c.id DESC
		LIMIT ?`, match, userID, limit)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var hits []SearchHit
	var docs []int64
	for rows.Next() {
		var h SearchHit
		var doc int64
		var first int64
		conv, err := scanConversation(scanWith(rows, &doc, &h.Kind, &h.Anchor, &first))
		if err != nil {
			return nil, nil, err
		}
		h.Conversation = conv
		hits, docs = append(hits, h), append(docs, doc)
	}
	return hits, docs, rows.Err()
}

// fillSnippets computes the passage of each hit's document in one query;
// snippet() is dear, so it runs only on the documents shown.
func (db *DB) fillSnippets(ctx context.Context, match string, hits []SearchHit, docs []int64) error {
	if len(docs) == 0 {
		return nil
	}
	ids, _ := json.Marshal(docs)
	rows, err := db.db.QueryContext(ctx, `SELECT rowid, snippet(search_fts, 0, ?, ?, '…', ?)
		FROM search_fts WHERE search_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
		HitStart, HitEnd, snippetTokens, match, string(ids))
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

// MatchQuery turns what a person typed into an FTS5 query: every word must
// occur, each as a prefix. Words are split as the index's tokenizer splits
// them and quoted, so that no character of the input is FTS5 syntax.
func MatchQuery(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	terms := make([]string, 0, len(words))
	for _, w := range words {
		terms = append(terms, `"`+w+`"*`)
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
