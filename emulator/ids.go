package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strconv"
)

// newID returns prefix followed by 24 random hex digits, in the style of the hosted service's
// ids (conv_…, resp_…, cntr_…, cfile_…, file-…). Clients must not parse them.
func newID(prefix string) string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	return prefix + hex.EncodeToString(b[:])
}

// newUUID returns a random (version 4) UUID, the form of Azure's request ids.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// listPage is the list envelope shared by every paginated route.
type listPage struct {
	Object  string  `json:"object"`
	Data    []any   `json:"data"`
	FirstID *string `json:"first_id"`
	LastID  *string `json:"last_id"`
	HasMore bool    `json:"has_more"`
}

// pageQuery holds the cursor parameters of a list request.
type pageQuery struct {
	limit  int
	desc   bool
	after  string
	before string
}

// maxLimit is the largest page accepted; OpenAI's files list allows this many, other lists
// fewer, and a bigger page harms nobody here.
const maxLimit = 10000

// parsePageQuery reads limit (1–10000, default 20), order (asc|desc) and the after/before cursors.
func parsePageQuery(r *http.Request, defaultDesc bool) (pageQuery, error) {
	q := r.URL.Query()
	p := pageQuery{limit: 20, desc: defaultDesc, after: q.Get("after"), before: q.Get("before")}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxLimit {
			return p, errBadRequest("limit", "Invalid 'limit': expected an integer between 1 and %d, got %q.", maxLimit, v)
		}
		p.limit = n
	}
	switch q.Get("order") {
	case "":
	case "asc":
		p.desc = false
	case "desc":
		p.desc = true
	default:
		return p, errBadRequest("order", "Invalid 'order': expected 'asc' or 'desc', got %q.", q.Get("order"))
	}
	return p, nil
}

// paginate cuts one page out of objects already sorted ascending by creation; id extracts each
// object's id for the cursors.
func paginate[T any](all []T, p pageQuery, id func(T) string) listPage {
	ordered := make([]T, 0, len(all))
	if p.desc {
		for i := len(all) - 1; i >= 0; i-- {
			ordered = append(ordered, all[i])
		}
	} else {
		ordered = append(ordered, all...)
	}
	ordered = afterCursor(ordered, p.after, id)
	if p.before != "" {
		for i, v := range ordered {
			if id(v) == p.before {
				ordered = ordered[:i]
				break
			}
		}
	}
	page := listPage{Object: "list", Data: []any{}}
	for i, v := range ordered {
		if i == p.limit {
			page.HasMore = true
			break
		}
		page.Data = append(page.Data, v)
	}
	if n := len(page.Data); n > 0 {
		first, last := id(ordered[0]), id(ordered[n-1])
		page.FirstID, page.LastID = &first, &last
	}
	return page
}

func afterCursor[T any](ordered []T, after string, id func(T) string) []T {
	if after == "" {
		return ordered
	}
	for i, v := range ordered {
		if id(v) == after {
			return ordered[i+1:]
		}
	}
	return ordered[:0]
}
