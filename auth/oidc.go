package auth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// FlowLifetime is how long a person has between leaving for the provider
// and coming back; a flow older than this is refused.
const FlowLifetime = 10 * time.Minute

// clientAssertionType is RFC 7523's name for a JWT presented instead of a
// client secret, as workload identity federation does.
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// OIDCConfig is the app's registration at an OpenID Connect provider.
type OIDCConfig struct {
	// Issuer is the provider's issuer URL, e.g.
	// https://login.microsoftonline.com/<tenant-id>/v2.0.
	Issuer       string
	ClientID     string
	ClientSecret string
	// AssertionFile, used when ClientSecret is empty, holds a signed JWT the
	// app presents instead of a secret (a workload identity federated
	// credential, such as AZURE_FEDERATED_TOKEN_FILE). It is read at every
	// sign-in because the platform replaces it before it expires.
	AssertionFile string
	// RedirectURL is this app's /auth/oidc/callback as the provider knows it.
	RedirectURL string
	Policy      SSOPolicy
	// HTTPClient talks to the provider; nil means one with a 15 s timeout.
	HTTPClient *http.Client
}

// OIDC signs people in through an OpenID Connect provider with the
// authorization code flow and PKCE, and maps them to accounts.
type OIDC struct {
	cfg      OIDCConfig
	accounts *Accounts
	client   *http.Client

	// mu guards the provider's metadata, discovered at the first sign-in
	// rather than at start, so that a provider that is down when the app
	// starts only delays single sign-on, not password sign-in.
	mu       sync.Mutex
	oauth    *oauth2.Config
	verifier *oidc.IDTokenVerifier
}

// NewOIDC returns the sign-in service for cfg; it contacts nobody yet.
func NewOIDC(cfg OIDCConfig, accounts *Accounts) *OIDC {
	client := cfg.HTTPClient
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	return &OIDC{cfg: cfg, accounts: accounts, client: client}
}

// Flow is what one sign-in keeps between its start and its end, in the
// browser's signed and encrypted session cookie. Each value is random and
// used once: State ties the answer to this browser, Nonce ties the id
// token to this request, and Verifier (PKCE) makes a stolen code useless.
type Flow struct {
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	// Next is where to go once signed in, a path on this site.
	Next string `json:"r"`
	// Started is when the flow began, in Unix seconds.
	Started int64 `json:"t"`
}

// Encode returns f as a string for the session.
func (f Flow) Encode() string {
	b, _ := json.Marshal(f)
	return string(b)
}

// DecodeFlow reads a flow that Encode wrote; anything else is an empty
// flow, which Finish refuses.
func DecodeFlow(s string) Flow {
	var f Flow
	if json.Unmarshal([]byte(s), &f) != nil {
		return Flow{}
	}
	return f
}

// Begin starts a sign-in: it returns the flow to keep and the provider's
// URL to send the browser to. next must already be a safe local path.
func (o *OIDC) Begin(ctx context.Context, next string) (Flow, string, error) {
	conf, _, err := o.provider(ctx)
	if err != nil {
		return Flow{}, "", err
	}
	f := Flow{State: newSecret(), Nonce: newSecret(), Verifier: oauth2.GenerateVerifier(), Next: next,
		Started: o.accounts.db.Now().Unix()}
	url := conf.AuthCodeURL(f.State, oidc.Nonce(f.Nonce), oauth2.S256ChallengeOption(f.Verifier))
	return f, url, nil
}

// provider returns the OAuth 2 configuration and the id token verifier,
// discovering the provider's endpoints and keys the first time it is
// reached; a failure is retried at the next sign-in.
func (o *OIDC) provider(ctx context.Context) (*oauth2.Config, *oidc.IDTokenVerifier, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.oauth != nil {
		return o.oauth, o.verifier, nil
	}
	p, err := oidc.NewProvider(oidc.ClientContext(ctx, o.client), o.cfg.Issuer)
	var mismatch *oidc.IssuerMismatchError
	switch {
	case errors.As(err, &mismatch):
		// Typically an Entra issuer named by domain rather than tenant id.
		return nil, nil, ssoErr(msgMisconfigured, fmt.Errorf("discovery: %w", err))
	case err != nil:
		return nil, nil, ssoErr(msgUnavailable, fmt.Errorf("%w: discovery: %w", ErrSSOUnavailable, err))
	}
	endpoint := p.Endpoint()
	// Credentials in the form body: a client assertion cannot go in a
	// Basic header, and Entra ID accepts a secret in the body too.
	endpoint.AuthStyle = oauth2.AuthStyleInParams
	o.oauth = &oauth2.Config{ClientID: o.cfg.ClientID, ClientSecret: o.cfg.ClientSecret, Endpoint: endpoint,
		RedirectURL: o.cfg.RedirectURL, Scopes: []string{oidc.ScopeOpenID, "profile", "email"}}
	// Keys are fetched later, when a token names a new one: not with the
	// request's context, which ends with the request that discovered them.
	o.verifier = p.VerifierContext(oidc.ClientContext(context.Background(), o.client),
		&oidc.Config{ClientID: o.cfg.ClientID, Now: func() time.Time { return o.accounts.db.Now() }})
	return o.oauth, o.verifier, nil
}

// newSecret is 32 random bytes, URL-safe.
func newSecret() string { return base64.RawURLEncoding.EncodeToString(randomKey()) }
