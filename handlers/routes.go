package handlers

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/analyst-workbench/workbench/static"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// maxFormBytes caps ordinary form posts; uploads have their own, larger cap.
const maxFormBytes = "1M"

// Register installs every route and middleware on e. The whole route table
// is here, on one screen, grouped by resource.
func (h *Handler) Register(e *echo.Echo) {
	e.HTTPErrorHandler = h.handleError
	e.IPExtractor = clientIP(h.proxies)
	e.Use(
		middleware.RequestID(),
		h.logRequests(),
		h.metrics.observe,
		h.renderErrors,
		middleware.Recover(),
		middleware.SecureWithConfig(secureHeaders),
		h.idleBodies,
	)

	// Probes and assets: no session, no CSRF.
	e.GET("/healthz", h.healthz)
	e.GET("/readyz", h.readyz)
	e.GET("/metrics", h.showMetrics)
	e.GET(static.Prefix+"*", echo.WrapHandler(static.Handler()))

	// Forms: a small body, and the CSRF token in the header or the form.
	app := e.Group("", middleware.BodyLimit(maxFormBytes), h.loadSession, h.checkCSRF, h.requireSetup)

	// Accounts.
	app.GET("/setup", h.showSetup)
	app.POST("/setup", h.setup)
	app.GET("/login", h.showLogin)
	app.POST("/login", h.login)
	app.POST("/logout", h.logout)
	if h.oidc != nil {
		// Single sign-on: a GET both ways, so that the session cookie
		// (SameSite=Lax) comes along when the provider sends the browser back.
		app.GET("/auth/oidc/login", h.startOIDC)
		app.GET("/auth/oidc/callback", h.finishOIDC)
	}

	// Read-only links: outside the session middleware, which would start
	// a session and set a cookie, so that a shared page is the same for
	// everyone it lets in (see openShare and viewer).
	// HEAD answers as GET does, without the body; without these routes it
	// would fall to the app group, which starts a session and sends it to
	// the sign-in page.
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		e.Add(m, "/s/:token", h.showShare)
		e.Add(m, "/s/:token/artifacts/:artifact", h.downloadSharedArtifact)
		e.Add(m, "/s/:token/files/:file", h.downloadSharedFile)
		e.Add(m, "/s/:token/turns", h.showSharedEarlier)
	}
	e.OPTIONS("/s/*", answerShareOptions)

	user := app.Group("", h.requireUser)

	// Conversations.
	user.GET("/", h.home)
	user.GET("/conversations", h.listConversations)
	user.POST("/conversations", h.createConversation)
	user.GET("/conversations/:id", h.showConversation)
	user.GET("/conversations/:id/title", h.showConversationTitle)
	user.POST("/conversations/:id/rename", h.renameConversation)
	user.POST("/conversations/:id/delete", h.deleteConversation)
	user.POST("/conversations/:id/shares", h.createShare)
	user.POST("/conversations/:id/shares/:share/revoke", h.revokeShare)

	// Generated files.
	user.GET("/artifacts/:id", h.downloadArtifact)
	user.GET("/artifacts/:id/thumb", h.showThumbnail)
	user.GET("/conversations/:id/export.ipynb", h.export(notebookExport))
	user.GET("/conversations/:id/export", h.showExport)
	user.GET("/conversations/:id/export.md", h.export(markdownExport))
	user.GET("/conversations/:id/export.html", h.export(htmlExport))
	user.GET("/conversations/:id/gallery", h.showGallery)
	user.GET("/conversations/:id/charts.zip", h.downloadChartsZip)

	// Uploads stream large bodies to disk, so the route has its own body
	// limit and CSRF check instead of the forms' (see uploadMiddleware).
	e.POST("/conversations/:id/files", h.uploadFiles, h.uploadMiddleware()...)
	user.POST("/conversations/:id/files/:file/delete", h.removeFile)

	// Turns of analysis.
	user.POST("/conversations/:id/messages", h.postMessage)
	user.POST("/conversations/:id/steps", h.postStep)
	user.GET("/conversations/:id/turns", h.showNewTurns)
	user.GET("/conversations/:id/runs/:run/events", h.streamRunEvents)
	user.GET("/conversations/:id/runs/:run/images/:key", h.showRunImage)
	user.POST("/conversations/:id/runs/:run/cancel", h.cancelRun)
	user.POST("/conversations/:id/runs/:run/files/:file/retry", h.retryCopy)

	// Administration.
	admin := user.Group("/admin", h.requireAdmin)
	admin.GET("", h.showAdmin)
	admin.POST("/purge", h.purgeAction)
	admin.GET("/purges/:id", h.showPurge)
	admin.GET("/reconcile", h.showReconcile)
	admin.POST("/reconcile", h.reconcile)
	admin.GET("/agent/delete", h.showAgentDeletion)
	admin.POST("/agent/delete", h.deleteAgent)
	admin.POST("/retention", h.setRetention)
	admin.POST("/shares/:share/revoke", h.revokeAnyShare)
	admin.GET("/users", h.showUsers)
	admin.POST("/users", h.createUser)
	admin.POST("/users/:id/password", h.resetPassword)
	admin.POST("/users/:id/disabled", h.setUserDisabled)
}

// secureHeaders allow only this origin's scripts and styles (htmx needs
// inline styles for its indicators), and no framing.
var secureHeaders = middleware.SecureConfig{
	XSSProtection:      "0",
	ContentTypeNosniff: "nosniff",
	XFrameOptions:      "DENY",
	ReferrerPolicy:     "same-origin",
	ContentSecurityPolicy: "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
}

// renderErrors renders a handler's error here, inside the request log and
// the metrics, so that both record the status the user got: echo's own
// error handler runs only after every middleware has returned, by when the
// log would have written 200.
func (h *Handler) renderErrors(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := next(c); err != nil {
			h.handleError(err, c)
		}
		return nil
	}
}

// logRequests logs one line per request with its id, status and duration.
func (h *Handler) logRequests() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogMethod: true, LogURIPath: true, LogLatency: true, LogRequestID: true, LogRemoteIP: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			h.log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("path", logPath(v.URIPath)), slog.Int("status", v.Status),
				slog.Duration("duration", v.Latency.Round(time.Microsecond)), slog.String("request_id", v.RequestID),
				slog.String("remote", v.RemoteIP))
			return nil
		},
	})
}
