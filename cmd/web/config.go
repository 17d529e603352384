package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/analyst-workbench/workbench/foundry"
	"github.com/analyst-workbench/workbench/store"
)

// config is everything the server can be told at start. Each field has a
// flag and an environment variable of the same meaning; a flag wins.
type config struct {
	Addr    string
	DataDir string
	// DatabaseURL, a postgres:// URL, puts the state in PostgreSQL for
	// several replicas to share; empty keeps SQLite in DataDir.
	DatabaseURL      string
	AdminUsername    string
	AdminPassword    string
	SessionKeys      string
	FoundryEndpoint  string
	FoundryModel     string
	FoundryAgentName string
	FoundryToken     string
	// FoundryMemoryLimit is the size of the Code Interpreter container the
	// agent asks for: 1g, 4g, 16g or 64g; empty leaves the service's
	// default, 1g.
	FoundryMemoryLimit string
	AnalystModelURL    string
	AnalystModel       string
	AnalystAPIKey      string
	SandboxIsolation   string
	// SandboxMemoryBudget is the memory all sandbox kernels may use
	// together, in bytes; 0 lets the sandbox take half of what is available.
	SandboxMemoryBudget int64
	// SandboxWarm is the number of kernels always kept warm; 0 is the
	// sandbox's default (two, more after a rush).
	SandboxWarm   int
	RetentionDays int
	LogFormat     string
	// TrustedProxies is a comma-separated list of CIDRs (or addresses)
	// whose X-Forwarded-For is believed; see proxyNets.
	TrustedProxies string
	MetricsToken   string
	// UserQuotaMB caps the megabytes of files one user keeps, uploaded and
	// generated; 0 is no quota.
	UserQuotaMB int
	// MinFreeMB is the free space, in megabytes, below which nothing more is
	// stored on DATA_DIR's disk; 0 turns the floor off.
	MinFreeMB int
	// OIDC is single sign-on and who may use a password; see config_oidc.go.
	OIDC oidcSettings
	// Blobs is where file bytes are kept; see config_blobs.go.
	Blobs blobSettings
}

// defaultUserQuotaMB is 10 GB a user: twenty of the largest files, and far
// more than a year of ordinary spreadsheets.
const defaultUserQuotaMB = 10 << 10

// defaultMinFreeMB keeps 1 GB free on the data disk: enough for SQLite's
// journal and the files in flight, so that a full disk never breaks the
// database.
const defaultMinFreeMB = 1 << 10

