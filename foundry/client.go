package foundry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/conversations"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
)

// Config configures a Client.
type Config struct {
	// Endpoint is the project endpoint,
	// https://<resource>.services.ai.azure.com/api/projects/<project>.
	// Plain http is accepted only for loopback hosts (the local engine).
	Endpoint string
	// Credential supplies bearer tokens for Scope: DefaultCredential for
	// Foundry, StaticToken for the local engine.
	Credential azcore.TokenCredential
	// HTTPClient carries every request; nil means a client with no overall
	// timeout, because response streams can run for minutes.
	HTTPClient *http.Client
	// MaxRetries bounds retries of 408, 429, 5xx and connection errors;
	// 0 means DefaultMaxRetries, a negative value disables retries.
	MaxRetries int
	// MaxRetryDelay caps the backoff between retries; a server retry-after
	// longer than this is not waited out, the error is returned instead.
	// 0 keeps the libraries' defaults (8 s backoff cap, 60 s to 2 min of
	// retry-after).
	MaxRetryDelay time.Duration
	// RateLimitWait is the first wait before a turn creation refused with
	// a 429 that names no wait (no retry-after header: the OpenAI spec says
	// it "may be omitted", and it was reported missing on Azure,
	// shared/reference/foundry-recorded.md 8a); it doubles on each further
	// try. 0 means DefaultRateLimitWait; tests set a few milliseconds.
	RateLimitWait time.Duration
	// Logger receives one line per failed attempt; nil discards.
	Logger *slog.Logger
	// ContentType names the media type an uploaded file is sent with, from
	// its name; nil sends every file as application/octet-stream. The app
	// passes the product's table of kinds (files.FoundryContentType): the
	// host's MIME database differs from machine to machine (.ts as a Qt
	// Linguist file, ten of Code Interpreter's types unknown on a slim
	// image), and this package imports nothing of the app's.
	ContentType func(name string) string
}

// DefaultRateLimitWait is used when Config.RateLimitWait is 0: long enough
// for a per-minute token window to move, short enough that three tries end
// within half a minute.
const DefaultRateLimitWait = 5 * time.Second

// DefaultMaxRetries is used when Config.MaxRetries is 0.
const DefaultMaxRetries = 3

// apiVersion is the GA version of the Foundry-native routes.
const apiVersion = "v1"

// Client talks to one Foundry project: agents through an azcore pipeline,
// everything OpenAI-compatible through openai-go.
type Client struct {
	endpoint string // project endpoint, no trailing slash
	pipeline runtime.Pipeline
	tokens   *tokenSource
	log      *slog.Logger

	// createRetries and maxRetryDelay govern the resending of a refused
	// turn creation (see StreamResponse), which openai-go must not retry.
	createRetries int
	maxRetryDelay time.Duration
	rateLimitWait time.Duration

	contentType func(name string) string // see Config.ContentType

	oai           openai.Client
	files         openai.FileService
	conversations conversations.ConversationService
	responses     responses.ResponseService
	containers    openai.ContainerService
}

// New validates cfg and builds a Client. It makes no request.
func New(cfg Config) (*Client, error) {
	u, err := url.Parse(strings.TrimRight(cfg.Endpoint, "/"))
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("foundry: invalid endpoint %q", cfg.Endpoint)
	}
	loopback := isLoopback(u)
	if u.Scheme != "https" && !(u.Scheme == "http" && loopback) {
		return nil, fmt.Errorf("foundry: endpoint %q must be https (http only on loopback)", cfg.Endpoint)
	}
	if cfg.Credential == nil {
		return nil, errors.New("foundry: no credential")
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	c := &Client{
		endpoint:      u.String(),
		tokens:        &tokenSource{cred: cfg.Credential, scopes: []string{Scope}, now: time.Now},
		log:           logger,
		createRetries: min(retries(cfg.MaxRetries), maxCreateRetries),
		maxRetryDelay: cfg.MaxRetryDelay,
		rateLimitWait: cfg.RateLimitWait,
		contentType:   cfg.ContentType,
	}
	if c.contentType == nil {
		c.contentType = func(string) string { return octetStream }
	}
	if c.rateLimitWait <= 0 {
		c.rateLimitWait = DefaultRateLimitWait
	}
	if c.maxRetryDelay <= 0 {
		c.maxRetryDelay = defaultMaxServerDelay
	}
	c.pipeline = newPipeline(cfg, hc, loopback)
	c.initOpenAI(cfg, hc)
	return c, nil
}

