package handlers

import (
	"crypto/sha256"
	"crypto/subtle"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the Prometheus metrics the app exports at /metrics.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	streams  prometheus.Gauge
	turns    prometheus.Counter
	uploads  *prometheus.CounterVec

	// routes holds the route templates, read from echo at the first request.
	routesOnce sync.Once
	routes     map[string]bool
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "workbench_http_requests_total",
			Help: "HTTP requests by route and status."}, []string{"method", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "workbench_http_request_duration_seconds",
			Help: "Time to answer an HTTP request (event streams excluded).", Buckets: prometheus.ExponentialBuckets(0.0005, 4, 8)},
			[]string{"method", "route"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{Name: "workbench_event_streams",
			Help: "Browsers following a turn's event stream now."}),
		turns: prometheus.NewCounter(prometheus.CounterOpts{Name: "workbench_turns_started_total",
			Help: "Questions asked."}),
		uploads: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "workbench_uploads_total",
			Help: "Uploaded files by outcome."}, []string{"outcome"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.streams, m.turns, m.uploads,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observe records every request under its route template and a known
// method, so that no request can add a series: a made-up method is OTHER
// and a path no route serves is "unmatched".
func (m *metrics) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		method, route := methodLabel(c.Request().Method), m.routeLabel(c)
		status := c.Response().Status
		if he, ok := err.(*echo.HTTPError); ok {
			status = he.Code
		}
		m.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
		if c.Response().Header().Get(echo.HeaderContentType) != "text/event-stream" {
			m.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
		}
		return err
	}
}

// knownMethods are the methods of RFC 9110 and PATCH; any other is counted
// as OTHER.
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true, http.MethodPatch: true,
	http.MethodDelete: true, http.MethodConnect: true, http.MethodOptions: true, http.MethodTrace: true,
}

func methodLabel(method string) string {
	if knownMethods[method] {
		return method
	}
	return "OTHER"
}

// routeLabel is the route template that served c. Echo reports the template,
// not the path, but for a request no route matched it may report the
// nearest node of its tree, so only registered templates are kept.
func (m *metrics) routeLabel(c echo.Context) string {
	m.routesOnce.Do(func() {
		m.routes = map[string]bool{}
		for _, r := range c.Echo().Routes() {
			m.routes[r.Path] = true
		}
	})
	if route := c.Path(); m.routes[route] {
		return route
	}
	return "unmatched"
}

// showMetrics serves /metrics to scrapers on this machine, to scrapers
// with the metrics token, and to admins.
func (h *Handler) showMetrics(c echo.Context) error {
	if !h.mayReadMetrics(c) {
		return echo.NewHTTPError(http.StatusForbidden, "Metrics are for administrators, for scrapers on this machine and for scrapers with the metrics token.")
	}
	promhttp.HandlerFor(h.metrics.registry, promhttp.HandlerOpts{}).ServeHTTP(c.Response(), c.Request())
	return nil
}

func (h *Handler) mayReadMetrics(c echo.Context) bool {
	if isLoopback(c.RealIP()) {
		return true
	}
	if h.scrape != "" && tokenMatches(bearerToken(c.Request().Header.Get(echo.HeaderAuthorization)), h.scrape) {
		return true
	}
	u, err := h.viewer(c)
	return err == nil && u != nil && u.IsAdmin()
}

// isLoopback reports whether the client is on this machine. The address
// comes from echo's IPExtractor, which believes forwarding headers only
// from trusted proxies; behind a proxy on this machine, that proxy must be
// trusted (TRUSTED_PROXIES), or every client would look local.
func isLoopback(addr string) bool {
	ip := net.ParseIP(addr)
	return ip != nil && ip.IsLoopback()
}

// bearerToken returns the token of an "Authorization: Bearer" header.
func bearerToken(header string) string {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return strings.TrimSpace(token)
}

// tokenMatches compares in constant time; hashing first hides the length too.
func tokenMatches(got, want string) bool {
	g, w := sha256.Sum256([]byte(got)), sha256.Sum256([]byte(want))
	return got != "" && subtle.ConstantTimeCompare(g[:], w[:]) == 1
}
