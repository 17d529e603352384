package handlers_test

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/auth/idptest"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/store"
)

const (
	testClientID = "workbench-client"
	testTenant   = "tenant-1"
)

// ssoApp is the real handler stack with single sign-on through a test
// provider, configured by the policy given.
func ssoApp(t *testing.T, policy auth.SSOPolicy) (*app, *idptest.Provider) {
	t.Helper()
	idp := idptest.New(t, testClientID, "client-secret")
	return ssoAppWith(t, idp, auth.OIDCConfig{ClientSecret: "client-secret", Policy: policy}), idp
}

// ssoAppWith is ssoApp with the client's credentials and policy in cfg.
// A local login policy, if given, is set before the server starts.
func ssoAppWith(t *testing.T, idp *idptest.Provider, cfg auth.OIDCConfig, local ...auth.LocalLogin) *app {
	t.Helper()
	if cfg.Issuer == "" {
		cfg.Issuer = idp.Issuer()
	}
	cfg.ClientID = testClientID
	// The app's server does not exist yet, so the redirect URL names
	// another host; startSSO follows the path to the real server.
	cfg.RedirectURL = "http://app.invalid/auth/oidc/callback"
	return newAppWith(t, func(c *handlers.Config) {
		c.OIDC = auth.NewOIDC(cfg, c.Accounts)
		for _, l := range local {
			c.Accounts.SetLocalLogin(l)
		}
	})
}

// person is the claims of an Entra ID id token for one person.
func person(oid, name string, groups, roles []string) map[string]any {
	return map[string]any{"oid": oid, "tid": testTenant, "preferred_username": name, "name": "Test " + name,
		"groups": groups, "roles": roles}
}

// startSSO follows "Sign in with Microsoft" to the provider and returns the
// provider's redirect back to the app (the callback URL, as a path).
func startSSO(b *browser) string {
	t := b.app.t
	t.Helper()
	r := b.get("/auth/oidc/login?next=%2Fconversations")
	if r.status != http.StatusFound {
		t.Fatalf("GET /auth/oidc/login: %d, want 302: %s", r.status, excerpt(r.body))
	}
	resp, err := b.c.Get(r.location) // the provider answers at once
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	back, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || back.Path != "/auth/oidc/callback" {
		t.Fatalf("provider redirect %q: %v", resp.Header.Get("Location"), err)
	}
	return back.RequestURI()
}

// ssoSignIn signs b in as whoever login names and returns the callback's
// answer.
func ssoSignIn(b *browser, idp *idptest.Provider, login idptest.Login) response {
	b.app.t.Helper()
	idp.Next(login)
	return b.get(startSSO(b))
}

// signedInAs asserts that b's session is that of username, with the role.
func signedInAs(t *testing.T, a *app, b *browser, username, role string) {
	t.Helper()
	expect(t, b.get("/"), http.StatusOK, username)
	u, err := a.db.UserByUsername(t.Context(), username)
	if err != nil || u.Role != role || !u.UsesSSO() {
		t.Fatalf("account %q: %+v, %v; want an SSO %s", username, u, err, role)
	}
}

// refused asserts that r is the sign-in page with msg and that b is not
// signed in.
func refused(t *testing.T, b *browser, r response, status int, msg string) {
	t.Helper()
	expect(t, r, status, "Sign in with Microsoft", msg)
	if strings.Contains(r.body, "goroutine") || strings.Contains(r.body, "oauth2:") {
		t.Fatalf("internal error text on the page:\n%s", excerpt(r.body))
	}
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Fatalf("after a refused sign-in GET /: %d, want 303 to /login", r.status)
	}
}

