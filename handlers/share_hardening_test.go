package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

// TestShareRefusalsAreNotCached opens, through a link anyone may open and
// a browser may cache, an upload the owner did not include and another
// conversation's chart, and wants each 404 marked no-store.
func TestShareRefusalsAreNotCached(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	anon := a.browser()
	anaID := mustUser(t, a, "ana").ID
	convID := ana.create()
	a.answered(t, anaID, convID, "Plot revenue", "Revenue rose.")
	ana.upload("/conversations/"+convID+"/files", true, part{"file", "sales.csv", salesCSV})
	ups, _ := a.db.Files(context.Background(), anaID, convID)
	other := ana.create()
	otherChart := a.answered(t, anaID, other, "Another", "Elsewhere.")
	link := "/s/" + ana.share(convID, url.Values{"anyone": {"1"}})
	for _, path := range []string{link + "/files/" + ups[0].ID, link + "/artifacts/" + otherChart.ID, link + "/artifacts/nosuch"} {
		r := anon.get(path)
		expect(t, r, http.StatusNotFound)
		if cc := r.header.Get("Cache-Control"); cc != "no-store" {
			t.Errorf("%s: Cache-Control = %q, want no-store", path, cc)
		}
	}
}

// TestShareHeadAndOptionsSetNoCookie sends HEAD and OPTIONS to a share
// link and wants them answered as GET is, with no body and no cookie, and
// a HEAD not counted as a view.
func TestShareHeadAndOptionsSetNoCookie(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	anon := a.browser()
	anaID := mustUser(t, a, "ana").ID
	convID := ana.create()
	chart := a.answered(t, anaID, convID, "Plot revenue", "Revenue rose.")
	token := ana.share(convID, url.Values{"anyone": {"1"}})
	link := "/s/" + token
	for _, path := range []string{link, link + "/artifacts/" + chart.ID} {
		req, _ := http.NewRequest(http.MethodHead, a.srv.URL+path, nil)
		r := anon.do(req)
		if r.status != http.StatusOK || r.body != "" || r.header.Get("Set-Cookie") != "" {
			t.Errorf("HEAD %s: %d, %d bytes, Set-Cookie %q; want 200, no body, no cookie", path, r.status, len(r.body), r.header.Get("Set-Cookie"))
		}
		req, _ = http.NewRequest(http.MethodOptions, a.srv.URL+path, nil)
		r = anon.do(req)
		if r.status != http.StatusNoContent || r.header.Get("Set-Cookie") != "" || r.header.Get("Allow") == "" {
			t.Errorf("OPTIONS %s: %d, Set-Cookie %q, Allow %q", path, r.status, r.header.Get("Set-Cookie"), r.header.Get("Allow"))
		}
	}
	if s, _ := a.db.ShareByToken(context.Background(), token); s.Views != 0 {
		t.Errorf("HEAD counted %d views", s.Views)
	}
}

// TestCSRFTokenNotFromQuery posts a form whose token is only in the URL's
// query and wants it refused; the same token in the body is accepted.
func TestCSRFTokenNotFromQuery(t *testing.T) {
	a := newApp(t)
	ana := a.signedIn("ana", store.RoleAnalyst)
	ana.get("/")
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/conversations?_csrf="+url.QueryEscape(ana.csrf), nil)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	expect(t, ana.do(req), http.StatusForbidden)
	if r := ana.post("/conversations", nil); r.status != http.StatusSeeOther {
		t.Fatalf("token in the body: %d", r.status)
	}
}
