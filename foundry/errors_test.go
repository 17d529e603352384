package foundry

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"
)

func TestNewAPIError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		status  int
		file    string
		header  http.Header
		want    APIError
		wantErr string
	}{
		{name: "openai container file 404", status: 404, file: "openai_container_file_404.json",
			header: http.Header{"Apim-Request-Id": {"apim-1"}, "X-Request-Id": {"x-1"}},
			want: APIError{StatusCode: 404, Message: "File cfile_01 not found on container cntr_01",
				Type: "invalid_request_error", RequestID: "apim-1"},
			wantErr: "404 Not Found: File cfile_01 not found on container cntr_01 [request apim-1]"},
		{name: "foundry 400 with details", status: 400, file: "foundry_400.json",
			header: http.Header{"X-Ms-Request-Id": {"ms-1"}, "X-Ms-Error-Code": {"Other"}},
			want:   APIError{StatusCode: 400, Code: "UserError", Message: "Too many versions for agent analyst.", RequestID: "ms-1"}},
		{name: "rate limit", status: 429, file: "rate_limit_429.json",
			header: http.Header{"X-Request-Id": {"x-2"}},
			want: APIError{StatusCode: 429, Code: "rate_limit_exceeded", Message: "Rate limit is exceeded. Try again in 1 seconds.",
				Type: "requests", RequestID: "x-2"}},
		{name: "apim flat 401", status: 401, file: "apim_401_flat.json",
			want: APIError{StatusCode: 401, Code: "", Message: "Access denied due to invalid subscription key or wrong API endpoint."}},
		{name: "numeric code", status: 429, file: "numeric_code.json",
			want: APIError{StatusCode: 429, Code: "429", Message: "Requests to the Responses API have exceeded rate limit."}},
		{name: "deprecated agent field", status: 400, file: "deprecated_agent_400.json",
			want: APIError{StatusCode: 400, Code: "invalid_payload", Param: "agent", Type: "invalid_request_error",
				Message: "The 'agent' property is deprecated. Use 'agent_reference' instead."}},
		{name: "html gateway page", status: 502, file: "server_error.html",
			want: APIError{StatusCode: 502, Message: "<html><body><h1>502 Bad Gateway</h1></body></html>"}},
		{name: "empty body, code from header", status: 403, header: http.Header{"X-Ms-Error-Code": {"preview_feature_required"}},
			want:    APIError{StatusCode: 403, Code: "preview_feature_required"},
			wantErr: "403 Forbidden (preview_feature_required)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []byte
			if tt.file != "" {
				body = readTestdata(t, filepath.Join("errors", tt.file))
			}
			h := tt.header
			if h == nil {
				h = http.Header{}
			}
			resp := &http.Response{StatusCode: tt.status, Header: h, Body: io.NopCloser(bytes.NewReader(body))}
			got := newAPIError(resp)
			if *got != tt.want {
				t.Errorf("got %+v\nwant %+v", *got, tt.want)
			}
			if tt.wantErr != "" && got.Error() != tt.wantErr {
				t.Errorf("Error() = %q, want %q", got.Error(), tt.wantErr)
			}
			// The body stays readable for whoever handles the response next.
			if rest, _ := io.ReadAll(resp.Body); !bytes.Equal(rest, body) {
				t.Errorf("body not restored: %q", rest)
			}
		})
	}
}

func TestIsNotFound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"404", &APIError{StatusCode: 404}, true},
		{"wrapped 404", fmt.Errorf("foundry: delete file: %w", &APIError{StatusCode: 404}), true},
		{"410", &APIError{StatusCode: 410}, false},
		{"stream failure", &APIError{Code: "not_found"}, false},
		{"other", errors.New("404"), false},
		{"nil", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsNotFound(tt.err); got != tt.want {
				t.Errorf("IsNotFound(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestIsContainerExpired(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"openai wording", &APIError{StatusCode: 400, Message: "Container is expired."}, true},
		{"code", fmt.Errorf("foundry: stream: %w", &APIError{Code: "container_expired"}), true},
		{"early expiry wording", &APIError{StatusCode: 400, Type: "invalid_request_error", Message: "Expected container_id: cntr_699891e28e8c81908899e5643ea7ea930c3ce18a36267e49"}, true},
		{"expected container_id, not a 400", &APIError{StatusCode: 500, Message: "Expected container_id: cntr_1"}, false},
		{"other container error", &APIError{StatusCode: 404, Message: "Container cntr_1 not found"}, false},
		{"other expiry", &APIError{StatusCode: 401, Message: "Token expired"}, false},
		{"not an APIError", errors.New("container expired"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsContainerExpired(tt.err); got != tt.want {
				t.Errorf("IsContainerExpired(%v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

// TestErrorKinds checks that a refusal means the same whether it came as an
// HTTP answer or inside the stream, as the service does either.
func TestErrorKinds(t *testing.T) {
	stream := func(code string) error { return fmt.Errorf("foundry: stream: %w", &APIError{Code: code, Message: "m"}) }
	tests := []struct {
		name                        string
		err                         error
		rateLimited, server, locked bool
	}{
		{"429", &APIError{StatusCode: 429}, true, false, false},
		{"in-stream rate limit", stream("rate_limit_exceeded"), true, false, false},
		{"503", &APIError{StatusCode: 503}, false, true, false},
		{"in-stream server_error", stream("server_error"), false, true, false},
		{"400 named server_error", &APIError{StatusCode: 400, Code: "server_error"}, false, false, false},
		{"conversation_locked", &APIError{StatusCode: 400, Code: "conversation_locked"}, false, false, true},
		{"409", &APIError{StatusCode: 409}, false, false, true},
		{"transport", errors.New("connection reset"), false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsRateLimited(tt.err); got != tt.rateLimited {
				t.Errorf("IsRateLimited = %v", got)
			}
			if got := IsServerError(tt.err); got != tt.server {
				t.Errorf("IsServerError = %v", got)
			}
			if got := IsConversationLocked(tt.err); got != tt.locked {
				t.Errorf("IsConversationLocked = %v", got)
			}
		})
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		header http.Header
		want   time.Duration
	}{
		{http.Header{"Retry-After-Ms": {"1500"}, "Retry-After": {"9"}}, 1500 * time.Millisecond},
		{http.Header{"X-Ms-Retry-After-Ms": {"20"}}, 20 * time.Millisecond},
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second},
		{http.Header{"Retry-After": {now.Add(4 * time.Second).Format(http.TimeFormat)}}, 4 * time.Second},
		{http.Header{"Retry-After": {"soon"}}, 0},
	}
	for _, tt := range tests {
		if got := retryAfter(tt.header, now); got != tt.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tt.header, got, tt.want)
		}
	}
}
