package markdown

import (
	"regexp"
	"sync"

	"github.com/microcosm-cc/bluemonday"
)

// policy is the sanitizer's allow-list: the elements and attributes our rendering produces,
// and nothing that runs code or styles the page. It is the second line of defence; the
// renderer already escapes raw HTML and refuses unsafe links.
var policy = sync.OnceValue(func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote",
		"ul", "ol", "li", "em", "strong", "del", "code", "pre", "span",
		"table", "thead", "tbody", "tr", "th", "td")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("href", "title").OnElements("a")
	p.AllowAttrs("src", "alt", "title").OnElements("img")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("th", "td")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^num$`)).OnElements("th", "td")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^chroma$`)).OnElements("pre")
	// Chroma's token classes are short lower-case names: "k", "nf", "s2", "line", "cl".
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^[a-z][a-z0-9]{0,3}$`)).OnElements("span")
	// Task list items.
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$`)).OnElements("input")

	p.AllowURLSchemes("http", "https", "mailto")
	p.AllowRelativeURLs(true) // the app's own /artifacts/{id} links
	p.RequireParseableURLs(true)
	// Links out open in a new tab without access to ours (noopener), pass no ranking
	// (nofollow) and do not tell the other site which conversation they came from
	// (noreferrer).
	p.AddTargetBlankToFullyQualifiedLinks(true)
	p.RequireNoFollowOnFullyQualifiedLinks(true)
	p.RequireNoReferrerOnFullyQualifiedLinks(true)
	return p
})
