package views

import (
	"strconv"
	"time"

	"github.com/a-h/templ"
)

// SharePanel is the Share control of a conversation: the options of a new
// read-only link and the live links.
type SharePanel struct {
	ConversationID string
	Links          []ShareLink
	// Open shows the panel opened, as after creating a link without
	// JavaScript.
	Open bool
}

// ShareLink is one live read-only link.
type ShareLink struct {
	ID string
	// URL is the whole link, to copy.
	URL            string
	Anyone         bool
	IncludeUploads bool
	CreatedAt      time.Time
	ExpiresAt      time.Time
	Views          int64
	LastViewedAt   time.Time
	// New marks the link just created.
	New bool
}

// Shared is a conversation as its read-only link shows it.
type Shared struct {
	Title string
	// SharedBy names the owner; empty on links anyone may open.
	SharedBy  string
	ExpiresAt time.Time
	// Turns are the latest turns; Earlier offers the ones before them.
	Turns   []ChatTurn
	Earlier EarlierTurns
	// Files are the uploaded files, when the owner included them.
	Files []SharedFile
}

// SharedFile is an uploaded file offered by a shared page.
type SharedFile struct {
	Name, URL string
	Size      int64
	// Shape is "rows × columns" for a table, empty otherwise.
	Shape string
}

// AdminShareRow is a live link of any user, on the admin page.
type AdminShareRow struct {
	ID, Title, Owner     string
	Anyone               bool
	CreatedAt, ExpiresAt time.Time
	Views                int64
}

// ArtifactURL is where an answer's generated file is served: under the
// share on a shared page (sharePath), the owner's route otherwise; inline
// asks to view it rather than download it.
func ArtifactURL(sharePath, id string, inline bool) string {
	u := "/artifacts/" + id
	if sharePath != "" {
		u = sharePath + "/artifacts/" + id
	}
	if inline {
		u += "?inline=1"
	}
	return u
}

// artifactHref is ArtifactURL for a template's href or src.
func artifactHref(sharePath, id string, inline bool) templ.SafeURL {
	return templ.SafeURL(ArtifactURL(sharePath, id, inline))
}

// shareAudience says who can open a link.
func shareAudience(anyone bool) string {
	if anyone {
		return "Anyone with the link"
	}
	return "Signed-in users"
}

// viewCount says how often a link was opened, and when last.
func viewCount(n int64, last time.Time) string {
	switch n {
	case 0:
		return "not opened yet"
	case 1:
		return "opened once, " + longTime(last)
	}
	return "opened " + strconv.FormatInt(n, 10) + " times, last " + longTime(last)
}
