package markdown

import "sync"

// highlightCache keeps recent Highlight results. Chroma's lexers are regular-expression
// machines that take about a millisecond for a screenful of Python, and the app re-renders
// a streaming answer many times over, its finished code blocks unchanged each time.
//
// It has two generations: once the current one holds maxBytes, it becomes the previous one
// and the older is dropped; a hit in the previous generation moves the entry back. That
// keeps what is in use at a bounded cost without the bookkeeping of an LRU list. The
// versions of a block that is still streaming pass through and age out the same way.
type highlightCache struct {
	mu       sync.Mutex
	cur      map[string]string
	prev     map[string]string
	curBytes int
	maxBytes int
}

// blocks caches highlighted code blocks for every Render and Highlight in the process.
var blocks = newHighlightCache(1 << 20)

func newHighlightCache(maxBytes int) *highlightCache {
	return &highlightCache{cur: map[string]string{}, maxBytes: maxBytes}
}

// get returns the cached HTML for key.
func (c *highlightCache) get(key string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[key]; ok {
		return v, true
	}
	v, ok := c.prev[key]
	if ok {
		c.putLocked(key, v)
	}
	return v, ok
}

// put stores the HTML for key.
func (c *highlightCache) put(key, html string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(key, html)
}

func (c *highlightCache) putLocked(key, html string) {
	size := len(key) + len(html)
	if size > c.maxBytes/4 {
		return // one huge block would flush everything else
	}
	if c.curBytes+size > c.maxBytes {
		c.prev, c.cur, c.curBytes = c.cur, map[string]string{}, 0
	}
	c.cur[key] = html
	c.curBytes += size
}
