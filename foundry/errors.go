package foundry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// APIError is a non-2xx answer from the service, or a failure reported inside
// a response stream (then StatusCode is 0).
type APIError struct {
	// StatusCode is the HTTP status, or 0 when the error arrived as a stream event.
	StatusCode int `json:"status_code,omitzero"`
	// Code is the service's error code ("rate_limit_exceeded", "server_error", …); may be empty.
	Code string `json:"code,omitzero"`
	// Message is the service's human-readable message.
	Message string `json:"message,omitzero"`
	// Param names the offending request field, when the service says.
	Param string `json:"param,omitzero"`
	// Type is the OpenAI-style error type ("invalid_request_error", …).
	Type string `json:"type,omitzero"`
	// RequestID is the first of apim-request-id, x-request-id, x-ms-request-id found.
	RequestID string `json:"request_id,omitzero"`
	// RetryAfter is how long the service asked the client to wait
	// (retry-after-ms, x-ms-retry-after-ms or retry-after), 0 if it did not say.
	RetryAfter time.Duration `json:"retry_after,omitzero"`
}

// Error implements error.
func (e *APIError) Error() string {
	// No "foundry: " prefix here: the client always wraps an APIError with
	// the operation ("foundry: upload file: 404 Not Found …").
	var b strings.Builder
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, "%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	} else {
		b.WriteString("response failed")
	}
	if e.Code != "" {
		fmt.Fprintf(&b, " (%s)", e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.RequestID != "" {
		b.WriteString(" [request " + e.RequestID + "]")
	}
	return b.String()
}

// IsNotFound reports whether err is, or wraps, a 404 from the service. Purge
// code treats a remote 404 as "already gone".
func IsNotFound(err error) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound
}

// IsContainerExpired reports whether err says the Code Interpreter container
// of the conversation has expired (1 h active, 30 min idle), in which case
// the turn should go on in a fresh conversation with the files attached
// again. It holds for an HTTP answer and for an error inside the stream.
// Two wordings are known: OpenAI's 400 "Container is expired." (seen on
// Azure too), and the 400 "Expected container_id: cntr_…" with which an
// early expiry was once answered (pydantic/pydantic-ai#7461;
// shared/reference/foundry-recorded.md 1b). Foundry's own wording is
// UNCONFIRMED; any code or message that names an expired container counts.
func IsContainerExpired(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	text := strings.ToLower(ae.Code + " " + ae.Message)
	if strings.Contains(text, "container") && strings.Contains(text, "expired") {
		return true
	}
	return ae.StatusCode == http.StatusBadRequest && strings.Contains(text, "expected container_id")
}

// IsRateLimited reports whether err is a rate limit: a 429, or the same
// refusal reported inside a stream (code rate_limit_exceeded, reference §8).
func IsRateLimited(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	return ae.StatusCode == http.StatusTooManyRequests ||
		ae.StatusCode == 0 && strings.Contains(strings.ToLower(ae.Code), "rate_limit")
}

// IsServerError reports whether err is the service's own failure: a 5xx, or
// a stream error event or failed response whose code says so. Inside a
// stream the code is what the service has; the reference lists
// server_error, and internal_error / service_unavailable are accepted too
// (UNCONFIRMED which ones Foundry sends).
func IsServerError(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	if ae.StatusCode >= 500 {
		return true
	}
	switch strings.ToLower(ae.Code) {
	case "server_error", "internal_error", "internal_server_error", "service_unavailable", "timeout":
		return ae.StatusCode == 0
	}
	return false
}

// IsRefused reports whether err is the service refusing the request itself
// over HTTP: a 4xx that sending the same request again does not change —
// a bad model deployment or tool (400), no permission (401, 403), no such
// deployment or project (404). A timeout (408), a conflict (409) and a rate
// limit (429) pass by themselves and are not refusals; nor is anything
// that never got an HTTP answer.
func IsRefused(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) || ae.StatusCode < 400 || ae.StatusCode > 499 {
		return false
	}
	switch ae.StatusCode {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return false
	}
	return true
}

