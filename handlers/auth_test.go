package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/analyst-workbench/workbench/store"
)

func TestSetupFlow(t *testing.T) {
	a := newApp(t)
	b := a.browser()

	r := b.get("/")
	if r.status != http.StatusSeeOther || r.location != "/setup" {
		t.Fatalf("GET / with no users: %d → %q, want 303 → /setup", r.status, r.location)
	}
	expect(t, b.get("/setup"), http.StatusOK, `name="csrf-token"`, "Create administrator")

	t.Run("without CSRF token", func(t *testing.T) {
		r := b.postRaw("/setup", url.Values{"username": {"root"}, "password": {pw}})
		expect(t, r, http.StatusForbidden, "Reload the page")
	})
	t.Run("weak password", func(t *testing.T) {
		r := b.post("/setup", url.Values{"username": {"root"}, "password": {"123"}})
		expect(t, r, http.StatusUnprocessableEntity, "at least 10 characters", `value="root"`)
	})
	t.Run("passwords differ", func(t *testing.T) {
		r := b.post("/setup", url.Values{"username": {"root"}, "password": {pw}, "password_confirm": {pw + "x"}})
		expect(t, r, http.StatusUnprocessableEntity, "The two passwords differ")
	})
	t.Run("creates the admin and signs in", func(t *testing.T) {
		r := b.post("/setup", url.Values{"username": {"root"}, "password": {pw}, "password_confirm": {pw}})
		if r.status != http.StatusSeeOther || r.location != "/" {
			t.Fatalf("setup: %d → %q", r.status, r.location)
		}
		expect(t, b.get("/"), http.StatusOK, "root", "Manage users", "You are the only one here so far.", `href="/admin/users"`)
	})
	t.Run("the admin's home stops asking for analysts once there is one", func(t *testing.T) {
		a.signedIn("ana", store.RoleAnalyst)
		if r := b.get("/"); strings.Contains(r.body, "only one here") {
			t.Error("the home page still says the admin is alone")
		}
	})
	t.Run("refused once an admin exists", func(t *testing.T) {
		other := a.browser()
		if r := other.get("/setup"); r.status != http.StatusSeeOther || r.location != "/login" {
			t.Fatalf("GET /setup: %d → %q", r.status, r.location)
		}
		expect(t, other.post("/setup", url.Values{"username": {"evil"}, "password": {pw}}), http.StatusForbidden, "Set-up is complete")
		if _, err := a.db.UserByUsername(t.Context(), "evil"); err == nil {
			t.Fatal("a second setup created an account")
		}
	})
}

func TestLogin(t *testing.T) {
	a := newApp(t)
	a.signedIn("root", store.RoleAdmin)
	b := a.browser()

	t.Run("wrong password and unknown user get one generic message", func(t *testing.T) {
		wrong := b.post("/login", url.Values{"username": {"root"}, "password": {"wrong password!"}})
		unknown := b.post("/login", url.Values{"username": {"nobody"}, "password": {pw}})
		expect(t, wrong, http.StatusUnauthorized, "Wrong username or password.", `value="root"`)
		expect(t, unknown, http.StatusUnauthorized, "Wrong username or password.")
		// The username is kept; the focus goes where the typing is to be done again.
		if !regexp.MustCompile(`type="password"[^>]*autofocus`).MatchString(wrong.body) ||
			regexp.MustCompile(`name="username"[^>]*autofocus`).MatchString(wrong.body) {
			t.Error("after a wrong password the focus is not on the password")
		}
	})
	t.Run("redirects to next, but only on this site", func(t *testing.T) {
		r := b.post("/login", url.Values{"username": {"root"}, "password": {pw}, "next": {"//evil.example/x"}})
		if r.location != "/" {
			t.Fatalf("next=//evil: location %q", r.location)
		}
	})
	t.Run("logout ends the session", func(t *testing.T) {
		b.get("/")
		if r := b.post("/logout", nil); r.status != http.StatusSeeOther || r.location != "/login" {
			t.Fatalf("logout: %d → %q", r.status, r.location)
		}
		if r := b.get("/"); r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/login") {
			t.Fatalf("after logout GET /: %d → %q", r.status, r.location)
		}
	})
	t.Run("a guessed page remembers where to return", func(t *testing.T) {
		r := a.browser().get("/admin/users")
		if r.location != "/login?next=%2Fadmin%2Fusers" {
			t.Fatalf("location %q", r.location)
		}
	})
}

