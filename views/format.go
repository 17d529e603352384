package views

import (
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// now is the clock of the relative times; a variable so tests can fix it.
var now = time.Now

// shortTime is the compact time of a sidebar entry: a clock time today, a
// weekday this week, a date before that.
func shortTime(t time.Time) string {
	t, n := t.Local(), now().Local()
	switch {
	case sameDay(t, n):
		return t.Format("15:04")
	case n.Sub(t) < 7*24*time.Hour:
		return t.Format("Mon")
	case t.Year() == n.Year():
		return t.Format("2 Jan")
	default:
		return t.Format("2 Jan 2006")
	}
}

// longTime is a relative time for prose: "just now", "5 minutes ago".
func longTime(t time.Time) string {
	d := now().Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 24*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	default:
		return "on " + t.Local().Format("2 January 2006")
	}
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

func sameDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd
}

// initial is the letter shown in a user's avatar.
func initial(name string) string {
	r, _ := utf8.DecodeRuneInString(name)
	if r == utf8.RuneError {
		return "?"
	}
	return string(unicode.ToUpper(r))
}

// moreQuery turns the htmx URL of the next page ("/conversations?...") into
// the query of the same page without JavaScript ("/?...").
func moreQuery(htmxURL string) string {
	_, q, _ := strings.Cut(htmxURL, "?")
	v, _ := url.ParseQuery(q)
	return v.Encode()
}

// FormatTokens writes a token count compactly: 950, 12.3k, 1.2M.
func FormatTokens(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
}

// seconds writes a cell's duration: "<0.1 s", "0.4 s", "12 s".
func seconds(d time.Duration) string {
	if d < 100*time.Millisecond {
		return "<0.1 s"
	}
	if d < 10*time.Second {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f s", d.Seconds())
}

// minutes writes the time left of a session, rounded up.
func minutes(d time.Duration) string {
	return fmt.Sprintf("%d min", int((d+time.Minute-1)/time.Minute))
}

// uploadLimit writes the upload limit as Foundry states its own, in whole
// binary megabytes: 512 MB.
func uploadLimit(n int64) string {
	if n > 0 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return ByteSize(n)
}

// ByteSize writes a file size: 812 B, 14.2 KB, 3.1 MB.
func ByteSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	case n < 1_000_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1_000_000)
	default:
		return fmt.Sprintf("%.2f GB", float64(n)/1_000_000_000)
	}
}

// Thousands writes n with thousands separators: 12,345.
func Thousands(n int64) string {
	s := fmt.Sprintf("%d", n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func percent(p float64) string {
	if p == 0 {
		return "—"
	}
	if p < 0.1 {
		return "<0.1%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// iconKind and iconLabel choose a file's badge by its type.
func iconKind(f FileCard) string {
	switch f.Format {
	case "csv", "tsv":
		return "table"
	case "xlsx":
		return "sheet"
	case "json", "jsonl":
		return "json"
	}
	if strings.HasPrefix(f.Type, "image/") {
		return "image"
	}
	return "doc"
}

func iconLabel(f FileCard) string { return extLabel(f.Name) }

// extLabel is a file's extension in capitals, for its badge.
func extLabel(name string) string {
	if i := strings.LastIndex(name, "."); i >= 0 && len(name)-i <= 6 {
		return strings.ToUpper(name[i+1:])
	}
	return "FILE"
}