func TestSSORoundTrip(t *testing.T) {
	a, idp := ssoApp(t, auth.SSOPolicy{})
	a.signedIn("root", store.RoleAdmin)

	expect(t, a.browser().get("/login"), http.StatusOK, `href="/auth/oidc/login"`, "Sign in with Microsoft")

	b := a.browser()
	r := ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana@contoso.com", nil, nil)})
	if r.status != http.StatusSeeOther || r.location != "/conversations" {
		t.Fatalf("callback: %d → %q, want 303 → /conversations: %s", r.status, r.location, excerpt(r.body))
	}
	signedInAs(t, a, b, "ana@contoso.com", store.RoleAnalyst)

	t.Run("the session is the revocable login session", func(t *testing.T) {
		b := a.browser()
		ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana@contoso.com", nil, nil)})
		expect(t, b.get("/"), http.StatusOK)
		if r := b.post("/logout", nil); r.status != http.StatusSeeOther {
			t.Fatalf("logout: %d", r.status)
		}
		if r := b.get("/"); r.status != http.StatusSeeOther {
			t.Fatalf("after logout: %d, want 303", r.status)
		}
	})
	t.Run("matched by oid and tid, not by name", func(t *testing.T) {
		renamed := a.browser()
		ssoSignIn(renamed, idp, idptest.Login{Claims: person("oid-ana", "ana.new@contoso.com", nil, nil)})
		expect(t, renamed.get("/"), http.StatusOK, "ana@contoso.com")

		// Another person who now holds the same address gets an account of
		// their own, and so does the same oid in another tenant.
		other := person("oid-other", "ana@contoso.com", nil, nil)
		ssoSignIn(a.browser(), idp, idptest.Login{Claims: other})
		otherTenant := person("oid-ana", "ana@contoso.com", nil, nil)
		otherTenant["tid"] = "tenant-2"
		ssoSignIn(a.browser(), idp, idptest.Login{Claims: otherTenant})
		users, _ := a.db.Users(t.Context())
		if len(users) != 4 {
			t.Fatalf("%d accounts, want 4 (root, ana and two others)", len(users))
		}
	})
	t.Run("a local account of that name is not taken over", func(t *testing.T) {
		if _, err := a.accounts.Create(t.Context(), "", "bob@contoso.com", pw, store.RoleAdmin); err != nil {
			t.Fatal(err)
		}
		b := a.browser()
		ssoSignIn(b, idp, idptest.Login{Claims: person("oid-bob", "bob@contoso.com", nil, nil)})
		r := b.get("/")
		expect(t, r, http.StatusOK, "bob@contoso.com-")
		if strings.Contains(r.body, "Manage users") {
			t.Fatal("the SSO sign-in got the local admin's account")
		}
	})
	t.Run("the admin list shows how each user signs in", func(t *testing.T) {
		r := a.browser()
		r.post("/login", url.Values{"username": {"root"}, "password": {pw}})
		page := r.get("/admin/users")
		expect(t, page, http.StatusOK, "Signs in with")
		for user, want := range map[string]string{"root": "Password", "ana@contoso.com": "Microsoft"} {
			row := page.body[strings.Index(page.body, `data-username="`+user+`"`):]
			row = row[:strings.Index(row, "</tr>")]
			if !strings.Contains(row, `data-testid="sign-in">`+want+"<") {
				t.Errorf("row of %s lacks %q:\n%s", user, want, row)
			}
		}
	})
}

