// Package idptest is an OpenID Connect provider for tests, on an httptest
// server: discovery, the JWKS of a generated RSA key, an authorization
// endpoint that signs in whoever the test names, and a token endpoint that
// checks the client's credentials and the PKCE verifier and redeems each
// code once, issuing RS256-signed id tokens. Tests bend it with Login.
package idptest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

// Login is what the next authorization does.
type Login struct {
	// Claims are added to the id token: oid, tid, preferred_username,
	// groups, roles, or any other.
	Claims map[string]any
	// Deny answers error=access_denied, as when a person cancels or
	// refuses consent.
	Deny bool
	// Tamper changes the id token's claims just before it is signed, to
	// make a wrong audience, an expired token or another nonce.
	Tamper func(claims map[string]any)
}

// Provider is the test provider. Its zero value is not usable; see New.
type Provider struct {
	ClientID     string
	ClientSecret string
	// Assertion, when set, is a client assertion the token endpoint takes
	// instead of the secret.
	Assertion string

	srv *httptest.Server
	key *rsa.PrivateKey

	mu     sync.Mutex
	next   Login
	grants map[string]grant
	// presented counts valid codes presented at the token endpoint.
	presented int
}

// grant is an authorization waiting for its code to be redeemed.
type grant struct {
	challenge, nonce, redirectURI string
	login                         Login
}

// New starts a provider for one client, stopped at the end of the test.
func New(t testing.TB, clientID, clientSecret string) *Provider {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	p := &Provider{ClientID: clientID, ClientSecret: clientSecret, key: key, grants: map[string]grant{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", p.discovery)
	mux.HandleFunc("GET /keys", p.keys)
	mux.HandleFunc("GET /authorize", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	p.srv = httptest.NewServer(mux)
	t.Cleanup(p.srv.Close)
	return p
}

// Issuer is the provider's issuer URL, what OIDC_ISSUER names.
func (p *Provider) Issuer() string { return p.srv.URL }

// Close stops the provider, as when it is down.
func (p *Provider) Close() { p.srv.Close() }

// Next sets what the next authorization does.
func (p *Provider) Next(l Login) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next = l
}

// CodesPresented returns how many issued codes were presented at the
// token endpoint, each once at most, whether the verifier matched or not.
func (p *Provider) CodesPresented() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.presented
}

func (p *Provider) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer": p.srv.URL, "authorization_endpoint": p.srv.URL + "/authorize",
		"token_endpoint": p.srv.URL + "/token", "jwks_uri": p.srv.URL + "/keys",
		"response_types_supported": []string{"code"}, "subject_types_supported": []string{"pairwise"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"code_challenge_methods_supported":      []string{"S256"},
	})
}

func (p *Provider) keys(w http.ResponseWriter, _ *http.Request) {
	pub := p.key.PublicKey
	e := big(int64(pub.E))
	writeJSON(w, http.StatusOK, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "alg": "RS256", "use": "sig", "kid": "test",
		"n": b64(pub.N.Bytes()), "e": b64(e),
	}}})
}

// authorize answers at once, as a provider does for a person already
// signed in there: a redirect back with a code, or with an error.
func (p *Provider) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	back, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || q.Get("client_id") != p.ClientID || q.Get("response_type") != "code" ||
		q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" {
		http.Error(w, "bad authorization request", http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	login := p.next
	answer := url.Values{"state": {q.Get("state")}}
	if login.Deny {
		answer.Set("error", "access_denied")
		answer.Set("error_description", "AADSTS65004: User declined to consent.")
	} else {
		code := b64(random(16))
		p.grants[code] = grant{challenge: q.Get("code_challenge"), nonce: q.Get("nonce"), redirectURI: back.String(), login: login}
		answer.Set("code", code)
	}
	p.mu.Unlock()
	back.RawQuery = answer.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// token redeems a code, once, for the client that asked for it and with
// the verifier whose challenge the authorization carried.
func (p *Provider) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil || r.PostForm.Get("grant_type") != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	f := r.PostForm
	if !p.clientValid(f) {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	p.mu.Lock()
	g, ok := p.grants[f.Get("code")]
	delete(p.grants, f.Get("code"))
	if ok {
		p.presented++
	}
	p.mu.Unlock()
	sum := sha256.Sum256([]byte(f.Get("code_verifier")))
	if !ok || b64(sum[:]) != g.challenge || f.Get("redirect_uri") != g.redirectURI {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": b64(random(16)), "token_type": "Bearer",
		"expires_in": 3600, "id_token": p.idToken(g)})
}

func (p *Provider) clientValid(f url.Values) bool {
	if f.Get("client_id") != p.ClientID {
		return false
	}
	if p.Assertion != "" {
		return f.Get("client_assertion") == p.Assertion &&
			f.Get("client_assertion_type") == "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	}
	return f.Get("client_secret") == p.ClientSecret
}

// idToken signs the id token of a grant.
func (p *Provider) idToken(g grant) string {
	now := time.Now()
	c := map[string]any{"iss": p.srv.URL, "aud": p.ClientID, "sub": "pairwise-sub",
		"iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(), "nonce": g.nonce}
	for k, v := range g.login.Claims {
		c[k] = v
	}
	if g.login.Tamper != nil {
		g.login.Tamper(c)
	}
	return p.Sign(c)
}

// Sign returns claims as a compact JWS signed with the provider's key.
func (p *Provider) Sign(claims map[string]any) string {
	header, _ := json.Marshal(map[string]string{"alg": "RS256", "typ": "JWT", "kid": "test"})
	payload, _ := json.Marshal(claims)
	input := b64(header) + "." + b64(payload)
	sum := sha256.Sum256([]byte(input))
	sig, err := rsa.SignPKCS1v15(rand.Reader, p.key, crypto.SHA256, sum[:])
	if err != nil {
		panic(err)
	}
	return input + "." + b64(sig)
}

func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": "test provider: " + code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

func random(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

// big is the minimal big-endian encoding of a positive int, as JWK wants.
func big(v int64) []byte {
	var out []byte
	for ; v > 0; v >>= 8 {
		out = append([]byte{byte(v)}, out...)
	}
	return out
}
