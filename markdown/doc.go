// Package markdown turns an assistant's markdown answer into HTML that is safe to put in a
// page as it is: GitHub-flavoured markdown rendered by goldmark, code highlighted by chroma
// with CSS classes (never inline styles, so a strict CSP holds), and the result sanitized by
// bluemonday.
//
// Render copes with partial markdown, because the app re-renders a growing answer while it
// streams: an unclosed code fence or half a table still gives balanced HTML.
//
// Links to files of the code interpreter's container (sandbox:/mnt/data/<name>) are handed to
// Options.RewriteSandboxLink; the ones it does not know become plain text.
package markdown
