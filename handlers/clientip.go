package handlers

import (
	"net"

	"github.com/labstack/echo/v4"
)

// clientIP returns how the app learns a request's client address, which
// the sign-in throttle counts and the logs show. With no trusted proxies it
// is the connection's peer: X-Forwarded-For is written by the client and
// proves nothing. Otherwise the header is read from the right, skipping
// the trusted proxies' own entries, and the first address not theirs is
// the client; a request that did not come through one of them keeps its
// peer address. Echo's own default trusts every private and loopback
// address as a proxy, so those are switched off explicitly.
func clientIP(trusted []*net.IPNet) echo.IPExtractor {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect()
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, n := range trusted {
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...)
}