func TestTamperedCookieLeadsToSignIn(t *testing.T) {
	a := newApp(t)
	b := a.signedIn("ana", store.RoleAnalyst)
	u, _ := url.Parse(a.srv.URL)
	cookies := b.c.Jar.Cookies(u)
	for _, c := range cookies {
		if c.Name == "wb_session" {
			c.Value = c.Value[:len(c.Value)-4] + "AAAA"
		}
	}
	b.c.Jar.SetCookies(u, cookies)
	r := b.get("/")
	if r.status != http.StatusSeeOther || !strings.HasPrefix(r.location, "/login?expired=1") {
		t.Fatalf("tampered cookie: %d → %q", r.status, r.location)
	}
	expect(t, b.get(r.location), http.StatusOK, "Your session has ended")
}

func TestPasswordResetEndsOtherSessions(t *testing.T) {
	a := newApp(t)
	admin := a.signedIn("root", store.RoleAdmin)
	ana := a.signedIn("ana", store.RoleAnalyst)
	u, _ := a.db.UserByUsername(t.Context(), "ana")
	r := admin.post("/admin/users/"+u.ID+"/password", url.Values{"password": {"a new long passphrase"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("reset: %d %s", r.status, excerpt(r.body))
	}
	if r := ana.get("/"); r.status != http.StatusSeeOther || !strings.Contains(r.location, "expired=1") {
		t.Fatalf("old session after reset: %d → %q", r.status, r.location)
	}
}

func TestAdminUsers(t *testing.T) {
	a := newApp(t)
	admin := a.signedIn("root", store.RoleAdmin)
	analyst := a.signedIn("ana", store.RoleAnalyst)

	expect(t, analyst.get("/admin/users"), http.StatusForbidden, "administrators only")
	expect(t, analyst.post("/admin/users", url.Values{"username": {"x"}, "password": {pw}, "role": {"admin"}}), http.StatusForbidden)

	r := admin.post("/admin/users", url.Values{"username": {"<i>bob</i>"}, "password": {pw}, "role": {"analyst"}})
	if r.status != http.StatusSeeOther {
		t.Fatalf("create: %d %s", r.status, excerpt(r.body))
	}
	page := admin.get("/admin/users?done=created")
	expect(t, page, http.StatusOK, "User added", "&lt;i&gt;bob&lt;/i&gt;")
	if strings.Contains(page.body, "<i>bob</i>") {
		t.Fatal("username rendered unescaped")
	}

	expect(t, admin.post("/admin/users", url.Values{"username": {"ANA"}, "password": {pw}, "role": {"analyst"}}),
		http.StatusUnprocessableEntity, "That username is taken")
	expect(t, admin.post("/admin/users", url.Values{"username": {strings.Repeat("u", 65)}, "password": {pw}, "role": {"analyst"}}),
		http.StatusUnprocessableEntity, "at most 64 characters")
	expect(t, admin.post("/admin/users", url.Values{"username": {"carl"}, "password": {"short"}, "role": {"analyst"}}),
		http.StatusUnprocessableEntity, "at least 10 characters", `value="carl"`)

	root, _ := a.db.UserByUsername(t.Context(), "root")
	expect(t, admin.post("/admin/users/"+root.ID+"/disabled", url.Values{"disabled": {"1"}}),
		http.StatusUnprocessableEntity, "cannot disable your own account")

	ana, _ := a.db.UserByUsername(t.Context(), "ana")
	if r := admin.post("/admin/users/"+ana.ID+"/disabled", url.Values{"disabled": {"1"}}); r.status != http.StatusSeeOther {
		t.Fatalf("disable: %d", r.status)
	}
	if r := analyst.get("/"); r.status != http.StatusSeeOther {
		t.Fatalf("disabled user still signed in: %d", r.status)
	}
	expect(t, a.browser().post("/login", url.Values{"username": {"ana"}, "password": {pw}}), http.StatusUnauthorized, "Wrong username or password.")

	// The audit log tells who did what to whom, by name and in words.
	expect(t, admin.get("/admin"), http.StatusOK, "<td>root</td><td>User disabled</td>", "user: ana",
		"<td>User created</td>", "role: analyst · user: &lt;i&gt;bob&lt;/i&gt;")
}

func TestMetrics(t *testing.T) {
	a := newApp(t)
	a.browser().get("/healthz")
	// httptest clients connect from 127.0.0.1: a scraper on this machine.
	r := a.browser().get("/metrics")
	expect(t, r, http.StatusOK, `workbench_http_requests_total{method="GET",route="/healthz",status="200"} 1`, "go_goroutines")
	// From another address only an admin may read them.
	req := httptest.NewRequest(http.MethodGet, "/metrics", nil)
	req.RemoteAddr = "203.0.113.9:4444"
	rec := httptest.NewRecorder()
	a.echo.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("remote anonymous /metrics: %d", rec.Code)
	}
}
