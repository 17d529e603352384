package main

import (
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/url"
	"strings"

	"github.com/analyst-workbench/workbench/auth"
)

// callbackPath is the route that ends single sign-on; OIDC_REDIRECT_URL
// must point at it.
const callbackPath = "/auth/oidc/callback"

// oidcSettings are the single sign-on settings (OIDC_*) and LOCAL_LOGIN.
type oidcSettings struct {
	Issuer       string
	ClientID     string
	ClientSecret string
	// AssertionFile holds a federated token presented instead of a secret;
	// it defaults to AZURE_FEDERATED_TOKEN_FILE, which Kubernetes workload
	// identity mounts.
	AssertionFile string
	RedirectURL   string
	// AllowedGroups and AdminRole are comma-separated group object ids or
	// app role values.
	AllowedGroups string
	AdminRole     string
	// LocalLogin is "all" or "admins" (auth.LocalLogin).
	LocalLogin string
}

// define registers the flags, with defaults from the environment.
func (o *oidcSettings) define(fs *flag.FlagSet, env func(name, def string) string) {
	fs.StringVar(&o.Issuer, "oidc-issuer", env("OIDC_ISSUER", ""), "OpenID Connect issuer, e.g. https://login.microsoftonline.com/<tenant-id>/v2.0; empty: no single sign-on (OIDC_ISSUER)")
	fs.StringVar(&o.ClientID, "oidc-client-id", env("OIDC_CLIENT_ID", ""), "application (client) id (OIDC_CLIENT_ID)")
	fs.StringVar(&o.ClientSecret, "oidc-client-secret", env("OIDC_CLIENT_SECRET", ""), "client secret (OIDC_CLIENT_SECRET)")
	fs.StringVar(&o.AssertionFile, "oidc-client-assertion-file", env("OIDC_CLIENT_ASSERTION_FILE", env("AZURE_FEDERATED_TOKEN_FILE", "")),
		"file with a federated token used instead of a client secret (OIDC_CLIENT_ASSERTION_FILE, else AZURE_FEDERATED_TOKEN_FILE)")
	fs.StringVar(&o.RedirectURL, "oidc-redirect-url", env("OIDC_REDIRECT_URL", ""), "https://<this host>"+callbackPath+", as registered (OIDC_REDIRECT_URL)")
	fs.StringVar(&o.AllowedGroups, "oidc-allowed-groups", env("OIDC_ALLOWED_GROUPS", ""), "comma-separated group ids or app roles allowed to sign in; empty: everyone the provider signs in (OIDC_ALLOWED_GROUPS)")
	fs.StringVar(&o.AdminRole, "oidc-admin-role", env("OIDC_ADMIN_ROLE", ""), "app role or group id (comma-separated) that makes an administrator (OIDC_ADMIN_ROLE)")
	fs.StringVar(&o.LocalLogin, "local-login", env("LOCAL_LOGIN", string(auth.LocalLoginAll)), "who may sign in with a password: all, or admins (LOCAL_LOGIN)")
}

// validate returns every mistake in the settings.
func (o oidcSettings) validate() []error {
	var errs []error
	if o.LocalLogin != string(auth.LocalLoginAll) && o.LocalLogin != string(auth.LocalLoginAdmins) {
		errs = append(errs, errors.New("LOCAL_LOGIN: want all or admins"))
	}
	if o.Issuer == "" {
		// The assertion file alone may be there for Foundry's credential.
		if o.ClientID != "" || o.ClientSecret != "" || o.RedirectURL != "" || o.AllowedGroups != "" || o.AdminRole != "" {
			errs = append(errs, errors.New("OIDC_*: set OIDC_ISSUER too, or none of them"))
		}
		if o.LocalLogin == string(auth.LocalLoginAdmins) {
			errs = append(errs, errors.New("LOCAL_LOGIN=admins: needs OIDC_ISSUER, or analysts could not sign in at all"))
		}
		return errs
	}
	if !webURL(o.Issuer) {
		errs = append(errs, errors.New("OIDC_ISSUER: want https://login.microsoftonline.com/<tenant-id>/v2.0 (http only on loopback)"))
	}
	if o.ClientID == "" {
		errs = append(errs, errors.New("OIDC_CLIENT_ID: required with OIDC_ISSUER"))
	}
	if o.ClientSecret == "" && o.AssertionFile == "" {
		errs = append(errs, errors.New("OIDC_CLIENT_SECRET: required with OIDC_ISSUER, unless OIDC_CLIENT_ASSERTION_FILE (or AZURE_FEDERATED_TOKEN_FILE) names a federated token"))
	}
	if u, err := url.Parse(o.RedirectURL); err != nil || !webURL(o.RedirectURL) || u.Path != callbackPath {
		errs = append(errs, errors.New("OIDC_REDIRECT_URL: want https://<this host>"+callbackPath+" (http only on loopback)"))
	}
	return errs
}

// webURL reports whether s is an absolute https URL, or http on loopback,
// which Entra ID also allows only there.
func webURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	if u.Scheme == "https" {
		return true
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	return u.Scheme == "http" && (host == "localhost" || ip != nil && ip.IsLoopback())
}

// authConfig is the settings as package auth takes them.
func (o oidcSettings) authConfig() auth.OIDCConfig {
	return auth.OIDCConfig{Issuer: o.Issuer, ClientID: o.ClientID, ClientSecret: o.ClientSecret,
		AssertionFile: o.AssertionFile, RedirectURL: o.RedirectURL,
		Policy: auth.SSOPolicy{AllowedGroups: splitList(o.AllowedGroups), AdminRoles: splitList(o.AdminRole)}}
}

// logAttrs are the settings for the start-up log, the secret hidden.
func (o oidcSettings) logAttrs() []slog.Attr {
	secret := "unset"
	if o.ClientSecret != "" {
		secret = "set"
	}
	return []slog.Attr{slog.String("oidc_issuer", o.Issuer), slog.String("oidc_client_id", o.ClientID),
		slog.String("oidc_client_secret", secret), slog.String("oidc_client_assertion_file", o.AssertionFile),
		slog.String("oidc_redirect_url", o.RedirectURL), slog.String("oidc_allowed_groups", o.AllowedGroups),
		slog.String("oidc_admin_role", o.AdminRole), slog.String("local_login", o.LocalLogin)}
}

// splitList splits a comma-separated setting, dropping blanks.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}
