// Command web serves the analyst workbench. With no configuration it runs
// on the built-in local engine; see README.md for the settings.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/analyst-workbench/workbench/auth"
	"github.com/analyst-workbench/workbench/chat"
	"github.com/analyst-workbench/workbench/files"
	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/handlers"
	"github.com/analyst-workbench/workbench/migrations"
	"github.com/analyst-workbench/workbench/purge"
	"github.com/analyst-workbench/workbench/store"
	"github.com/analyst-workbench/workbench/thumbs"
	"github.com/labstack/echo/v4"
	"golang.org/x/sync/errgroup"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		os.Exit(1)
	}
}

// shutdownGrace is how long requests in flight may take to finish after a
// SIGINT or SIGTERM.
const shutdownGrace = 20 * time.Second

// run wires the app together and serves until ctx is cancelled.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogFormat, stderr)
	log.Info("starting", "config", cfg)

	if err := secureDataDir(cfg.DataDir, log); err != nil {
		return err
	}
	db, err := store.Open(ctx, filepath.Join(cfg.DataDir, "workbench.db"), migrations.FS, log)
	if err != nil {
		return err
	}
	defer db.Close()

	accounts := auth.NewAccounts(db, 0)
	accounts.SetLocalLogin(auth.LocalLogin(cfg.OIDC.LocalLogin))
	var sso *auth.OIDC
	if cfg.OIDC.Issuer != "" {
		// The provider is first contacted at the first sign-in, so that
		// its being down never keeps the app (and password sign-in) from
		// starting.
		sso = auth.NewOIDC(cfg.OIDC.authConfig(), accounts)
	}
	if cfg.AdminUsername != "" {
		if err := accounts.EnsureAdmin(ctx, cfg.AdminUsername, cfg.AdminPassword); err != nil {
			return err
		}
		log.Info("administrator ensured", "username", cfg.AdminUsername)
	}
	secrets, err := handlers.SessionSecrets(cfg.SessionKeys, cfg.DataDir)
	if err != nil {
		return err
	}

	blobs, err := files.NewBlobs(filepath.Join(cfg.DataDir, "blobs"))
	if err != nil {
		return err
	}
	blobs.SetMinFree(int64(cfg.MinFreeMB) << 20)
	if n, err := db.InterruptRuns(ctx); err != nil {
		return err
	} else if n > 0 {
		log.Warn("answers interrupted by the last shutdown", "runs", n)
	}

	eng, err := startEngine(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer eng.Close()
	if cfg.localEngine() {
		// The local engine's sessions lived in the last process.
		if _, err := db.EndSessions(ctx); err != nil {
			return err
		}
	}
	// Everything the app creates in Foundry carries this tag, so that
	// reconciliation offers only the app's own objects.
	install, err := db.InstallID(ctx)
	if err != nil {
		return err
	}
	tag := map[string]string{"app": "workbench", "workbench_install": install}
	turns := chat.New(chat.Config{DB: db, Client: eng.client, Files: blobs, Logger: log, Tag: tag,
		UserQuota: int64(cfg.UserQuotaMB) << 20, Agent: foundry.AgentSpec{Name: cfg.FoundryAgentName, Model: eng.model}})
	// Background work stops when the server does and is waited for before
	// the engine and the database close (their defers run after this one).
	bgCtx, stopBackground := context.WithCancel(ctx)
	var background errgroup.Group
	defer func() {
		stopBackground()
		background.Wait()
	}()
	background.Go(func() error { ensureAgent(bgCtx, turns, log); return nil })

	thumbCache, err := thumbs.New(filepath.Join(cfg.DataDir, "thumbs"), 320)
	if err != nil {
		return err
	}

	// Deletions here and in Foundry go through the outbox worker, which
	// also finishes any purge a crash interrupted.
	purger := purge.New(purge.Config{DB: db, Remote: eng.client, Lister: eng.client, Blobs: blobs, Tag: tag,
		BlobDir: filepath.Join(cfg.DataDir, "blobs"), Logger: log.With("component", "purge")})
	background.Go(func() error { purger.Run(bgCtx); return nil })
	background.Go(func() error { retain(bgCtx, db, purger, cfg.RetentionDays, log); return nil })

	proxies, _ := cfg.proxyNets() // validated by parseConfig
	ready := map[string]handlers.ReadinessCheck{"agent": turns.Ready}
	for name, check := range eng.ready {
		ready[name] = check
	}
	h := handlers.New(handlers.Config{
		DB: db, Accounts: accounts, OIDC: sso, Chat: turns, Thumbs: thumbCache, Purge: purger, RetentionDays: cfg.RetentionDays,
		Sessions: handlers.NewSessionStore(secrets),
		Engine:   eng.view, Ready: ready, Sandbox: eng.sandbox, Logger: log,
		TrustedProxies: proxies, MetricsToken: cfg.MetricsToken, Disk: blobs,
	})
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	h.Register(e)
	// Runs end first, so that their event streams close and the server's
	// shutdown is not held open by them.
	return serve(ctx, cfg.Addr, e, log, turns.Shutdown)
}

// ensureAgent sets the agent up in the background, retrying with backoff:
// Foundry may be slow or briefly unreachable at start, and /readyz says so
// meanwhile.
func ensureAgent(ctx context.Context, turns *chat.Service, log *slog.Logger) {
	for wait := time.Second; ; wait = min(2*wait, time.Minute) {
		err := turns.EnsureAgent(ctx)
		if err == nil || ctx.Err() != nil {
			return
		}
		log.Error("agent set-up failed; retrying", "err", err, "in", wait)
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// serve listens on addr and serves until ctx ends, then lets requests in
// flight finish for up to shutdownGrace.
func serve(ctx context.Context, addr string, handler http.Handler, log *slog.Logger, beforeShutdown ...func(context.Context) error) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		// No BaseContext tied to ctx: that would cancel every request in
		// flight at SIGTERM, when they should be allowed to finish.
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String(), "url", "http://"+displayAddr(ln.Addr()))

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", shutdownGrace)
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	for _, f := range beforeShutdown {
		if err := f(sctx); err != nil {
			log.Warn("shutdown step", "err", err)
		}
	}
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// displayAddr turns a wildcard listen address into one a browser can open.
func displayAddr(a net.Addr) string {
	if tcp, ok := a.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return fmt.Sprintf("localhost:%d", tcp.Port)
	}
	return a.String()
}

// newLogger logs text to a terminal and JSON when asked to.
func newLogger(format string, w io.Writer) *slog.Logger {
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, nil))
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// retain applies the retention period every hour: the admin page's setting,
// or RETENTION_DAYS when no admin changed it. It goes through the same purge
// path as a manual purge, with its own audit entries.
func retain(ctx context.Context, db *store.DB, purger *purge.Service, def int, log *slog.Logger) {
	tick := time.NewTicker(time.Hour)
	defer tick.Stop()
	for {
		days, err := db.IntSetting(ctx, store.SettingRetentionDays, def)
		if err != nil {
			log.Error("retention setting", "err", err)
		} else if days > 0 {
			if _, err := purger.RunRetention(ctx, days); err != nil {
				log.Error("retention", "days", days, "err", err)
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}
