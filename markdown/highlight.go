package markdown

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Highlight returns code as <pre class="chroma"><code>…</code></pre>, its tokens marked with
// chroma's CSS classes, which CodeCSS styles. lang is a chroma lexer name or alias such as
// "python" or "py"; code in an unknown language is escaped and left plain. The result is
// safe to write into a page as it is; results are cached, since the same cell is shown
// again and again.
func Highlight(code, lang string) string {
	key := strings.ToLower(lang) + "\x00" + code
	if html, ok := blocks.get(key); ok {
		return html
	}
	html := highlight(code, lang)
	blocks.put(key, html)
	return html
}

// maxHighlight is the most code Highlight colours. Chroma takes milliseconds per few
// kilobytes, and a block still streaming is lexed again at every re-render; past this size
// the code stays plain.
const maxHighlight = 16 << 10

// highlight does Highlight's work, without the cache.
func highlight(code, lang string) string {
	if len(code) > maxHighlight {
		lang = ""
	}
	var b strings.Builder
	b.Grow(len(code) * 3)
	it, err := lexer(lang).Tokenise(nil, code)
	if err == nil {
		err = formatter.Format(&b, styles.Fallback, it)
	}
	if err != nil {
		// Chroma's lexers only fail on a broken lexer definition; plain text is still better
		// than losing the code.
		b.Reset()
		it, _ = lexers.Fallback.Tokenise(nil, code)
		_ = formatter.Format(&b, styles.Fallback, it)
	}
	return b.String()
}

// formatter writes classes rather than inline styles: the app's CSP forbids style
// attributes, and classes let one stylesheet follow the light or dark theme.
var formatter = html.New(html.WithClasses(true))

// lexerCache holds lexer look-ups by language name: chroma falls back to matching the name
// against every lexer's file patterns when it is not a known alias, which is slow, and an
// answer is re-rendered many times while it streams. The names come from model output, so
// the cache stops growing at maxCachedLexers.
var (
	lexerCache  sync.Map // lower-cased name → chroma.Lexer
	lexerCached atomic.Int32
)

const maxCachedLexers = 512

// lexer returns the coalesced lexer for lang, or the plain-text one.
func lexer(lang string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if l, ok := lexerCache.Load(lang); ok {
		return l.(chroma.Lexer)
	}
	var l chroma.Lexer
	if lang != "" && len(lang) <= 32 {
		l = lexers.Get(lang)
	}
	if l == nil {
		l = lexers.Fallback
	}
	l = chroma.Coalesce(l)
	if lexerCached.Add(1) <= maxCachedLexers {
		lexerCache.Store(lang, l)
	}
	return l
}