func TestSSOFlowChecks(t *testing.T) {
	a, idp := ssoApp(t, auth.SSOPolicy{})
	a.signedIn("root", store.RoleAdmin)
	ana := idptest.Login{Claims: person("oid-ana", "ana", nil, nil)}

	t.Run("wrong state", func(t *testing.T) {
		b := a.browser()
		idp.Next(ana)
		back, _ := url.Parse(startSSO(b))
		q := back.Query()
		q.Set("state", "forged")
		refused(t, b, b.get(back.Path+"?"+q.Encode()), http.StatusUnauthorized, "expired or was already used")
	})
	t.Run("a callback in a browser that started nothing", func(t *testing.T) {
		idp.Next(ana)
		back := startSSO(a.browser())
		other := a.browser()
		refused(t, other, other.get(back), http.StatusUnauthorized, "expired or was already used")
	})
	t.Run("replayed callback and replayed code", func(t *testing.T) {
		b := a.browser()
		idp.Next(ana)
		back := startSSO(b)
		if r := b.get(back); r.status != http.StatusSeeOther {
			t.Fatalf("first callback: %d %s", r.status, excerpt(r.body))
		}
		// The flow left the session: the same answer again is refused.
		expect(t, b.get(back), http.StatusUnauthorized, "expired or was already used")

		// A fresh flow with the old code: the provider redeems a code once.
		c := a.browser()
		fresh, _ := url.Parse(startSSO(c))
		old, _ := url.Parse(back)
		q := fresh.Query()
		q.Set("code", old.Query().Get("code"))
		refused(t, c, c.get(fresh.Path+"?"+q.Encode()), http.StatusUnauthorized, "expired or was already used")
	})
	t.Run("a code redeemed with another verifier", func(t *testing.T) {
		// Two flows in two browsers; the first browser's code answered to
		// the second browser's flow fails PKCE at the token endpoint.
		b1, b2 := a.browser(), a.browser()
		idp.Next(ana)
		back1, _ := url.Parse(startSSO(b1))
		idp.Next(ana)
		back2, _ := url.Parse(startSSO(b2))
		q := back2.Query()
		q.Set("code", back1.Query().Get("code"))
		before := idp.CodesPresented()
		refused(t, b2, b2.get(back2.Path+"?"+q.Encode()), http.StatusUnauthorized, "expired or was already used")
		if idp.CodesPresented() != before+1 {
			t.Fatalf("the code was not presented to the provider")
		}
	})
	for _, tc := range []struct {
		name   string
		tamper func(map[string]any)
	}{
		{"wrong audience", func(c map[string]any) { c["aud"] = "another-app" }},
		{"wrong issuer", func(c map[string]any) { c["iss"] = "https://evil.example" }},
		{"expired token", func(c map[string]any) {
			c["iat"], c["exp"] = time.Now().Add(-2*time.Hour).Unix(), time.Now().Add(-time.Hour).Unix()
		}},
		{"nonce mismatch", func(c map[string]any) { c["nonce"] = "another nonce" }},
		{"no nonce", func(c map[string]any) { delete(c, "nonce") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := a.browser()
			r := ssoSignIn(b, idp, idptest.Login{Claims: person("oid-tc", "tc", nil, nil), Tamper: tc.tamper})
			refused(t, b, r, http.StatusUnauthorized, "could not be verified")
			if _, err := a.db.UserBySSO(t.Context(), testTenant, "oid-tc"); err == nil {
				t.Fatal("a refused token created an account")
			}
		})
	}
	t.Run("denied consent", func(t *testing.T) {
		b := a.browser()
		r := ssoSignIn(b, idp, idptest.Login{Deny: true})
		refused(t, b, r, http.StatusUnauthorized, "consent was not given")
		if strings.Contains(r.body, "AADSTS") {
			t.Fatal("the provider's own text reached the page")
		}
	})
	t.Run("an expired flow", func(t *testing.T) {
		b := a.browser()
		idp.Next(ana)
		back := startSSO(b)
		a.db.Now = func() time.Time { return time.Now().Add(auth.FlowLifetime + time.Minute) }
		defer func() { a.db.Now = time.Now }()
		refused(t, b, b.get(back), http.StatusUnauthorized, "expired or was already used")
	})
}

func TestSSOProviderDown(t *testing.T) {
	a, idp := ssoApp(t, auth.SSOPolicy{})
	a.signedIn("root", store.RoleAdmin)
	idp.Close()
	b := a.browser()
	refused(t, b, b.get("/auth/oidc/login"), http.StatusServiceUnavailable, "cannot be reached")
	// Password sign-in does not depend on the provider.
	if r := b.post("/login", url.Values{"username": {"root"}, "password": {pw}}); r.status != http.StatusSeeOther {
		t.Fatalf("password sign-in with the provider down: %d", r.status)
	}
}

// TestSSOIssuerMismatch is a misconfigured issuer (for Entra ID, one named
// by domain rather than tenant id): the page says whom to tell.
func TestSSOIssuerMismatch(t *testing.T) {
	idp := idptest.New(t, testClientID, "client-secret")
	a := ssoAppWith(t, idp, auth.OIDCConfig{Issuer: idp.Issuer() + "/", ClientSecret: "client-secret"})
	a.signedIn("root", store.RoleAdmin)
	b := a.browser()
	refused(t, b, b.get("/auth/oidc/login"), http.StatusUnauthorized, "not set up correctly")
}

