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

// run wires the app together and serves until ctx is cancelled. Each step
// is a function of its own; the order matters where a comment says so.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	cfg, err := parseConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogFormat, stderr)
	log.Info("starting", "config", cfg)

	db, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer db.Close()
	accounts, sso, err := setUpAccounts(ctx, cfg, db, log)
	if err != nil {
		return err
	}
	secrets, err := handlers.SessionSecrets(cfg.SessionKeys, cfg.DataDir)
	if err != nil {
		return err
	}
	blobs, err := openBlobs(ctx, cfg)
	if err != nil {
		return err
	}
	if err := interruptLastRuns(ctx, db, log); err != nil {
		return err
	}

	eng, err := startEngine(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer eng.Close()
	if err := endLocalSessions(ctx, cfg, db); err != nil {
		return err
	}
	tag, err := installTag(ctx, db)
	if err != nil {
		return err
	}
	turns := chat.New(chat.Config{DB: db, Client: eng.client, Files: blobs, Logger: log, Tag: tag,
		UserQuota: int64(cfg.UserQuotaMB) << 20, Agent: foundry.AgentSpec{Name: cfg.FoundryAgentName, Model: eng.model, MemoryLimit: cfg.FoundryMemoryLimit},
		Packages: eng.packages})

	// Background work stops when the server does and is waited for before
	// the engine and the database close (their defers run after this one).
	bg := startBackground(ctx)
	defer bg.stop()
	// The agent is set up in the background: Foundry may be slow or out of
	// reach at start, or refuse the set-up; /readyz and /admin say why.
	bg.Go(func() error { turns.SetUpAgent(bg.ctx); return nil })
	startListener(bg, db)
	thumbCache, err := thumbs.New(filepath.Join(cfg.DataDir, "thumbs"), 320)
	if err != nil {
		return err
	}
	purger := startPurger(bg, cfg, db, eng, blobs, tag, log)

	proxies, _ := cfg.proxyNets() // validated by parseConfig
	h := handlers.New(handlers.Config{
		DB: db, Accounts: accounts, OIDC: sso, Chat: turns, Thumbs: thumbCache, Purge: purger, RetentionDays: cfg.RetentionDays,
		Sessions: handlers.NewSessionStore(secrets),
		Engine:   eng.view, Ready: readiness(turns, eng), Sandbox: eng.sandbox, Logger: log,
		TrustedProxies: proxies, MetricsToken: cfg.MetricsToken, Disk: blobs,
	})
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	h.Register(e)
	// Runs end first, so that their event streams close and the server's
	// shutdown is not held open by them.
	return serve(ctx, cfg.Addr, e, log, turns.Shutdown)
}

// openStore secures the data directory and opens the database, migrated:
// PostgreSQL at DATABASE_URL, or SQLite in the data directory.
func openStore(ctx context.Context, cfg config, log *slog.Logger) (*store.DB, error) {
	if err := secureDataDir(cfg.DataDir, log); err != nil {
		return nil, err
	}
	if cfg.DatabaseURL != "" {
		return store.OpenPostgres(ctx, cfg.DatabaseURL, migrations.Postgres, store.PostgresOptions{Log: log})
	}
	return store.Open(ctx, filepath.Join(cfg.DataDir, "workbench.db"), migrations.FS, log)
}

// setUpAccounts makes the accounts service, the single sign-on when it is
// configured, and the administrator the environment names.
func setUpAccounts(ctx context.Context, cfg config, db *store.DB, log *slog.Logger) (*auth.Accounts, *auth.OIDC, error) {
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
			return nil, nil, err
		}
		log.Info("administrator ensured", "username", cfg.AdminUsername)
	}
	return accounts, sso, nil
}

// interruptLastRuns marks the answers the last process left running as
// interrupted: nothing will finish them. On a shared database the running
// answers may be other replicas' and go on there, or are adopted once
// their leases lapse (chat's adopter), so none is touched.
func interruptLastRuns(ctx context.Context, db *store.DB, log *slog.Logger) error {
	if db.Shared() {
		return nil
	}
	n, err := db.InterruptRuns(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		log.Warn("answers interrupted by the last shutdown", "runs", n)
	}
	return nil
}

// endLocalSessions ends the sessions of the local engine, which lived in
// the last process; Foundry's outlive it.
func endLocalSessions(ctx context.Context, cfg config, db *store.DB) error {
	if !cfg.localEngine() {
		return nil
	}
	_, err := db.EndSessions(ctx)
	return err
}

// installTag is the tag on everything the app creates in Foundry, so that
// reconciliation offers only the app's own objects.
func installTag(ctx context.Context, db *store.DB) (map[string]string, error) {
	install, err := db.InstallID(ctx)
	if err != nil {
		return nil, err
	}
	return map[string]string{"app": "workbench", "workbench_install": install}, nil
}

// background is the app's work that runs beside the server: started with
// Go, ended and waited for by stop.
type background struct {
	ctx    context.Context
	cancel context.CancelFunc
	errgroup.Group
}

// startBackground returns background work tied to ctx.
func startBackground(ctx context.Context) *background {
	bg := &background{}
	bg.ctx, bg.cancel = context.WithCancel(ctx)
	return bg
}

// stop ends the background work and waits for it.
func (bg *background) stop() {
	bg.cancel()
	bg.Wait()
}

// startPurger starts the outbox worker, through which deletions here and in
// Foundry go (it also finishes any purge a crash interrupted), and the
// retention sweep.
func startPurger(bg *background, cfg config, db *store.DB, eng *engine, blobs files.BlobStore, tag map[string]string, log *slog.Logger) *purge.Service {
	purger := purge.New(purge.Config{DB: db, Remote: eng.client, Lister: eng.client, Blobs: blobs, Tag: tag,
		Logger: log.With("component", "purge")})
	// One server among those sharing the database runs each (see store.Lead).
	bg.Go(func() error { db.Lead(bg.ctx, store.TaskPurge, purger.Run); return nil })
	bg.Go(func() error {
		db.Lead(bg.ctx, store.TaskRetention, func(ctx context.Context) { retain(ctx, db, purger, cfg.RetentionDays, log) })
		return nil
	})
	return purger
}

// startListener holds the connection on which the servers sharing a
// PostgreSQL database tell this one of the run events they store and the
// Stops they pass on, so that turns stream and stop across servers (see
// store.Listen); on SQLite there is nothing to listen to.
func startListener(bg *background, db *store.DB) {
	if db.Shared() {
		bg.Go(func() error { db.Listen(bg.ctx); return nil })
	}
}

// readiness is what /readyz checks: the agent, and the engine's own checks.
func readiness(turns *chat.Service, eng *engine) map[string]handlers.ReadinessCheck {
	ready := map[string]handlers.ReadinessCheck{"agent": turns.Ready}
	for name, check := range eng.ready {
		ready[name] = check
	}
	return ready
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
