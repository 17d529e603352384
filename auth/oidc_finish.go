package auth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/analyst-workbench/workbench/store"
	"github.com/coreos/go-oidc/v3/oidc"
	"golang.org/x/oauth2"
)

// SSOError is a failed single sign-on: Msg is for the person, Err for the
// log. Msg never carries the provider's own text, which an attacker who
// crafts the callback URL could choose.
type SSOError struct {
	Msg string
	Err error
}

func (e *SSOError) Error() string { return "auth: single sign-on: " + e.Err.Error() }

// UserMessage returns the text for the person signing in.
func (e *SSOError) UserMessage() string { return e.Msg }

// Unwrap returns the reason for the log.
func (e *SSOError) Unwrap() error { return e.Err }

func ssoErr(msg string, err error) error { return &SSOError{Msg: msg, Err: err} }

// What a person is told when single sign-on fails, by cause.
const (
	msgStartAgain    = "This sign-in has expired or was already used. Start again."
	msgDenied        = "The sign-in was cancelled, or consent was not given. Try again, or ask an administrator."
	msgRefused       = "The sign-in service refused the sign-in%s. Try again; if it keeps happening, tell your administrator."
	msgUnavailable   = "The sign-in service cannot be reached right now. Try again in a few minutes."
	msgMisconfigured = "Single sign-on is not set up correctly here. Tell your administrator."
	msgUnverified    = "The sign-in could not be verified. Start again; if it keeps happening, tell your administrator."
)

// ErrSSOUnavailable matches every failure to reach the provider, which is
// the provider's trouble rather than the person's.
var ErrSSOUnavailable = errors.New("provider unreachable")

// errorCode is the shape of an OAuth 2 error code; anything else in the
// callback's error parameter is not repeated to the person.
var errorCode = regexp.MustCompile(`^[a-z_]{1,40}$`)

// Finish ends a sign-in: it checks the provider's answer q against the
// flow this browser started (already removed from its session, so it is
// used once), redeems the code with the PKCE verifier, verifies the id
// token (signature, issuer, audience, expiry, nonce) and returns the
// account, creating it at a first sign-in.
func (o *OIDC) Finish(ctx context.Context, f Flow, q url.Values) (*store.User, error) {
	if err := o.checkFlow(f, q.Get("state")); err != nil {
		return nil, err
	}
	if e := q.Get("error"); e != "" {
		return nil, providerRefusal(e, q.Get("error_description"))
	}
	conf, verifier, err := o.provider(ctx)
	if err != nil {
		return nil, err
	}
	raw, err := o.exchange(ctx, conf, q.Get("code"), f.Verifier)
	if err != nil {
		return nil, err
	}
	tok, err := verifier.Verify(ctx, raw)
	if err != nil {
		return nil, ssoErr(msgUnverified, err)
	}
	if subtle.ConstantTimeCompare([]byte(tok.Nonce), []byte(f.Nonce)) != 1 {
		return nil, ssoErr(msgUnverified, errors.New("id token nonce does not match the flow's"))
	}
	id, err := identityOf(tok)
	if err != nil {
		return nil, ssoErr(msgUnverified, err)
	}
	return o.accounts.SignInSSO(ctx, id, o.cfg.Policy)
}

// checkFlow refuses an answer that is not for the flow this browser
// started, or that comes too late.
func (o *OIDC) checkFlow(f Flow, state string) error {
	if f.State == "" {
		return ssoErr(msgStartAgain, errors.New("no sign-in in progress in this session"))
	}
	if subtle.ConstantTimeCompare([]byte(state), []byte(f.State)) != 1 {
		return ssoErr(msgStartAgain, errors.New("state does not match the session's"))
	}
	if age := o.accounts.db.Now().Sub(time.Unix(f.Started, 0)); age > FlowLifetime || age < -time.Minute {
		return ssoErr(msgStartAgain, fmt.Errorf("flow started %s ago", age.Round(time.Second)))
	}
	return nil
}

// providerRefusal describes an error the provider sent back instead of a
// code: a person who cancelled or refused consent is told so plainly.
func providerRefusal(code, description string) error {
	err := fmt.Errorf("provider answered %q: %q", code, description)
	switch code {
	case "access_denied", "consent_required", "interaction_required":
		return ssoErr(msgDenied, err)
	}
	shown := ""
	if errorCode.MatchString(code) {
		shown = " (" + code + ")"
	}
	return ssoErr(fmt.Sprintf(msgRefused, shown), err)
}

// exchange redeems code for tokens and returns the raw id token.
func (o *OIDC) exchange(ctx context.Context, conf *oauth2.Config, code, verifier string) (string, error) {
	if code == "" {
		return "", ssoErr(fmt.Sprintf(msgRefused, ""), errors.New("callback without a code"))
	}
	opts := []oauth2.AuthCodeOption{oauth2.VerifierOption(verifier)}
	if o.cfg.ClientSecret == "" && o.cfg.AssertionFile != "" {
		assertion, err := os.ReadFile(o.cfg.AssertionFile)
		if err != nil {
			return "", ssoErr(msgMisconfigured, fmt.Errorf("client assertion: %w", err))
		}
		opts = append(opts, oauth2.SetAuthURLParam("client_assertion_type", clientAssertionType),
			oauth2.SetAuthURLParam("client_assertion", strings.TrimSpace(string(assertion))))
	}
	tok, err := conf.Exchange(context.WithValue(ctx, oauth2.HTTPClient, o.client), code, opts...)
	var re *oauth2.RetrieveError
	switch {
	case errors.As(err, &re) && re.ErrorCode == "invalid_grant":
		// A code used twice, expired, or redeemed with the wrong verifier.
		return "", ssoErr(msgStartAgain, err)
	case errors.As(err, &re) && re.Response != nil && re.Response.StatusCode < 500:
		return "", ssoErr(msgMisconfigured, err)
	case err != nil:
		return "", ssoErr(msgUnavailable, fmt.Errorf("%w: token endpoint: %w", ErrSSOUnavailable, err))
	}
	raw, _ := tok.Extra("id_token").(string)
	if raw == "" {
		return "", ssoErr(msgUnverified, errors.New("token response without an id_token"))
	}
	return raw, nil
}

// claims are the id token's claims the app reads.
type claims struct {
	OID               string            `json:"oid"`
	TID               string            `json:"tid"`
	PreferredUsername string            `json:"preferred_username"`
	Email             string            `json:"email"`
	Name              string            `json:"name"`
	Groups            []string          `json:"groups"`
	Roles             []string          `json:"roles"`
	ClaimNames        map[string]string `json:"_claim_names"`
}

// identityOf reads who signed in from a verified token. Entra ID's oid and
// tid name a person across apps; other providers fall back on the
// standard pair of issuer and sub.
func identityOf(tok *oidc.IDToken) (Identity, error) {
	var c claims
	if err := tok.Claims(&c); err != nil {
		return Identity{}, err
	}
	id := Identity{Tenant: c.TID, ID: c.OID, Groups: c.Groups, Roles: c.Roles}
	if id.Tenant == "" {
		id.Tenant = tok.Issuer
	}
	if id.ID == "" {
		id.ID = tok.Subject
	}
	if id.ID == "" {
		return Identity{}, errors.New("id token names nobody (no oid, no sub)")
	}
	_, id.GroupsOverage = c.ClaimNames["groups"]
	for _, name := range []string{c.PreferredUsername, c.Email, c.Name} {
		if name != "" {
			id.Username = name
			break
		}
	}
	return id, nil
}
