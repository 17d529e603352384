package handlers

import (
	"context"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
)

// healthz answers while the process serves.
func (h *Handler) healthz(c echo.Context) error { return c.String(http.StatusOK, "ok") }

// readyz answers 200 when the database and every readiness check pass, and
// 503 with the reasons otherwise.
func (h *Handler) readyz(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 5*time.Second)
	defer cancel()
	var problems []string
	if err := h.db.Ping(ctx); err != nil {
		problems = append(problems, "database: "+err.Error())
	}
	names := make([]string, 0, len(h.ready))
	for name := range h.ready {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := h.ready[name](ctx); err != nil {
			problems = append(problems, name+": "+err.Error())
		}
	}
	if len(problems) > 0 {
		return c.String(http.StatusServiceUnavailable, "not ready\n"+strings.Join(problems, "\n")+"\n")
	}
	return c.String(http.StatusOK, "ready\n")
}