func TestSSOPolicy(t *testing.T) {
	a, idp := ssoApp(t, auth.SSOPolicy{AllowedGroups: []string{"group-analysts"}, AdminRoles: []string{"Workbench.Admin"}})
	admin := a.signedIn("root", store.RoleAdmin)

	t.Run("outside the allowed groups: refused, no account", func(t *testing.T) {
		b := a.browser()
		r := ssoSignIn(b, idp, idptest.Login{Claims: person("oid-eve", "eve", []string{"group-other"}, nil)})
		refused(t, b, r, http.StatusUnauthorized, "not in a group allowed")
		if _, err := a.db.UserByUsername(t.Context(), "eve"); err == nil {
			t.Fatal("a refused person got an account")
		}
	})
	t.Run("too many groups to list", func(t *testing.T) {
		claims := person("oid-many", "many", nil, nil)
		delete(claims, "groups")
		claims["_claim_names"] = map[string]string{"groups": "src1"}
		claims["_claim_sources"] = map[string]any{"src1": map[string]string{"endpoint": "https://graph.invalid/getMemberObjects"}}
		b := a.browser()
		refused(t, b, ssoSignIn(b, idp, idptest.Login{Claims: claims}), http.StatusUnauthorized, "too many groups")
	})
	t.Run("in an allowed group: an analyst", func(t *testing.T) {
		b := a.browser()
		ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana", []string{"group-analysts"}, nil)})
		signedInAs(t, a, b, "ana", store.RoleAnalyst)
		expect(t, b.get("/admin/users"), http.StatusForbidden)
	})
	t.Run("the admin role makes an admin, and its loss an analyst", func(t *testing.T) {
		b := a.browser()
		ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana", []string{"group-analysts"}, []string{"Workbench.Admin"})})
		signedInAs(t, a, b, "ana", store.RoleAdmin)
		expect(t, b.get("/admin/users"), http.StatusOK)

		ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana", []string{"group-analysts"}, nil)})
		signedInAs(t, a, b, "ana", store.RoleAnalyst)
		expect(t, b.get("/admin/users"), http.StatusForbidden)
		// The provider's decisions are account changes too: audited, by "sso".
		expect(t, admin.get("/admin"), http.StatusOK, "<td>sso</td><td>Role changed</td>", "from: admin · to: analyst · user: ana",
			"<td>sso</td><td>User created</td>")
	})
	t.Run("leaving the allowed groups ends access", func(t *testing.T) {
		b := a.browser()
		refused(t, b, ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana", nil, nil)}), http.StatusUnauthorized, "not in a group allowed")
	})
	t.Run("a disabled user is refused, and signed out", func(t *testing.T) {
		b := a.browser()
		ana := idptest.Login{Claims: person("oid-ana", "ana", []string{"group-analysts"}, nil)}
		ssoSignIn(b, idp, ana)
		u, _ := a.db.UserByUsername(t.Context(), "ana")
		if r := admin.post("/admin/users/"+u.ID+"/disabled", url.Values{"disabled": {"1"}}); r.status != http.StatusSeeOther {
			t.Fatalf("disable: %d", r.status)
		}
		if r := b.get("/"); r.status != http.StatusSeeOther {
			t.Fatalf("disabled user still signed in: %d", r.status)
		}
		refused(t, b, ssoSignIn(b, idp, ana), http.StatusUnauthorized, "Your account is disabled")
	})
}

func TestLocalLoginAdminsOnly(t *testing.T) {
	idp := idptest.New(t, testClientID, "client-secret")
	a := ssoAppWith(t, idp, auth.OIDCConfig{ClientSecret: "client-secret"}, auth.LocalLoginAdmins)
	a.signedIn("root", store.RoleAdmin) // the break-glass admin still signs in with a password
	if _, err := a.accounts.Create(t.Context(), "", "ana", pw, store.RoleAnalyst); err != nil {
		t.Fatal(err)
	}
	b := a.browser()
	expect(t, b.get("/login"), http.StatusOK, "for administrators, with a password")
	expect(t, b.post("/login", url.Values{"username": {"ana"}, "password": {pw}}), http.StatusUnauthorized, "Wrong username or password.")
	if r := b.get("/"); r.status != http.StatusSeeOther {
		t.Fatalf("an analyst signed in with a password: %d", r.status)
	}
	// The same analyst's way in is single sign-on.
	ssoSignIn(b, idp, idptest.Login{Claims: person("oid-ana", "ana.sso", nil, nil)})
	signedInAs(t, a, b, "ana.sso", store.RoleAnalyst)
}

// TestSSOFederatedCredential is workload identity: the app presents the
// token in a file instead of a secret, read at each sign-in.
func TestSSOFederatedCredential(t *testing.T) {
	idp := idptest.New(t, testClientID, "")
	idp.Assertion = "federated.jwt.v1"
	file := filepath.Join(t.TempDir(), "azure-identity-token")
	if err := os.WriteFile(file, []byte(idp.Assertion+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := ssoAppWith(t, idp, auth.OIDCConfig{AssertionFile: file})
	a.signedIn("root", store.RoleAdmin)
	ana := idptest.Login{Claims: person("oid-ana", "ana", nil, nil)}

	b := a.browser()
	if r := ssoSignIn(b, idp, ana); r.status != http.StatusSeeOther {
		t.Fatalf("callback: %d %s", r.status, excerpt(r.body))
	}
	// A token the provider does not take (rotated away, wrong audience).
	if err := os.WriteFile(file, []byte("stale.jwt"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := a.browser()
	refused(t, c, ssoSignIn(c, idp, ana), http.StatusUnauthorized, "not set up correctly")
}
