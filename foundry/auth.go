package foundry

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"sync"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azidentity"
)

// Scope is the Entra ID scope of the Foundry data plane, for both the
// Foundry-native and the OpenAI-compatible routes.
const Scope = "https://ai.azure.com/.default"

// DefaultCredential returns the credential chain used against a real project:
// environment, workload identity, managed identity, then Azure CLI.
func DefaultCredential() (azcore.TokenCredential, error) {
	cred, err := azidentity.NewDefaultAzureCredential(nil)
	if err != nil {
		return nil, fmt.Errorf("foundry: default credential: %w", err)
	}
	return cred, nil
}

// StaticToken returns a credential that always yields token. It is meant for
// the local engine, whose bearer token is fixed for the life of the process.
func StaticToken(token string) azcore.TokenCredential {
	return staticToken(token)
}

type staticToken string

// GetToken implements azcore.TokenCredential. The expiry is always a day
// ahead so that no cache ever considers the token stale.
func (t staticToken) GetToken(context.Context, policy.TokenRequestOptions) (azcore.AccessToken, error) {
	if t == "" {
		return azcore.AccessToken{}, errors.New("foundry: static token is empty")
	}
	return azcore.AccessToken{Token: string(t), ExpiresOn: time.Now().Add(24 * time.Hour)}, nil
}

// tokenSource caches one access token for the OpenAI-compatible routes, where
// the azcore bearer policy is not in the request path.
type tokenSource struct {
	cred   azcore.TokenCredential
	scopes []string
	now    func() time.Time

	mu  sync.Mutex
	tok azcore.AccessToken
}

// refreshMargin renews a token this long before it expires, so that a token
// never lapses in the middle of a long upload or stream set-up.
const refreshMargin = 5 * time.Minute

func (ts *tokenSource) token(ctx context.Context) (string, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	now := ts.now()
	fresh := ts.tok.Token != "" && now.Add(refreshMargin).Before(ts.tok.ExpiresOn) &&
		(ts.tok.RefreshOn.IsZero() || now.Before(ts.tok.RefreshOn))
	if fresh {
		return ts.tok.Token, nil
	}
	tok, err := ts.cred.GetToken(ctx, policy.TokenRequestOptions{Scopes: ts.scopes})
	if err != nil {
		if ts.tok.Token != "" && now.Before(ts.tok.ExpiresOn) {
			// A refresh failed but the old token is still valid: use it
			// rather than failing a request that would have succeeded.
			return ts.tok.Token, nil
		}
		return "", fmt.Errorf("get token: %w", err) // wrapped by Client.call
	}
	ts.tok = tok
	return tok.Token, nil
}

// isLoopback reports whether u points at this machine. Only then may a bearer
// token travel over plain http: the local engine listens on 127.0.0.1
// without TLS, and that traffic never leaves the host.
func isLoopback(u *url.URL) bool {
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
