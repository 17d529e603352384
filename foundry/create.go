package foundry

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// maxCreateRetries bounds how often StreamResponse sends a refused turn
// creation again (Config.MaxRetries may lower it).
const maxCreateRetries = 2

// defaultMaxServerDelay is the longest retry-after a creation waits out when
// Config.MaxRetryDelay is 0, as openai-go's own limit.
const defaultMaxServerDelay = time.Minute

// StreamResponse creates a response and opens its stream. An error before
// the stream opens (bad request, auth, a refusal that outlived its retries)
// is returned here; later failures come from Stream.Err. The caller must
// Close the stream.
//
// Creating a response is not idempotent: a request whose answer was lost
// may still have started a turn, and sending it again would run the turn
// twice (and bill it twice). So openai-go's retries are off for this call,
// and after any failure that may have created something (a connection
// error, 409, 429, 5xx) the client first looks for a response carrying the
// request's Key. If there is one, a background response's stream is picked
// up from its start; if there is none, only a 429, a 5xx or a
// conversation_locked refusal is sent again, after the server's
// retry-after. A connection error or a 409 is returned as it is.
func (c *Client) StreamResponse(ctx context.Context, req ResponseRequest) (*Stream, error) {
	if req.Key == "" {
		req.Key = newRequestKey()
	}
	params, opts, err := responseParams(req)
	if err != nil {
		return nil, fmt.Errorf("foundry: stream response: %w", err)
	}
	opts = append(opts, option.WithJSONSet("stream", true), option.WithMaxRetries(0))
	for attempt := 0; ; attempt++ {
		var raw *http.Response
		err = c.call(ctx, "stream response", func(ctx context.Context) error {
			return c.oai.Post(ctx, "responses", params, &raw, opts...)
		})
		if err == nil {
			return c.newResponseStream(ctx, raw, "", req.Background), nil
		}
		s, wait, err := c.afterFailedCreate(ctx, req, err, attempt)
		if s != nil || err != nil {
			return s, err
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// afterFailedCreate decides what follows a failed creation: a stream of the
// response it created after all, a wait before sending it again, or the
// error to return.
func (c *Client) afterFailedCreate(ctx context.Context, req ResponseRequest, err error, attempt int) (*Stream, time.Duration, error) {
	if ctx.Err() != nil || !mayHaveCreated(err) {
		return nil, 0, err
	}
	r, found, lerr := c.FindResponse(ctx, req)
	switch {
	case lerr != nil:
		// Whether a turn began cannot be told: never risk a second one.
		c.log.Warn("foundry: cannot tell whether a failed creation made a response", "err", lerr)
		return nil, 0, err
	case found && req.Background:
		c.log.Info("foundry: a failed creation made a response; following it", "response", r.ID)
		s, rerr := c.ResumeResponse(ctx, r.ID, -1)
		return s, 0, rerr
	case found:
		return nil, 0, fmt.Errorf("foundry: response %s was created but its stream was lost: %w", r.ID, err)
	}
	wait, ok := c.createRetryDelay(err, attempt)
	if !ok {
		return nil, 0, err
	}
	c.log.Info("foundry: turn creation refused; sending it again", "err", err, "in", wait)
	return nil, wait, nil
}

// mayHaveCreated reports whether a failed creation may still have started a
// response: the connection broke, or the service (or a gateway before it)
// answered with a conflict, a rate limit or a server error.
func mayHaveCreated(err error) bool { return transient(err) || IsConversationLocked(err) }

// createRetryDelay says whether a refused creation (known not to have made a
// response) is worth sending again, and after how long: the server's
// retry-after when it gave one; for a 429 without one, at least
// rateLimitWait, doubling; otherwise a short backoff (2 s, 4 s for a locked
// conversation, which says "retry in a few seconds").
func (c *Client) createRetryDelay(err error, attempt int) (time.Duration, bool) {
	var ae *APIError
	if attempt >= c.createRetries || !errors.As(err, &ae) {
		return 0, false
	}
	locked := ae.Code == "conversation_locked"
	if ae.StatusCode != http.StatusTooManyRequests && ae.StatusCode < 500 && !locked {
		return 0, false
	}
	wait := ae.RetryAfter
	switch {
	case wait > c.maxRetryDelay:
		return 0, false // the caller is better told than kept waiting
	case wait > 0:
	case ae.StatusCode == http.StatusTooManyRequests:
		// A bare 429: resending at once only spends the quota again.
		wait = c.rateLimitWait << attempt
	case locked:
		wait = min(2*time.Second<<attempt, c.maxRetryDelay)
	default:
		wait = min(time.Duration(500<<attempt)*time.Millisecond, c.maxRetryDelay)
	}
	return wait, true
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func newRequestKey() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