func newPipeline(cfg Config, hc *http.Client, loopback bool) runtime.Pipeline {
	// azcore's bearer policy refuses to put a token on a plain-http request.
	// The local engine serves http on 127.0.0.1 only, so the token never
	// leaves the host; anywhere else https stays mandatory (New checks).
	bearer := runtime.NewBearerTokenPolicy(cfg.Credential, []string{Scope},
		&policy.BearerTokenOptions{InsecureAllowCredentialWithHTTP: loopback})
	retry := policy.RetryOptions{MaxRetries: int32(retries(cfg.MaxRetries))}
	if retry.MaxRetries == 0 {
		retry.MaxRetries = -1 // azcore reads 0 as "default"; -1 is "none"
	}
	if cfg.MaxRetryDelay > 0 {
		retry.MaxRetryDelay = cfg.MaxRetryDelay
		retry.RetryDelay = min(800*time.Millisecond, cfg.MaxRetryDelay)
	}
	return runtime.NewPipeline("foundry", "v1", runtime.PipelineOptions{PerRetry: []policy.Policy{bearer}},
		&policy.ClientOptions{Transport: hc, Retry: retry})
}

func (c *Client) initOpenAI(cfg Config, hc *http.Client) {
	// The services are built directly rather than through openai.NewClient,
	// which would also read OPENAI_API_KEY, OPENAI_BASE_URL and friends from
	// the environment: a developer's OpenAI key must never reach Foundry.
	opts := []option.RequestOption{
		option.WithBaseURL(c.endpoint + "/openai/v1/"),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(retries(cfg.MaxRetries)),
		option.WithMiddleware(c.authorize),
	}
	if cfg.MaxRetryDelay > 0 {
		opts = append(opts, option.WithMaxRetryDelay(cfg.MaxRetryDelay))
	}
	c.oai = openai.Client{Options: opts}
	c.files = openai.NewFileService(opts...)
	c.conversations = conversations.NewConversationService(opts...)
	c.responses = responses.NewResponseService(opts...)
	c.containers = openai.NewContainerService(opts...)
}

// defaultHTTPClient has no overall timeout, since a response stream may run
// for many minutes, but bounds the wait for response headers so that a
// silent server cannot hold a call forever.
func defaultHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.ResponseHeaderTimeout = 10 * time.Minute
	return &http.Client{Transport: t}
}

func retries(n int) int {
	switch {
	case n == 0:
		return DefaultMaxRetries
	case n < 0:
		return 0
	}
	return n
}

// authorize is the openai-go middleware: it runs once per attempt, so every
// retry gets a current token, and it records the attempt's error body
// before openai-go consumes it (see errCapture).
//
// Plain http is safe here for the same reason as in newPipeline: New only
// accepts http for loopback, and openai-go never sends a request to another
// origin than the base URL's.
func (c *Client) authorize(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	tok, err := c.tokens.token(req.Context())
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	capt, _ := req.Context().Value(captureKey{}).(*errCapture)
	if capt != nil {
		capt.err = nil // only the last attempt's error counts
	}
	resp, err := next(req)
	if err != nil {
		c.log.Debug("foundry: attempt failed", "method", req.Method, "path", req.URL.Path, "err", err)
		return nil, err
	}
	if v := resp.Header.Get("x-ms-retry-after-ms"); v != "" && resp.Header.Get("retry-after-ms") == "" {
		// azcore honours the x-ms form; openai-go only reads retry-after-ms.
		resp.Header.Set("Retry-After-Ms", v)
	}
	if resp.StatusCode >= 400 {
		ae := newAPIError(resp)
		if capt != nil {
			capt.err = ae
		}
		c.log.Log(req.Context(), failureLevel(ae.StatusCode), "foundry: attempt failed", "method", req.Method,
			"path", req.URL.Path, "status", ae.StatusCode, "code", ae.Code, "request_id", ae.RequestID)
	}
	return resp, nil
}

// failureLevel keeps expected answers quiet (a 404 is how purge learns that
// something is already gone) and makes what retries are about visible.
func failureLevel(status int) slog.Level {
	if status == http.StatusTooManyRequests || status >= 500 {
		return slog.LevelWarn
	}
	return slog.LevelDebug
}

// errCapture holds the APIError of the last attempt of one call. openai-go
// turns error bodies into its own type only when they have an "error"
// object; gateways also answer with flat bodies, and then openai-go returns
// a bare JSON error. Capturing in the middleware makes every shape an
// *APIError with status and request id.
type errCapture struct{ err *APIError }

type captureKey struct{}

// call runs one openai-go operation and turns its error into ours.
func (c *Client) call(ctx context.Context, op string, f func(ctx context.Context) error) error {
	capt := &errCapture{}
	err := f(context.WithValue(ctx, captureKey{}, capt))
	if err == nil {
		return nil
	}
	if capt.err != nil && ctx.Err() == nil {
		return fmt.Errorf("foundry: %s: %w", op, capt.err)
	}
	return fmt.Errorf("foundry: %s: %w", op, err)
}

// readAllClose drains and closes an http body, for callers that only need
// the connection back.
func readAllClose(rc io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(rc, 1<<20))
	_ = rc.Close()
}