// parseConfig reads flags from args with fallbacks from getenv, then
// validates the result in one place.
func parseConfig(args []string, getenv func(string) string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("web", flag.ContinueOnError)
	fs.SetOutput(stderr)
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	fs.StringVar(&c.Addr, "addr", env("ADDR", ":8080"), "listen address (ADDR)")
	fs.StringVar(&c.DataDir, "data-dir", env("DATA_DIR", "./data"), "directory for the database and files (DATA_DIR)")
	fs.StringVar(&c.DatabaseURL, "database-url", env("DATABASE_URL", ""), "postgres:// URL of a database shared by several replicas; empty: SQLite in DATA_DIR (DATABASE_URL)")
	fs.StringVar(&c.AdminUsername, "admin-username", env("ADMIN_USERNAME", ""), "create or reset this admin at start (ADMIN_USERNAME)")
	fs.StringVar(&c.AdminPassword, "admin-password", env("ADMIN_PASSWORD", ""), "password of that admin (ADMIN_PASSWORD)")
	fs.StringVar(&c.SessionKeys, "session-keys", env("SESSION_KEYS", ""), "comma-separated cookie secrets, newest first (SESSION_KEYS)")
	fs.StringVar(&c.FoundryEndpoint, "foundry-endpoint", env("FOUNDRY_PROJECT_ENDPOINT", ""), "Foundry project endpoint; empty runs the local engine (FOUNDRY_PROJECT_ENDPOINT)")
	fs.StringVar(&c.FoundryModel, "foundry-model", env("FOUNDRY_MODEL_DEPLOYMENT", ""), "model deployment of the agent (FOUNDRY_MODEL_DEPLOYMENT)")
	fs.StringVar(&c.FoundryToken, "foundry-token", env("FOUNDRY_TOKEN", ""), "static bearer token instead of Azure credentials, for a standalone foundry-emulator (FOUNDRY_TOKEN)")
	fs.StringVar(&c.FoundryAgentName, "foundry-agent", env("FOUNDRY_AGENT_NAME", "workbench-analyst"), "name of the agent (FOUNDRY_AGENT_NAME)")
	fs.StringVar(&c.FoundryMemoryLimit, "foundry-memory-limit", env("FOUNDRY_MEMORY_LIMIT", ""),
		"Code Interpreter container size: 1g for up to about 100 MB of files a question, 4g for 400 MB, 16g for 1.6 GB, else 64g; empty: the service's default, 1g (FOUNDRY_MEMORY_LIMIT)")
	fs.StringVar(&c.AnalystModelURL, "analyst-model-url", env("ANALYST_MODEL_URL", ""), "OpenAI-compatible endpoint for the local analyst (ANALYST_MODEL_URL)")
	fs.StringVar(&c.AnalystModel, "analyst-model", env("ANALYST_MODEL", ""), "model name at that endpoint (ANALYST_MODEL)")
	fs.StringVar(&c.AnalystAPIKey, "analyst-api-key", env("ANALYST_API_KEY", ""), "API key for that endpoint (ANALYST_API_KEY)")
	fs.StringVar(&c.SandboxIsolation, "sandbox-isolation", env("SANDBOX_ISOLATION", "bwrap"), "bwrap, or none for machines without user namespaces (SANDBOX_ISOLATION)")
	fs.StringVar(&c.LogFormat, "log-format", env("LOG_FORMAT", "text"), "text or json (LOG_FORMAT)")
	budget := env("SANDBOX_MEMORY_BUDGET", "")
	fs.Func("sandbox-memory-budget", "memory all sandbox kernels may use together, e.g. 8GiB; empty: half of what is available (SANDBOX_MEMORY_BUDGET)", func(s string) error {
		budget = s
		return nil
	})
	warm := env("SANDBOX_WARM", "0")
	fs.Func("sandbox-warm", "kernels always kept warm for new conversations; 0: two, or eight when kernels fork from the template, more after a rush (SANDBOX_WARM)", func(s string) error {
		warm = s
		return nil
	})
	fs.StringVar(&c.TrustedProxies, "trusted-proxies", env("TRUSTED_PROXIES", ""), "comma-separated CIDRs of reverse proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES)")
	fs.StringVar(&c.MetricsToken, "metrics-token", env("METRICS_TOKEN", ""), "bearer token that lets a scraper read /metrics (METRICS_TOKEN)")
	c.OIDC.define(fs, env)
	c.Blobs.define(fs, env)
	retention := env("RETENTION_DAYS", "0")
	fs.Func("retention-days", "delete conversations older than this many days; 0 keeps them (RETENTION_DAYS)", func(s string) error {
		retention = s
		return nil
	})
	quota := env("USER_QUOTA_MB", strconv.Itoa(defaultUserQuotaMB))
	fs.Func("user-quota-mb", "megabytes of files one user may keep; 0 is no quota (USER_QUOTA_MB)", func(s string) error {
		quota = s
		return nil
	})
	minFree := env("DATA_MIN_FREE_MB", strconv.Itoa(defaultMinFreeMB))
	fs.Func("data-min-free-mb", "megabytes kept free on the data disk: below, nothing more is stored; 0 is off (DATA_MIN_FREE_MB)", func(s string) error {
		minFree = s
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	n, err := strconv.Atoi(retention)
	if err != nil {
		return config{}, fmt.Errorf("RETENTION_DAYS: %q is not a whole number of days", retention)
	}
	c.RetentionDays = n
	if c.SandboxMemoryBudget, err = parseBytes(budget); err != nil {
		return config{}, fmt.Errorf("SANDBOX_MEMORY_BUDGET: %w", err)
	}
	if c.SandboxWarm, err = strconv.Atoi(warm); err != nil {
		return config{}, fmt.Errorf("SANDBOX_WARM: %q is not a whole number of kernels", warm)
	}
	if c.UserQuotaMB, err = strconv.Atoi(quota); err != nil {
		return config{}, fmt.Errorf("USER_QUOTA_MB: %q is not a whole number of megabytes", quota)
	}
	if c.MinFreeMB, err = strconv.Atoi(minFree); err != nil || c.MinFreeMB < 0 {
		return config{}, fmt.Errorf("DATA_MIN_FREE_MB: %q is not a whole number of megabytes", minFree)
	}
	return c, c.validate()
}

// maxSandboxWarm bounds SANDBOX_WARM: warm kernels idle in memory, and
// the budget still decides how many of them actually start.
const maxSandboxWarm = 64

// validate checks the configuration as a whole, so that every mistake is
// reported at start, in one message, rather than at first use.
func (c config) validate() error {
	var errs []error
	if c.Addr == "" {
		errs = append(errs, errors.New("ADDR: must not be empty"))
	}
	if c.DataDir == "" {
		errs = append(errs, errors.New("DATA_DIR: must not be empty"))
	}
	errs = append(errs, c.validateShared()...)
	if (c.AdminUsername == "") != (c.AdminPassword == "") {
		errs = append(errs, errors.New("ADMIN_USERNAME and ADMIN_PASSWORD: set both or neither"))
	}
	if c.FoundryEndpoint != "" {
		// Plain http only with a static token: a standalone emulator on
		// loopback (the client refuses http anywhere else).
		u, err := url.Parse(c.FoundryEndpoint)
		if err != nil || !(u.Scheme == "https" || u.Scheme == "http" && c.FoundryToken != "") || !strings.Contains(u.Path, "/api/projects/") {
			errs = append(errs, errors.New("FOUNDRY_PROJECT_ENDPOINT: want https://<resource>.services.ai.azure.com/api/projects/<project>"))
		}
		if c.FoundryModel == "" {
			errs = append(errs, errors.New("FOUNDRY_MODEL_DEPLOYMENT: required with FOUNDRY_PROJECT_ENDPOINT"))
		}
	}
	if c.FoundryToken != "" && c.FoundryEndpoint == "" {
		errs = append(errs, errors.New("FOUNDRY_TOKEN: set FOUNDRY_PROJECT_ENDPOINT too (the emulator's project endpoint)"))
	}
	if c.FoundryMemoryLimit != "" && !slices.Contains(foundry.MemoryLimits, c.FoundryMemoryLimit) {
		errs = append(errs, fmt.Errorf("FOUNDRY_MEMORY_LIMIT: %q is none of %s", c.FoundryMemoryLimit, strings.Join(foundry.MemoryLimits, ", ")))
	}
	if c.SandboxIsolation != "bwrap" && c.SandboxIsolation != "none" {
		errs = append(errs, fmt.Errorf("SANDBOX_ISOLATION: %q is neither bwrap nor none", c.SandboxIsolation))
	}
	if c.SandboxMemoryBudget != 0 && c.SandboxMemoryBudget < 512<<20 {
		errs = append(errs, errors.New("SANDBOX_MEMORY_BUDGET: at least 512MiB, room for a few kernels"))
	}
	if c.SandboxWarm < 0 || c.SandboxWarm > maxSandboxWarm {
		errs = append(errs, fmt.Errorf("SANDBOX_WARM: from 0 (the default) to %d kernels", maxSandboxWarm))
	}
	if c.RetentionDays < 0 {
		errs = append(errs, errors.New("RETENTION_DAYS: must be 0 (keep) or more"))
	}
	if c.UserQuotaMB < 0 {
		errs = append(errs, errors.New("USER_QUOTA_MB: must be 0 (no quota) or more"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		errs = append(errs, fmt.Errorf("LOG_FORMAT: %q is neither text nor json", c.LogFormat))
	}
	errs = append(errs, c.OIDC.validate()...)
	errs = append(errs, c.Blobs.validate()...)
	if _, err := c.proxyNets(); err != nil {
		errs = append(errs, err)
	}
	if c.MetricsToken != "" && len(c.MetricsToken) < minMetricsToken {
		errs = append(errs, fmt.Errorf("METRICS_TOKEN: use at least %d characters (try: openssl rand -hex 32)", minMetricsToken))
	}
	if c.AnalystModelURL != "" {
		if u, err := url.Parse(c.AnalystModelURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			errs = append(errs, errors.New("ANALYST_MODEL_URL: want an http(s) URL"))
		}
		if c.AnalystModel == "" {
			errs = append(errs, errors.New("ANALYST_MODEL: required with ANALYST_MODEL_URL"))
		}
	}
	return errors.Join(errs...)
}

// validateShared checks what shared mode (DATABASE_URL) needs of the rest:
// replicas must open each other's cookies, so the secrets cannot be one
// generated per replica, and a turn must be reachable from any replica, so
// the engine cannot be the in-process one whose sessions live in one.
func (c config) validateShared() []error {
	if c.DatabaseURL == "" {
		return nil
	}
	var errs []error
	if !store.IsPostgresURL(c.DatabaseURL) {
		errs = append(errs, errors.New("DATABASE_URL: want postgres://user@host:5432/database?sslmode=require"))
	}
	if c.SessionKeys == "" {
		errs = append(errs, errors.New("SESSION_KEYS: required with DATABASE_URL, the same on every replica (a generated key would be one replica's own)"))
	}
	if c.localEngine() {
		errs = append(errs, errors.New("DATABASE_URL: shared mode needs Foundry (FOUNDRY_PROJECT_ENDPOINT and FOUNDRY_MODEL_DEPLOYMENT) or one standalone foundry-emulator reached with FOUNDRY_TOKEN; the in-process local engine's sessions live in one replica"))
	}
	return errs
}

// redactedURL is u with its password hidden, for the log.
func redactedURL(u string) string {
	if u == "" {
		return ""
	}
	parsed, err := url.Parse(u)
	if err != nil {
		return "set (unparsable)"
	}
	return parsed.Redacted()
}

// minMetricsToken keeps the metrics token out of reach of guessing.
const minMetricsToken = 16

// proxyNets parses TrustedProxies; a bare address is a network of one.
func (c config) proxyNets() ([]*net.IPNet, error) {
	var nets []*net.IPNet
	for _, s := range splitList(c.TrustedProxies) {
		cidr := s
		if ip := net.ParseIP(s); ip != nil && ip.To4() != nil {
			cidr += "/32"
		} else if ip != nil {
			cidr += "/128"
		}
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			return nil, fmt.Errorf("TRUSTED_PROXIES: %q is neither an address nor a CIDR such as 10.0.0.0/8", s)
		}
		nets = append(nets, n)
	}
	return nets, nil
}

// localEngine reports whether the built-in engine is used.
func (c config) localEngine() bool { return c.FoundryEndpoint == "" }

// LogValue logs the configuration with every secret replaced by whether it
// is set.
func (c config) LogValue() slog.Value {
	set := func(s string) string {
		if s == "" {
			return "unset"
		}
		return "set"
	}
	return slog.GroupValue(append([]slog.Attr{
		slog.String("addr", c.Addr), slog.String("data_dir", c.DataDir), slog.String("database_url", redactedURL(c.DatabaseURL)),
		slog.String("admin_username", c.AdminUsername), slog.String("admin_password", set(c.AdminPassword)),
		slog.String("session_keys", set(c.SessionKeys)),
		slog.String("foundry_endpoint", c.FoundryEndpoint), slog.String("foundry_model", c.FoundryModel),
		slog.String("foundry_agent", c.FoundryAgentName), slog.String("foundry_token", set(c.FoundryToken)),
		slog.String("analyst_model_url", c.AnalystModelURL), slog.String("analyst_model", c.AnalystModel),
		slog.String("analyst_api_key", set(c.AnalystAPIKey)),
		slog.String("sandbox_isolation", c.SandboxIsolation), slog.Int64("sandbox_memory_budget", c.SandboxMemoryBudget),
		slog.Int("retention_days", c.RetentionDays),
		slog.String("log_format", c.LogFormat), slog.String("trusted_proxies", c.TrustedProxies),
		slog.String("metrics_token", set(c.MetricsToken)),
		slog.Int("user_quota_mb", c.UserQuotaMB),
		slog.Int("data_min_free_mb", c.MinFreeMB),
	}, append(c.OIDC.logAttrs(), c.Blobs.logAttrs()...)...)...)
}

// byteUnits are the suffixes parseBytes accepts, longest first.
var byteUnits = []struct {
	suffix string
	mult   int64
}{
	{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3},
	{"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1},
}

// parseBytes reads a size such as "8GiB", "512MB", "2G" or "1073741824";
// "" is 0.
func parseBytes(in string) (int64, error) {
	s := strings.TrimSpace(in)
	if s == "" {
		return 0, nil
	}
	mult := int64(1)
	for _, u := range byteUnits {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(num), u.mult
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a size such as 8GiB or 512MB", in)
	}
	return int64(n * float64(mult)), nil
}
