// Package handlers is the HTTP surface of the workbench: the echo route
// table, middleware, and thin handlers that parse a request, call the
// package that owns the logic, and render a view.
package handlers

import (
	"context"
	"log/slog"
	"net"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/shares"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/thumbs"
	"github.com/analyst-workbench/workbench/views"
	"github.com/gorilla/sessions"
)

// ReadinessCheck reports whether one dependency (the engine, the sandbox)
// is ready; a non-nil error's text is the reason /readyz gives.
type ReadinessCheck func(ctx context.Context) error

// Config holds the dependencies of the handlers, built by cmd/web.
type Config struct {
	DB       *store.DB
	Accounts *auth.Accounts
	// OIDC signs people in through an OpenID Connect provider (Entra ID);
	// nil when OIDC_ISSUER is unset, which hides single sign-on.
	OIDC *auth.OIDC
	// Chat runs the turns of analysis.
	Chat *chat.Service
	// Thumbs makes the gallery's chart previews.
	Thumbs *thumbs.Cache
	// Purge deletes conversations and files here and in Foundry.
	Purge *purge.Service
	// RetentionDays is shown on the admin page; 0 means off.
	RetentionDays int
	// Sessions stores the cookie sessions; see NewSessionStore.
	Sessions sessions.Store
	// Engine is shown as a badge on every page.
	Engine views.Engine
	// Ready names the readiness checks that /readyz runs besides the database.
	Ready map[string]ReadinessCheck
	// Sandbox reads the local engine's sandbox figures for /admin and
	// /metrics; nil on Foundry.
	Sandbox func() SandboxStats
	// Disk reads the stored files' disk for /metrics; nil leaves it out.
	Disk DiskStore
	// TrustedProxies are the networks whose X-Forwarded-For is believed;
	// empty means the connection's peer is the client.
	TrustedProxies []*net.IPNet
	// MetricsToken, when set, lets a scraper read /metrics with
	// "Authorization: Bearer <token>" from anywhere.
	MetricsToken string
	// BodyIdleTimeout cuts off a request body that sends nothing for this
	// long; 0 means DefaultBodyIdleTimeout.
	BodyIdleTimeout time.Duration
	Logger          *slog.Logger
}

// Handler serves every route of the app.
type Handler struct {
	db       *store.DB
	accounts *auth.Accounts
	oidc     *auth.OIDC
	chat     *chat.Service
	shares   *shares.Service // every change to a read-only link
	thumbs   *thumbs.Cache
	purge    *purge.Service
	metrics  *metrics
	retain   int
	sessions sessions.Store
	engine   views.Engine
	ready    map[string]ReadinessCheck
	sandbox  func() SandboxStats
	proxies  []*net.IPNet
	scrape   string
	bodyIdle time.Duration
	log      *slog.Logger
}

// New returns a Handler for cfg.
func New(cfg Config) *Handler {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := newMetrics()
	if cfg.Sandbox != nil {
		m.registerSandbox(cfg.Sandbox)
	}
	if cfg.Disk != nil {
		m.registerDisk(cfg.Disk)
	}
	if cfg.DB != nil {
		m.registerLeaders(cfg.DB.Leading)
	}
	if cfg.BodyIdleTimeout <= 0 {
		cfg.BodyIdleTimeout = DefaultBodyIdleTimeout
	}
	return &Handler{db: cfg.DB, accounts: cfg.Accounts, oidc: cfg.OIDC, chat: cfg.Chat, thumbs: cfg.Thumbs, metrics: m, purge: cfg.Purge, retain: cfg.RetentionDays, sessions: cfg.Sessions,
		engine: cfg.Engine, ready: cfg.Ready, sandbox: cfg.Sandbox, proxies: cfg.TrustedProxies, scrape: cfg.MetricsToken,
		bodyIdle: cfg.BodyIdleTimeout, shares: shares.New(cfg.DB), log: log}
}
