package handlers

import (
	"net"
	"net/http"
	"strconv"
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

// observe records every request under its route pattern, not its path, so
// the number of series stays bounded.
func (m *metrics) observe(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		start := time.Now()
		err := next(c)
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		status := c.Response().Status
		if he, ok := err.(*echo.HTTPError); ok {
			status = he.Code
		}
		m.requests.WithLabelValues(c.Request().Method, route, strconv.Itoa(status)).Inc()
		if c.Response().Header().Get(echo.HeaderContentType) != "text/event-stream" {
			m.duration.WithLabelValues(c.Request().Method, route).Observe(time.Since(start).Seconds())
		}
		return err
	}
}

// showMetrics serves /metrics to admins and to scrapers on this machine.
func (h *Handler) showMetrics(c echo.Context) error {
	if !isLoopback(c.Request().RemoteAddr) {
		sess, err := h.sessions.Get(c.Request(), sessionName)
		id, _ := sess.Values[keyUserID].(string)
		epoch, _ := sess.Values[keyEpoch].(int64)
		u, uerr := h.accounts.SessionUser(c.Request().Context(), id, epoch)
		if err != nil || id == "" || uerr != nil || !u.IsAdmin() {
			return echo.NewHTTPError(http.StatusForbidden, "Metrics are for administrators and for scrapers on this machine.")
		}
	}
	promhttp.HandlerFor(h.metrics.registry, promhttp.HandlerOpts{}).ServeHTTP(c.Response(), c.Request())
	return nil
}

// isLoopback reports whether the request came from this machine. It looks
// at the connection, never at forwarding headers, which anyone can write.
func isLoopback(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