// IsConversationLocked reports whether err says another response is still
// running in the conversation. OpenAI answers 400 conversation_locked
// ("Another process is currently operating on this conversation"); Foundry's
// answer is UNCONFIRMED, so a 409 counts too.
func IsConversationLocked(err error) bool {
	var ae *APIError
	if !errors.As(err, &ae) {
		return false
	}
	return ae.Code == "conversation_locked" || ae.StatusCode == http.StatusConflict
}

// requestIDHeaders are tried in order: APIM fronts the OpenAI-compatible
// routes, the Foundry-native routes use the x-ms form, and some gateways only
// echo x-request-id.
var requestIDHeaders = []string{"apim-request-id", "x-request-id", "x-ms-request-id"}

func requestID(h http.Header) string {
	for _, k := range requestIDHeaders {
		if v := h.Get(k); v != "" {
			return v
		}
	}
	return ""
}

// retryAfter reads the wait a 429 or 503 asks for: retry-after-ms (Azure
// OpenAI), its x-ms form (Foundry-native routes), then retry-after in
// seconds or as an HTTP date (reference §8). Zero means the server did not say.
func retryAfter(h http.Header, now time.Time) time.Duration {
	for _, k := range []string{"retry-after-ms", "x-ms-retry-after-ms"} {
		if ms, err := strconv.ParseFloat(h.Get(k), 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := h.Get("retry-after")
	if s, err := strconv.ParseFloat(v, 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// maxErrorBody bounds how much of an error body is read: enough for any JSON
// error, not enough for a runaway HTML page to matter.
const maxErrorBody = 64 << 10

// newAPIError builds an APIError from a non-2xx response, reading (and
// restoring) at most maxErrorBody bytes of its body.
func newAPIError(resp *http.Response) *APIError {
	var body []byte
	if resp.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	e := parseErrorBody(body)
	e.StatusCode = resp.StatusCode
	e.RequestID = requestID(resp.Header)
	e.RetryAfter = retryAfter(resp.Header, time.Now())
	if e.Code == "" {
		// Foundry-native routes put the code in a header as well; some
		// gateway errors only have it there.
		e.Code = resp.Header.Get("x-ms-error-code")
	}
	return e
}

// wireError accepts every error shape the reference lists, and the flat ones
// gateways emit. The field types are loose on purpose: "code" is a string on
// OpenAI routes but a number in some APIM answers, and may be null.
type wireError struct {
	Error      *wireErrorBody `json:"error"`
	Code       looseString    `json:"code"`
	Message    string         `json:"message"`
	Param      looseString    `json:"param"`
	Type       string         `json:"type"`
	Detail     string         `json:"detail"`
	StatusCode looseString    `json:"statusCode"`
}

type wireErrorBody struct {
	Code    looseString `json:"code"`
	Message string      `json:"message"`
	Param   looseString `json:"param"`
	Type    string      `json:"type"`
}

// parseErrorBody never fails: a body that is not JSON becomes the message.
func parseErrorBody(body []byte) *APIError {
	var w wireError
	if err := json.Unmarshal(body, &w); err != nil {
		return &APIError{Message: strings.TrimSpace(string(truncate(body, 512)))}
	}
	if w.Error != nil {
		return &APIError{Code: string(w.Error.Code), Message: w.Error.Message, Param: string(w.Error.Param), Type: w.Error.Type}
	}
	msg := w.Message
	if msg == "" {
		msg = w.Detail
	}
	return &APIError{Code: string(w.Code), Message: msg, Param: string(w.Param), Type: w.Type}
}

func truncate(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

// looseString decodes a JSON string, number or bool as its text, and null as "".
type looseString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *looseString) UnmarshalJSON(b []byte) error {
	if len(b) == 0 || string(b) == "null" {
		*s = ""
		return nil
	}
	if b[0] == '"' {
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = looseString(v)
		return nil
	}
	if _, err := strconv.ParseFloat(string(b), 64); err == nil || string(b) == "true" || string(b) == "false" {
		*s = looseString(b)
		return nil
	}
	// Objects and arrays carry no usable code; keep the error parse going.
	*s = ""
	return nil
}
